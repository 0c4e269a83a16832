/** Test helpers: a lab on loopback and a small Redfish client trusting the lab CA (independent of src/clients). */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { type Lab, type StartLabOptions, startLab } from "../../../src/lab/index.js";
import { labControl } from "../../support/lab-control.js";

/** A started lab plus a client; call `stop` in afterAll/afterEach. */
export interface TestLab {
  readonly lab: Lab;
  readonly agent: Agent;
  stop(): Promise<void>;
}

/** Starts a lab with the instant profile in a temporary state dir. */
export async function startTestLab(opts: Partial<StartLabOptions> = {}): Promise<TestLab> {
  const stateDir = mkdtempSync(join(tmpdir(), "rackform-lab-"));
  const lab = await startLab({ profile: "instant", nodes: 2, ...opts, stateDir });
  const agent = new Agent({ connect: { ca: readFileSync(lab.info.ca, "utf8") }, keepAliveTimeout: 1000 });
  return {
    lab,
    agent,
    stop: async () => {
      await agent.destroy();
      await lab.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Untyped JSON as tests read it (payload shapes are asserted, not assumed). */
// biome-ignore lint/suspicious/noExplicitAny: test payloads are arbitrary JSON navigated by assertion
export type Json = any;

/** A response as tests look at it. */
export interface Res {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Json;
}

/** One HTTPS request to a lab endpoint; `auth` "basic" by default, or an X-Auth-Token, or "none". */
export async function call(
  t: TestLab,
  base: string,
  method: string,
  path: string,
  opts: {
    body?: unknown;
    raw?: string;
    auth?: "basic" | "none" | { token: string };
    headers?: Record<string, string>;
  } = {},
): Promise<Res> {
  const { username, password } = t.lab.spec.credentials;
  const headers: Record<string, string> = { ...opts.headers };
  const auth = opts.auth ?? "basic";
  if (auth === "basic") headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  else if (auth !== "none") headers["x-auth-token"] = auth.token;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await request(`${base}${path}`, { method: method as "GET", headers, body, dispatcher: t.agent });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(", ") : String(v);
  return { status: res.statusCode, headers: flat, body: text ? JSON.parse(text) : undefined };
}

/** A control API call (test/support/lab-control.ts), its parsed JSON as `body` like `call`'s. */
export async function control(t: TestLab, method: string, path: string, body?: unknown): Promise<Res> {
  const r = await labControl(t.lab, method, path, body);
  return { status: r.status, headers: r.headers, body: r.json };
}

/** Switches a node's outlet on through the control API (instant profile: BMC up at once). */
export async function powerOutlet(t: TestLab, node: string, state: "On" | "Off" = "On"): Promise<void> {
  const r = await control(t, "POST", `/nodes/${node}/outlet`, { state });
  if (r.status !== 200) throw new Error(`outlet ${state} for ${node} failed: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Follows links from the service root to the node's ComputerSystem path. */
export async function systemPath(t: TestLab, bmcUrl: string): Promise<string> {
  const root = await call(t, bmcUrl, "GET", "/redfish/v1");
  const systems = await call(t, bmcUrl, "GET", root.body.Systems["@odata.id"]);
  return systems.body.Members[0]["@odata.id"];
}

/** A one-node lab with its outlet on: the lab, the node's BMC URL and its ComputerSystem path. */
export async function startPoweredNode(): Promise<{ t: TestLab; bmc: string; sys: string }> {
  const t = await startTestLab({ nodes: 1 });
  const bmc = t.lab.info.nodes[0].bmc.url;
  await powerOutlet(t, t.lab.info.nodes[0].name);
  return { t, bmc, sys: await systemPath(t, bmc) };
}
