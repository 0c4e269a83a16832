/**
 * Acceptance signals through both backends: MAAS testing script "rackform-acceptance" (output = the JSON document,
 * status passed/failed) and Ironic clean/service step deploy.rackform_acceptance (result in
 * driver_internal_info.lab_step_results). Node 1 is healthy, node 2 has marginal NCCL bandwidth, node 3 lost a GPU.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, measureAcceptance } from "../../../src/lab/index.js";
import { labControl } from "../../support/lab-control.js";
import { until } from "../../support/until.js";
import {
  createRedfishMachine,
  ironic,
  ironicState,
  type Json,
  maas,
  maasStatus,
  powerOutlet,
  startComposedLab,
} from "./support.js";

let lab: Lab;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ lab, stop } = await startComposedLab({ nodes: 3 }));
  for (const n of lab.info.nodes) await powerOutlet(lab, n.name);
  const [, marginal, missing] = lab.info.nodes;
  expect(
    (await labControl(lab, "POST", "/faults", { kind: "marginal-nccl", node: marginal.name, value: 300 })).status,
  ).toBe(201);
  expect((await labControl(lab, "POST", "/faults", { kind: "missing-gpu", node: missing.name, gpus: 1 })).status).toBe(
    201,
  );
});
afterAll(async () => stop());

/** Enrolls node `i` in MAAS, commissions it, runs the acceptance script; returns the final status and the JSON. */
async function viaMaas(i: number, form: Record<string, string>): Promise<{ status: string; doc: Json; result: Json }> {
  const created = await createRedfishMachine(lab, i, `acc-${i}`);
  expect(created.status, created.text).toBe(200);
  const id: string = created.json.system_id;
  await maasStatus(lab, id, "Ready");
  const started = await maas(lab, "POST", `machines/${id}/`, {
    op: "test",
    testing_scripts: "rackform-acceptance",
    ...form,
  });
  expect(started.status, started.text).toBe(200);
  const status = await until(`acceptance run on acc-${i}`, async () => {
    const s = (await maas(lab, "GET", `machines/${id}/`)).json.status_name;
    return s === "Ready" || s === "Failed testing" ? s : undefined;
  });
  const set = (await maas(lab, "GET", `nodes/${id}/results/current-testing/`, { include_output: "1" })).json;
  const result = set.results.find((r: { name: string }) => r.name === "rackform-acceptance");
  return { status, result, doc: JSON.parse(Buffer.from(result.output, "base64").toString("utf8")) };
}

/** Enrolls node `i` in Ironic and runs deploy.rackform_acceptance as a manual clean step; returns state and record. */
async function viaIronic(
  i: number,
  args: Record<string, unknown>,
): Promise<{ state: string; record: Json; node: Json }> {
  const node = lab.info.nodes[i];
  const name = `ironic-acc-${i}`;
  const created = await ironic(lab, "POST", "/v1/nodes", {
    name,
    driver: "redfish",
    driver_info: {
      redfish_address: node.bmc.url,
      redfish_username: node.bmc.username,
      redfish_password: node.bmc.password,
    },
  });
  expect(created.status, created.text).toBe(201);
  await ironic(lab, "PUT", `/v1/nodes/${name}/states/provision`, { target: "manage" });
  await ironicState(lab, name, "manageable");
  const clean = await ironic(lab, "PUT", `/v1/nodes/${name}/states/provision`, {
    target: "clean",
    clean_steps: [{ interface: "deploy", step: "rackform_acceptance", args }],
  });
  expect(clean.status, clean.text).toBe(202);
  const done = await until(`clean of ${name}`, async () => {
    const n = (await ironic(lab, "GET", `/v1/nodes/${name}`)).json;
    return ["manageable", "clean failed"].includes(n.provision_state) && n.reservation === null ? n : undefined;
  });
  const record = done.driver_internal_info.lab_step_results.at(-1);
  return { state: done.provision_state, record, node: done };
}

describe("acceptance through MAAS testing scripts", () => {
  it("lists rackform-acceptance as a built-in GPU testing script with its parameters", async () => {
    const s = (await maas(lab, "GET", "scripts/rackform-acceptance")).json;
    expect(s).toMatchObject({ name: "rackform-acceptance", type: 2, hardware_type: 5, default: true });
    expect(Object.keys(s.parameters)).toEqual(["dcgm_level", "burn_in", "nccl_min_busbw_gbps"]);
  });

  it("passes a healthy node: DCGM level 3 all pass, busbw ≥ 370 GB/s, 8 GPUs, firmware measured", async () => {
    const { status, result, doc } = await viaMaas(0, { "rackform-acceptance_dcgm_level": "3", burn_in: "72h" });
    expect(status).toBe("Ready");
    expect(result.status_name).toBe("Passed");
    expect(result.parameters.dcgm_level.value).toBe("3");
    expect(doc).toMatchObject({ format: "rackform-acceptance/v1", passed: true, failures: [], gpu_count: 8 });
    expect(doc.nccl.busbw_gbps).toBeGreaterThanOrEqual(370);
    expect(doc.nccl.line_rate_gbps).toBe(400);
    expect(doc.dcgm.level).toBe(3);
    expect(doc.dcgm.tests.every((t: { result: string }) => t.result === "Pass")).toBe(true);
    expect(doc.burn_in).toMatchObject({ requested_s: 259_200, passed: true, xid_errors: 0 });
    expect(doc.firmware.map((f: { component: string }) => f.component)).toEqual(["bmc", "bios", "gpu", "nic"]);
    expect(doc.firmware[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("fails a node with marginal NCCL bandwidth and reports the measured 300 GB/s", async () => {
    const { status, result, doc } = await viaMaas(1, { dcgm_level: "1" });
    expect(status).toBe("Failed testing");
    expect(result.status_name).toBe("Failed");
    expect(doc.passed).toBe(false);
    expect(doc.nccl).toMatchObject({ busbw_gbps: 300, passed: false, min_busbw_gbps: 370 });
    expect(doc.failures).toContain("nccl: all_reduce busbw 300 GB/s below the minimum 370 GB/s");
  });
});

describe("acceptance through Ironic steps", () => {
  it("passes a healthy node: the clean step's result is the acceptance JSON", async () => {
    const { state, record } = await viaIronic(0, { dcgm_level: 4, burn_in: "1h" });
    expect(state).toBe("manageable");
    expect(record).toMatchObject({ interface: "deploy", step: "rackform_acceptance", status: "passed" });
    expect(record.result).toMatchObject({ format: "rackform-acceptance/v1", passed: true, gpu_count: 8 });
    expect(record.result.dcgm.tests.map((t: { name: string }) => t.name)).toContain("Pulse Test");
    expect(record.result.nccl.busbw_gbps).toBeGreaterThanOrEqual(370);
  });

  it("fails a node missing a GPU: DCGM 'GPU count' fails, gpu_count 7, clean failed with the reason", async () => {
    const { state, record, node } = await viaIronic(2, { dcgm_level: 2, burn_in: 3600 });
    expect(state).toBe("clean failed");
    expect(node.last_error).toMatch(/gpu_count: 7 GPUs visible, 8 expected/);
    expect(record.status).toBe("failed");
    expect(record.result).toMatchObject({ passed: false, gpu_count: 7, gpu_count_expected: 8 });
    const failed = record.result.dcgm.tests.filter((t: { result: string }) => t.result === "Fail");
    expect(failed.map((t: { name: string }) => t.name)).toEqual(["GPU count", "PCIe"]);
    expect(record.result.dcgm.passed).toBe(false);
  });

  it("rejects bad gate parameters with a message naming the field", async () => {
    const { state, node } = await viaIronic(1, { dcgm_level: 7 });
    expect(state).toBe("clean failed");
    expect(node.last_error).toMatch(/dcgm_level: must be 1, 2, 3 or 4, got 7/);
  });
});

describe("acceptance signals", () => {
  it("are deterministic per node, and an xid-error fault shows XID 79 and fails the burn-in", async () => {
    const n = lab.world.node(lab.info.nodes[0].name)!;
    const params = { dcgmLevel: 3, burnInS: 3600 } as const;
    const a = measureAcceptance(lab.world, n, params);
    expect(measureAcceptance(lab.world, n, params).nccl.busbw_gbps).toBe(a.nccl.busbw_gbps);
    expect(a.nccl.busbw_gbps).toBeGreaterThanOrEqual(372);
    expect(a.nccl.busbw_gbps).toBeLessThanOrEqual(378);
    const f = await labControl(lab, "POST", "/faults", { kind: "xid-error", node: n.spec.name });
    try {
      const b = measureAcceptance(lab.world, n, params);
      expect(b.passed).toBe(false);
      expect(b.xid_events).toMatchObject([{ xid: 79, message: "GPU has fallen off the bus" }]);
      expect(b.burn_in).toMatchObject({ passed: false, xid_errors: 1 });
    } finally {
      await labControl(lab, "DELETE", `/faults/${f.json.id}`);
    }
  });
});
