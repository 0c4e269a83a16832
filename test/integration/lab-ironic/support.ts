// Test support for the lab Ironic: start it on loopback and call it as an Ironic client would (JSON + microversion header).
import {
  createIronicApi,
  type IronicApi,
  type IronicApiOptions,
  type ManualClock,
  manualClock,
} from "../../../src/lab/ironic/index.js";

export const MV = "1.82";
export const DELAYS = {
  verifyMs: 100,
  inspectMs: 1000,
  cleanMs: 1000,
  deployMs: 2000,
  deleteMs: 500,
  powerMs: 100,
  allocationMs: 0,
  stepMs: 5000,
};

export interface Lab {
  api: IronicApi;
  clock: ManualClock;
  url: string;
  close(): Promise<void>;
}

/** Starts a lab Ironic on 127.0.0.1:0 with a manual clock. */
export async function startLab(overrides: Partial<IronicApiOptions> = {}): Promise<Lab> {
  const clock = manualClock();
  const api = createIronicApi({ delays: DELAYS, clock, ...overrides });
  const server = await api.listen("127.0.0.1", 0);
  return { api, clock, url: server.url, close: () => server.close() };
}

export interface Res {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON for assertions
  json: any;
  headers: Headers;
}

/** Calls the API; `version` null sends no microversion header. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; version?: string | null; raw?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  const version = opts.version === undefined ? MV : opts.version;
  if (version !== null) headers["X-OpenStack-Ironic-API-Version"] = version;
  if (opts.body !== undefined || opts.raw !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined, headers: r.headers };
}

/** The faultstring inside Ironic's doubly-encoded error body. */
export function faultOf(r: Res): { faultcode: string; faultstring: string; debuginfo: null } {
  return JSON.parse(r.json.error_message);
}

/** PUT …/states/provision. */
export function provision(base: string, node: string, body: Record<string, unknown>, version?: string): Promise<Res> {
  return call(base, "PUT", `/v1/nodes/${node}/states/provision`, { body, version });
}

/** GET one node. */
export async function node(base: string, ident: string, version?: string) {
  return (await call(base, "GET", `/v1/nodes/${ident}`, { version })).json;
}

/** Creates a fake-hardware node and returns its JSON. */
export async function createFakeNode(base: string, extra: Record<string, unknown> = {}) {
  const r = await call(base, "POST", "/v1/nodes", {
    body: { driver: "fake-hardware", resource_class: "baremetal-gpu", ...extra },
  });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}
