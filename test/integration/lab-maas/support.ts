// Test support for the MAAS lab: start it on loopback, call it with an OAuth PLAINTEXT header built from MAAS's docs.
import {
  createMaasApi,
  type MaasApi,
  type MaasApiOptions,
  type ManualClock,
  manualClock,
  memoryPowerDriver,
} from "../../../src/lab/maas/index.js";
import { oauthHeader } from "../../support/maas-oauth.js";

export const API_KEY = "labconsumer:labtoken:labsecret";
export const DELAYS = { commissionMs: 1000, deployMs: 2000, releaseMs: 500, eraseMs: 3000, testMs: 1500 };

export interface Lab {
  maas: MaasApi;
  clock: ManualClock;
  power: ReturnType<typeof memoryPowerDriver>;
  url: string;
  close(): Promise<void>;
}

/** Starts a lab region on 127.0.0.1:0 with a manual clock and an in-memory power driver. */
export async function startLab(overrides: Partial<MaasApiOptions> = {}): Promise<Lab> {
  const clock = manualClock();
  const power = memoryPowerDriver();
  const maas = createMaasApi({ apiKeys: [API_KEY], delays: DELAYS, clock, power, ...overrides });
  const server = await maas.listen("127.0.0.1", 0);
  return {
    maas,
    clock,
    power,
    url: server.url,
    close: async () => {
      maas.stop();
      await server.close();
    },
  };
}

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  op?: string;
  form?: Record<string, string | string[]>;
  key?: string | null;
  authorization?: string;
}

export interface CallResult {
  status: number;
  text: string;
  contentType: string;
  // biome-ignore lint/suspicious/noExplicitAny: test helper hands back parsed JSON for assertions
  json: any;
}

/** Calls `path` (below /MAAS/api/2.0/) with form parameters, as the MAAS CLI does. */
export async function call(lab: Lab, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const method = opts.method ?? "GET";
  const url = new URL(`api/2.0/${path}`, lab.url);
  if (opts.op) url.searchParams.set("op", opts.op);
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.form ?? {})) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? API_KEY : opts.key;
  if (opts.authorization !== undefined) headers.Authorization = opts.authorization;
  else if (key !== null) headers.Authorization = oauthHeader(key);
  let body: string | undefined;
  if (method === "GET" || method === "DELETE") {
    for (const [k, v] of form) url.searchParams.append(k, v);
  } else {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = form.toString();
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  const contentType = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    text,
    contentType,
    json: contentType.startsWith("application/json") ? JSON.parse(text) : undefined,
  };
}

/** Creates a redfish machine and returns its JSON. */
export async function createMachine(lab: Lab, hostname: string, mac: string, extra: Record<string, string> = {}) {
  const r = await call(lab, "machines/", {
    method: "POST",
    form: {
      architecture: "amd64/generic",
      mac_addresses: mac,
      hostname,
      power_type: "redfish",
      power_parameters_power_address: `https://bmc-${hostname}.lab`,
      power_parameters_power_user: "admin",
      power_parameters_power_pass: "bmc-pass",
      ...extra,
    },
  });
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json;
}

/** Reads a machine's status name. */
export async function statusOf(lab: Lab, systemId: string): Promise<string> {
  return (await call(lab, `machines/${systemId}/`)).json.status_name;
}
