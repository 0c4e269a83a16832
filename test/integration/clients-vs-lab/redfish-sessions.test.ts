/** Issue 13 (Deliver 0): per-vendor session limits in the lab; a client at the limit falls back to basic auth. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { defaultSpec, type Lab, ManualClock, startLab } from "../../../src/lab/index.js";

let lab: Lab;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "rf-sessions-"));
  const clock = new ManualClock();
  const spec = structuredClone(defaultSpec({ nodes: 1 })) as unknown as { nodes: { sessionLimit?: number }[] };
  spec.nodes[0].sessionLimit = 2;
  lab = await startLab({ stateDir, spec: spec as never, profile: "demo", clock, backends: false });
  for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  clock.advance(60_000);
});
afterAll(async () => {
  await lab?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const client = (auth: "session" | "basic" = "session") => {
  const n = lab.info.nodes[0];
  return new RedfishClient({
    baseUrl: n.bmc.url,
    username: n.bmc.username,
    password: n.bmc.password,
    auth,
    ca: lab.info.ca,
  });
};

async function liveSessions(): Promise<number> {
  const c = client("basic");
  const res = await c.serviceRoot().then(async () => {
    const t = (c as unknown as { t: { getJson(r: string): Promise<Record<string, unknown>> } }).t;
    return t.getJson("/redfish/v1/SessionService/Sessions");
  });
  await c.close();
  return res["Members@odata.count"] as number;
}

it("a BMC at its session limit answers 503; the client falls back to basic auth and still reads; logout frees them", async () => {
  const a = client();
  const b = client();
  await a.login();
  await b.login();
  expect(await liveSessions()).toBe(2);
  const c = client();
  const inv = await c.inventory();
  expect(inv.gpus).toHaveLength(8);
  expect(await liveSessions()).toBe(2);
  await Promise.all([a.close(), b.close(), c.close()]);
  expect(await liveSessions()).toBe(0);
});
