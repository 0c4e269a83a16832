// Acceptance runs as MAAS testing scripts: upload a script, op=test, read the results and their output.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, createMachine, DELAYS, type Lab, startLab, statusOf } from "./support.js";

let lab: Lab;
beforeEach(async () => {
  lab = await startLab();
});
afterEach(async () => lab.close());

async function deployedMachine(name: string, mac: string): Promise<string> {
  const m = await createMachine(lab, name, mac);
  await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
  await call(lab, `machines/${m.system_id}/`, { method: "POST", op: "deploy" });
  await lab.clock.advance(DELAYS.deployMs);
  expect(await statusOf(lab, m.system_id)).toBe("Deployed");
  return m.system_id;
}

async function uploadScript(name: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set("name", name);
  form.set("type", "testing");
  form.set("tags", "acceptance,gpu");
  form.set("script", new Blob(["#!/bin/bash\nall_reduce_perf -b 8G\n"]), name);
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  const { API_KEY } = await import("./support.js");
  const { oauthHeader } = await import("../../support/maas-oauth.js");
  const res = await fetch(new URL("api/2.0/scripts/", lab.url), {
    method: "POST",
    body: form,
    headers: { Authorization: oauthHeader(API_KEY) },
  });
  return { status: res.status, json: await res.json() };
}

describe("MAAS lab testing scripts", () => {
  it("uploads a testing script and lists it by type and tag", async () => {
    const up = await uploadScript("nccl-allreduce");
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ name: "nccl-allreduce", type: 2, tags: ["acceptance", "gpu"], destructive: false });
    const listed = await call(lab, "scripts/", { form: { type: "testing", filters: "acceptance" } });
    expect(listed.json.map((s: { name: string }) => s.name)).toEqual(["nccl-allreduce"]);
    expect((await call(lab, "scripts/nccl-allreduce")).json.name).toBe("nccl-allreduce");
  });

  it("fails testing with the outcome a test set, then passes and returns to Deployed", async () => {
    await uploadScript("nccl-allreduce");
    const id = await deployedMachine("gpu-1", "52:54:00:10:00:01");
    lab.maas.setScriptOutcome(id, "nccl-allreduce", { status: "failed", output: "busbw 351.2 GB/s < 370\n" });
    const started = await call(lab, `machines/${id}/`, {
      method: "POST",
      op: "test",
      form: { testing_scripts: "nccl-allreduce" },
    });
    expect(started.json.status_name).toBe("Testing");
    await lab.clock.advance(DELAYS.testMs);
    const failed = (await call(lab, `machines/${id}/`)).json;
    expect(failed).toMatchObject({ status: 22, status_name: "Failed testing", testing_status_name: "Failed" });
    expect(failed.status_message).toContain("nccl-allreduce");

    const sets = await call(lab, `nodes/${id}/results/`, { form: { type: "testing", include_output: "true" } });
    const latest = sets.json.at(-1);
    expect(latest).toMatchObject({ type: 2, type_name: "Testing", status_name: "Failed", system_id: id });
    expect(latest.results[0]).toMatchObject({
      name: "nccl-allreduce",
      status: 3,
      status_name: "Failed",
      exit_status: 1,
    });
    expect(Buffer.from(latest.results[0].output, "base64").toString()).toBe("busbw 351.2 GB/s < 370\n");

    lab.maas.setScriptOutcome(id, "nccl-allreduce", { status: "passed", output: "busbw 372.9 GB/s\n" });
    await call(lab, `machines/${id}/`, { method: "POST", op: "test", form: { testing_scripts: "acceptance" } });
    await lab.clock.advance(DELAYS.testMs);
    expect(await statusOf(lab, id)).toBe("Deployed");
    const current = await call(lab, `nodes/${id}/results/current-testing/`, { form: { include_output: "1" } });
    expect(current.json.status_name).toBe("Passed");
    expect(Buffer.from(current.json.results[0].output, "base64").toString()).toContain("372.9");
  });

  it("fails testing when a script failed applying its network configuration (status 11)", async () => {
    await uploadScript("nccl-allreduce");
    const id = await deployedMachine("gpu-4", "52:54:00:10:00:04");
    lab.maas.setScriptOutcome(id, "nccl-allreduce", { status: 11, output: "netplan apply failed\n" });
    await call(lab, `machines/${id}/`, { method: "POST", op: "test", form: { testing_scripts: "nccl-allreduce" } });
    await lab.clock.advance(DELAYS.testMs);
    const failed = (await call(lab, `machines/${id}/`)).json;
    expect(failed).toMatchObject({ status: 22, status_name: "Failed testing", testing_status: 11 });
    expect(failed.status_message).toContain("nccl-allreduce");
    const current = await call(lab, `nodes/${id}/results/current-testing/`);
    expect(current.json).toMatchObject({ status: 11, status_name: "Failed to apply custom network configuration" });
    expect(current.json.results[0]).toMatchObject({ status: 11, exit_status: 1 });
  });

  it("refuses unknown and destructive testing scripts on a deployed machine", async () => {
    const id = await deployedMachine("gpu-2", "52:54:00:10:00:02");
    const unknown = await call(lab, `machines/${id}/`, {
      method: "POST",
      op: "test",
      form: { testing_scripts: "nope" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.testing_scripts).toBeDefined();
    const destructive = await call(lab, `machines/${id}/`, {
      method: "POST",
      op: "test",
      form: { testing_scripts: "badblocks-destructive" },
    });
    expect(destructive.status).toBe(400);
    expect(destructive.json.testing_scripts).toEqual(["Destructive tests may only be run on undeployed machines."]);
  });

  it("runs the requested tests after commissioning and fails commissioning-time testing on a bad outcome", async () => {
    await uploadScript("gpu-dcgm-diag");
    const m = await createMachine(lab, "gpu-3", "52:54:00:10:00:03", { commission: "false" });
    lab.maas.setScriptOutcome(m.system_id, "gpu-dcgm-diag", { status: "failed", output: "GPU 3 missing\n" });
    await call(lab, `machines/${m.system_id}/`, {
      method: "POST",
      op: "commission",
      form: { testing_scripts: "gpu-dcgm-diag" },
    });
    await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
    expect(await statusOf(lab, m.system_id)).toBe("Failed testing");
  });
});
