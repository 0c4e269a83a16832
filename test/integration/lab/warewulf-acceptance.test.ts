/**
 * The node side of rackform's acceptance gate through the lab warewulfd (rackform's convention, not a Warewulf
 * feature): a node at runtime with the runtime overlay `rackform-acceptance` and a request tag writes the result tag of
 * that run id, measured by the lab's acceptance simulation (faults included), once per run id; without the overlay, or
 * while the host is off, nothing runs. Driven over HTTP as the adapter would, on the instant profile.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../../src/lab/index.js";

let lab: Lab;
let stateDir: string;
let base: string;
let auth: string;

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
const unb64 = (v: string | undefined) => (v ? JSON.parse(Buffer.from(v, "base64").toString("utf8")) : undefined);

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The node's result tag, decoded (after one GET, as the adapter polls). */
async function result(name: string) {
  const n = (await call("GET", `/api/nodes/${name}`)).json;
  return unb64((n.tags as Record<string, string> | undefined)?.rackform_acceptance_result);
}

async function request(name: string, run: string, overlay = true) {
  const node = {
    "runtime overlay": overlay ? ["hostname", "rackform-acceptance"] : ["hostname"],
    tags: { rackform_acceptance_request: b64({ run, dcgm_level: 3, burn_in: "1h" }) },
  };
  expect((await call("PATCH", `/api/nodes/${name}`, { node })).status).toBe(200);
}

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "rf-warewulf-acceptance-"));
  lab = await startLab({ nodes: 2, profile: "instant", stateDir });
  const w = lab.info.warewulf!;
  base = w.url;
  auth = `Basic ${Buffer.from(`${w.username}:${w.password}`).toString("base64")}`;
  await call("POST", "/api/images/rocky-9/import", { uri: "docker://r/rocky:9" });
  await call("POST", "/api/images/rocky-9/build");
  for (const n of lab.info.nodes) {
    const mac = lab.world.node(n.name)!.ports[0].mac;
    const node = { profiles: ["default"], "image name": "rocky-9", "network devices": { default: { hwaddr: mac } } };
    expect((await call("PUT", `/api/nodes/${n.name}`, { node })).status).toBe(200);
  }
});
afterAll(async () => {
  await lab?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe("the lab's node side of rackform's Warewulf acceptance gate", () => {
  it("lists rackform's overlay as a site overlay (the site imported it)", async () => {
    const overlays = (await call("GET", "/api/overlays/")).json;
    expect(Object.keys(overlays)).toContain("rackform-acceptance");
  });

  it("runs nothing while the host is off, nor without the overlay", async () => {
    const [a, b] = lab.info.nodes;
    await request(a.name, "off-1");
    expect(await result(a.name)).toBeUndefined();
    lab.world.setOutlet(b.pdu, b.outlet, "On");
    lab.world.setHostPower(lab.world.node(b.name)!, true);
    await request(b.name, "no-overlay-1", false);
    expect(await result(b.name)).toBeUndefined();
  });

  it("measures a node at runtime once per run id, faults included, and writes the result tag", async () => {
    const n = lab.info.nodes[0];
    lab.world.setOutlet(n.pdu, n.outlet, "On");
    lab.world.setHostPower(lab.world.node(n.name)!, true);
    lab.world.faults.add({ kind: "marginal-nccl", node: n.name, value: 300 });
    await request(n.name, "run-1");
    const first = await result(n.name);
    expect(first).toMatchObject({ run: "run-1", passed: false });
    expect(first.evidence).toMatchObject({ format: "rackform-acceptance/v1", node: n.name, nccl: { busbw_gbps: 300 } });
    expect(first.evidence.failures.join("; ")).toContain("all_reduce busbw 300 GB/s below the minimum");
    // The same run id is not measured again, whatever changed since
    lab.world.faults.clear();
    await request(n.name, "run-1");
    expect(await result(n.name)).toEqual(first);
    // A new run id is a new run
    await request(n.name, "run-2");
    expect(await result(n.name)).toMatchObject({ run: "run-2", passed: true, evidence: { passed: true } });
  });
});
