// The machine state machine through the HTTP API, on a manual clock: MAAS's statuses, transitions and refusals.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, createMachine, DELAYS, type Lab, startLab, statusOf } from "./support.js";

let lab: Lab;
beforeEach(async () => {
  lab = await startLab();
});
afterEach(async () => lab.close());

async function readyMachine(name: string, mac: string) {
  const m = await createMachine(lab, name, mac);
  await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
  expect(await statusOf(lab, m.system_id)).toBe("Ready");
  return m.system_id as string;
}

describe("MAAS lab machine lifecycle", () => {
  it("commissions a new redfish machine: Commissioning, Testing, then Ready and powered off", async () => {
    const m = await createMachine(lab, "node-1", "52:54:00:00:00:01");
    expect(m).toMatchObject({ status: 1, status_name: "Commissioning", power_type: "redfish", hostname: "node-1" });
    expect(m.interface_set[0].mac_address).toBe("52:54:00:00:00:01");
    expect(m.boot_interface.mac_address).toBe("52:54:00:00:00:01");
    await lab.clock.advance(DELAYS.commissionMs);
    expect(await statusOf(lab, m.system_id)).toBe("Testing");
    await lab.clock.advance(DELAYS.testMs);
    const ready = (await call(lab, `machines/${m.system_id}/`)).json;
    expect(ready).toMatchObject({
      status: 4,
      status_name: "Ready",
      commissioning_status_name: "Passed",
      testing_status: 2,
    });
    expect(lab.power.states.get("https://bmc-node-1.lab")).toBe("off");
  });

  it("deploys with user_data: Ready → Deploying → Deployed, allocating on the way", async () => {
    const id = await readyMachine("node-2", "52:54:00:00:00:02");
    const userData = Buffer.from("#cloud-config\nhostname: node-2\n");
    const r = await call(lab, `machines/${id}/`, {
      method: "POST",
      op: "deploy",
      form: { distro_series: "noble", user_data: userData.toString("base64") },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status_name: "Deploying",
      owner: "admin",
      osystem: "ubuntu",
      distro_series: "noble",
    });
    expect(lab.maas.machine(id)?.userData?.equals(userData)).toBe(true);
    await lab.clock.advance(DELAYS.deployMs);
    expect(await statusOf(lab, id)).toBe("Deployed");
    expect(lab.power.states.get("https://bmc-node-2.lab")).toBe("on");
  });

  it("allocates by system_id and refuses when nothing matches", async () => {
    const id = await readyMachine("node-3", "52:54:00:00:00:03");
    const r = await call(lab, "machines/", { method: "POST", op: "allocate", form: { system_id: id } });
    expect(r.json).toMatchObject({ system_id: id, status_name: "Allocated" });
    const again = await call(lab, "machines/", { method: "POST", op: "allocate", form: { system_id: id } });
    expect(again.status).toBe(409);
    expect(again.text).toBe(`No machine with system ID ${id} available.`);
  });

  it("fails with 409 and MAAS's text on illegal transitions", async () => {
    const created = await createMachine(lab, "node-4", "52:54:00:00:00:04", { commission: "false" });
    expect(created.status_name).toBe("New");
    const deploy = await call(lab, `machines/${created.system_id}/`, { method: "POST", op: "deploy" });
    expect(deploy.status).toBe(409);
    expect(deploy.text).toBe("Can't deploy a machine that is in the 'New' state");
    const release = await call(lab, `machines/${created.system_id}/`, { method: "POST", op: "release" });
    expect(release.status).toBe(409);
    expect(release.text).toBe("Machine cannot be released in its current state ('New').");
    const fixed = await call(lab, `machines/${created.system_id}/`, { method: "POST", op: "mark_fixed" });
    expect(fixed.status).toBe(409);
    expect(fixed.text).toBe("Can't mark a non-broken node as 'Ready'.");
    const abort = await call(lab, `machines/${created.system_id}/`, { method: "POST", op: "abort" });
    expect(abort.status).toBe(409);
    expect(abort.text).toContain("Cannot abort in current state");

    const id = await readyMachine("node-5", "52:54:00:00:00:05");
    await call(lab, `machines/${id}/`, { method: "POST", op: "deploy" });
    const commission = await call(lab, `machines/${id}/`, { method: "POST", op: "commission" });
    expect(commission.status).toBe(409);
    expect(commission.text).toBe("Invalid transition: Deploying -> Commissioning.");
  });

  it("fails commissioning on request: Failed commissioning with a status_message and a failed script result", async () => {
    const m = await createMachine(lab, "node-6", "52:54:00:00:00:06", { commission: "false" });
    lab.maas.failNext(m.system_id, "commission");
    await call(lab, `machines/${m.system_id}/`, { method: "POST", op: "commission" });
    await lab.clock.advance(DELAYS.commissionMs);
    const failed = (await call(lab, `machines/${m.system_id}/`)).json;
    expect(failed).toMatchObject({
      status: 2,
      status_name: "Failed commissioning",
      commissioning_status_name: "Failed",
    });
    expect(failed.status_message).toMatch(/^Failed commissioning: .+ failed$/);
    const results = await call(lab, `nodes/${m.system_id}/results/current-commissioning/`, {
      form: { include_output: "1" },
    });
    expect(results.json.status_name).toBe("Failed");
    expect(Buffer.from(results.json.results[0].output, "base64").toString()).toContain("failed");
    // A failed machine can be commissioned again.
    const retry = await call(lab, `machines/${m.system_id}/`, {
      method: "POST",
      op: "commission",
      form: { testing_scripts: "none" },
    });
    expect(retry.json.status_name).toBe("Commissioning");
    await lab.clock.advance(DELAYS.commissionMs);
    expect(await statusOf(lab, m.system_id)).toBe("Ready");
  });

  it("releases with erase: Disk erasing, then Ready with owner and OS cleared", async () => {
    const id = await readyMachine("node-7", "52:54:00:00:00:07");
    await call(lab, `machines/${id}/`, { method: "POST", op: "deploy" });
    await lab.clock.advance(DELAYS.deployMs);
    const r = await call(lab, `machines/${id}/`, {
      method: "POST",
      op: "release",
      form: { erase: "true", secure_erase: "true" },
    });
    expect(r.json).toMatchObject({ status: 14, status_name: "Disk erasing" });
    await lab.clock.advance(DELAYS.eraseMs - 1);
    expect(await statusOf(lab, id)).toBe("Disk erasing");
    await lab.clock.advance(1);
    const done = (await call(lab, `machines/${id}/`)).json;
    expect(done).toMatchObject({ status_name: "Ready", owner: null, osystem: "", distro_series: "" });
  });

  it("releases without erase through Releasing, and releasing a Ready machine is a no-op", async () => {
    const id = await readyMachine("node-8", "52:54:00:00:00:08");
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "release" })).json.status_name).toBe("Ready");
    await call(lab, "machines/", { method: "POST", op: "allocate", form: { name: "node-8" } });
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "release" })).json.status_name).toBe("Releasing");
    await lab.clock.advance(DELAYS.releaseMs);
    expect(await statusOf(lab, id)).toBe("Ready");
  });

  it("fails deployment and disk erasing on request", async () => {
    const id = await readyMachine("node-9", "52:54:00:00:00:09");
    lab.maas.failNext(id, "deploy");
    await call(lab, `machines/${id}/`, { method: "POST", op: "deploy" });
    await lab.clock.advance(DELAYS.deployMs);
    const failed = (await call(lab, `machines/${id}/`)).json;
    expect(failed).toMatchObject({ status: 11, status_name: "Failed deployment" });
    expect(failed.status_message).not.toBe("");
    lab.maas.failNext(id, "erase");
    await call(lab, `machines/${id}/`, { method: "POST", op: "release", form: { erase: "1" } });
    await lab.clock.advance(DELAYS.eraseMs);
    expect(await statusOf(lab, id)).toBe("Failed disk erasing");
  });

  it("times the deployment out when the host loses power before its OS booted (its outlet cut): never Deployed", async () => {
    const id = await readyMachine("node-10", "52:54:00:00:00:10");
    await call(lab, `machines/${id}/`, { method: "POST", op: "deploy" });
    await lab.clock.advance(DELAYS.deployMs / 2);
    lab.power.states.set("https://bmc-node-10.lab", "off");
    await lab.clock.advance(DELAYS.deployMs);
    const failed = (await call(lab, `machines/${id}/`)).json;
    expect(failed).toMatchObject({
      status_name: "Failed deployment",
      status_message: "Node operation 'Deploying' timed out after 30 minutes.",
    });
  });

  it("fails releasing on request, and a failed release can be retried", async () => {
    const id = await readyMachine("node-12", "52:54:00:00:00:12");
    await call(lab, "machines/", { method: "POST", op: "allocate", form: { system_id: id } });
    lab.maas.failNext(id, "release");
    await call(lab, `machines/${id}/`, { method: "POST", op: "release" });
    await lab.clock.advance(DELAYS.releaseMs);
    expect(await statusOf(lab, id)).toBe("Releasing failed");
    await call(lab, `machines/${id}/`, { method: "POST", op: "release" });
    await lab.clock.advance(DELAYS.releaseMs);
    expect(await statusOf(lab, id)).toBe("Ready");
  });

  it("powers machines on and off through the driver and reports BMC failures as 503", async () => {
    const id = await readyMachine("node-13", "52:54:00:00:00:13");
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "power_on" })).json.power_state).toBe("on");
    expect((await call(lab, `machines/${id}/`, { op: "query_power_state" })).json).toEqual({ state: "on" });
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "power_off" })).json.power_state).toBe("off");
    lab.power.failing.add("https://bmc-node-13.lab");
    const q = await call(lab, `machines/${id}/`, { op: "query_power_state" });
    expect(q.status).toBe(503);
    expect(q.text).toContain("unreachable");
    expect((await call(lab, `machines/${id}/`)).json.power_state).toBe("error");
  });

  it("marks broken and fixed, and aborts a deployment back to Allocated", async () => {
    const id = await readyMachine("node-10", "52:54:00:00:00:10");
    const broken = await call(lab, `machines/${id}/`, { method: "POST", op: "mark_broken", form: { comment: "fan" } });
    expect(broken.json).toMatchObject({ status: 8, status_name: "Broken", status_message: "fan" });
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "mark_fixed" })).json.status_name).toBe("Ready");
    await call(lab, `machines/${id}/`, { method: "POST", op: "deploy" });
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "abort" })).json.status_name).toBe("Allocated");
    await lab.clock.advance(DELAYS.deployMs);
    expect(await statusOf(lab, id)).toBe("Allocated");
    await call(lab, `machines/${id}/`, { method: "POST", op: "release" });
    await lab.clock.advance(DELAYS.releaseMs);
    await call(lab, `machines/${id}/`, { method: "POST", op: "commission" });
    expect((await call(lab, `machines/${id}/`, { method: "POST", op: "abort" })).json.status_name).toBe("New");
  });

  it("answers unknown ops, unknown machines and bad input the way MAAS does", async () => {
    const op = await call(lab, "machines/", { method: "POST", op: "fly" });
    expect(op.status).toBe(400);
    expect(op.text).toBe("Unrecognised signature: method=POST op=fly");
    const missing = await call(lab, "machines/nope42/");
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("No Machine matches the given query.");
    const mac = await call(lab, "machines/", {
      method: "POST",
      form: { architecture: "amd64", mac_addresses: "zz", power_type: "redfish" },
    });
    expect(mac.status).toBe(400);
    expect(mac.json.mac_addresses[0]).toContain("'zz' is not a valid MAC address");
    const series = await readyMachine("node-11", "52:54:00:00:00:11");
    const bad = await call(lab, `machines/${series}/`, {
      method: "POST",
      op: "deploy",
      form: { distro_series: "hardy" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.distro_series[0]).toContain("'hardy' is not a valid distro_series");
  });

  it("filters the machine list and updates and deletes machines", async () => {
    const a = await createMachine(lab, "alpha", "52:54:00:00:01:01");
    await createMachine(lab, "beta", "52:54:00:00:01:02");
    expect(
      (await call(lab, "machines/", { form: { hostname: "beta" } })).json.map((m: { hostname: string }) => m.hostname),
    ).toEqual(["beta"]);
    expect((await call(lab, "machines/", { form: { id: a.system_id } })).json).toHaveLength(1);
    expect((await call(lab, "machines/", { form: { mac_address: "52-54-00-00-01-02" } })).json[0].hostname).toBe(
      "beta",
    );
    const put = await call(lab, `machines/${a.system_id}/`, {
      method: "PUT",
      form: { hostname: "alpha2", power_parameters_node_id: "System.Embedded.1" },
    });
    expect(put.json.hostname).toBe("alpha2");
    const pp = await call(lab, `machines/${a.system_id}/`, { op: "power_parameters" });
    expect(pp.json).toMatchObject({ node_id: "System.Embedded.1", power_user: "admin" });
    expect((await call(lab, `machines/${a.system_id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await call(lab, `machines/${a.system_id}/`)).status).toBe(404);
  });
});
