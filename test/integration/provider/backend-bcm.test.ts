/**
 * The BCM adapter of the backend seam against the lab's head node: find-before-enroll (a second run after a crash
 * adopts the device instead of adding it again), commission (identified and installable: cmdaemon reads power
 * through the BMC), deploy (software image + finalize script, powered on through BCM, deployed at UP), the gate as
 * a burn, quarantine by closing the device and its lift, release and remove; a failed install is a failed outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BcmClient } from "../../../src/clients/bcm/index.js";
import { isClientError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/index.js";
import type { Logger } from "../../../src/framework/index.js";
import type { Lab } from "../../../src/lab/index.js";
import { BcmBackend } from "../../../src/provider/backends/bcm.js";
import { QUARANTINE_PREFIX } from "../../../src/provider/backends/index.js";
import { startComposedLab } from "../lab-composed/support.js";
import { enrollSpecOf } from "./backend-support.js";

let lab: Lab;
let stop: () => Promise<void>;
let core: HttpCore;
let backend: BcmBackend;
const log = { info() {}, warn() {}, debug() {}, error() {}, with: () => log } as unknown as Logger;
const op = () => ({ log, signal: new AbortController().signal, pollMs: 10 });
const spec = (i: number) => enrollSpecOf(lab, i);
const image = { name: "gpu-os", version: "1.0", sha256: "a".repeat(64) };

beforeAll(async () => {
  ({ lab, stop } = await startComposedLab({ nodes: 2 }));
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  lab.backends?.bcm.addSoftwareImage("gpu-os-1.0");
  core = new HttpCore();
  const b = lab.info.bcm;
  if (!b) throw new Error("no bcm in the lab file");
  backend = new BcmBackend(new BcmClient({ url: b.url, username: b.username, password: b.password, core }), {
    pollMs: 10,
  });
});

afterAll(async () => {
  await core?.close();
  await stop?.();
});

describe("BcmBackend against the lab BCM", () => {
  let id = "";

  it("finds nothing, enrolls, and a re-run after a crash finds the device by name, MAC and BMC instead of adding it", async () => {
    expect(await backend.find(spec(0))).toBeUndefined();
    id = await backend.enroll(spec(0));
    const again = await backend.find(spec(0));
    expect(again?.facts.id).toBe(id);
    expect(again?.matchedBy).toEqual(["name", "mac", "bmc"]);
    // Enrolling blindly a second time is refused by cmdaemon's validation: find-before-enroll is what adopts.
    const e = await backend.enroll(spec(0)).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_BCM_REJECTED")).toBe(true);
    expect(lab.backends?.bcm.store.devices.size).toBe(1);
  });

  it("commissions: the node is identified and installable (ready)", async () => {
    const out = await backend.commission(id, op());
    expect(out.kind).toBe("complete");
    expect(out.facts).toMatchObject({ id, name: lab.info.nodes[0].name, state: "ready", status: "DOWN" });
  });

  it("after the BMC password is rotated, commission fails naming the BMC until BCM gets the new credentials", async () => {
    const n = lab.info.nodes[0];
    const address = new URL(n.bmc.url).hostname;
    lab.world.setPassword(address, "rotated-Pass-1");
    const bad = await backend.commission(id, op());
    expect(bad.kind).toBe("failed");
    expect(bad.kind === "failed" && bad.message).toContain(address);
    await backend.setPowerCredentials(id, { ...spec(0), bmcPassword: "rotated-Pass-1" });
    expect((await backend.commission(id, op())).kind).toBe("complete");
    // The password is write-only in cmdaemon's replies.
    const dev = lab.backends?.bcm.store.devices.get(id);
    expect(dev?.bmcSettings.password).toBe("rotated-Pass-1");
    lab.world.setPassword(address, n.bmc.password);
    await backend.setPowerCredentials(id, spec(0));
  });

  it("a re-addressed BMC: setPowerCredentials moves the device's BMC interface (rf0) to the new IP", async () => {
    const bmcIp = () =>
      lab.backends?.bcm.store.devices.get(id)?.interfaces.find((i) => i.childType === "NetworkBmcInterface")?.ip;
    await backend.setPowerCredentials(id, { ...spec(0), bmcAddress: "https://127.10.1.250" });
    expect(bmcIp()).toBe("127.10.1.250");
    // Nothing answers there: cmdaemon cannot read the node's power until it is told the right address again.
    expect((await backend.commission(id, op())).kind).toBe("failed");
    await backend.setPowerCredentials(id, spec(0));
    expect(bmcIp()).toBe(new URL(lab.info.nodes[0].bmc.url).hostname);
    expect((await backend.commission(id, op())).kind).toBe("complete");
  });

  it("reports a missing software image as a failed deploy naming it", async () => {
    const out = await backend.deploy(id, { ...op(), image: { ...image, version: "9.9" } });
    expect(out.kind).toBe("failed");
    expect(out.kind === "failed" && out.message).toContain('"gpu-os-9.9"');
  });

  it("deploys: software image and user data set, powered on through BCM, deployed when UP", async () => {
    const out = await backend.deploy(id, { ...op(), image, userData: "#cloud-config\n# rackform-join: slurm\n" });
    expect(out.kind).toBe("complete");
    expect(out.facts).toMatchObject({ state: "deployed", status: "UP", power: "on", image: "gpu-os-1.0" });
    expect(await backend.powerState(id)).toBe("on");
    // Repeat-safe: a deployed node with the same image completes at once.
    expect(
      (await backend.deploy(id, { ...op(), image, userData: "#cloud-config\n# rackform-join: slurm\n" })).kind,
    ).toBe("complete");
  });

  it("marks a health remedy as a line of the device's notes, keeping the operator's lines", async () => {
    const d = lab.backends?.bcm.store.devices.get(id);
    if (!d) throw new Error(`no device ${id}`);
    d.notes = "rack 4, slot 12";
    await backend.noteRemedy(id, "power_cycle:1@2026-11-27T10:05:00.000Z");
    await backend.noteRemedy(id, "reimage:1@2026-11-27T11:05:00.000Z");
    // cmdaemon stores the updated entity anew: read it again.
    expect(lab.backends?.bcm.store.devices.get(id)?.notes).toBe(
      "rack 4, slot 12\nrackform_remedy: reimage:1@2026-11-27T11:05:00.000Z",
    );
    expect(await backend.lastRemedy(id)).toBe("reimage:1@2026-11-27T11:05:00.000Z");
  });

  it("runs the gate as a burn and returns its evidence", async () => {
    const run = await backend.runAcceptance(id, { ...op(), params: { dcgmLevel: 1, burnIn: "1h" } });
    expect(run.outcome.kind).toBe("complete");
    expect(run.evidence).toMatchObject({ format: "rackform-acceptance/v1", passed: true });
    expect(await backend.lastAcceptance(id)).toMatchObject({ passed: true });
  });

  it("quarantines by closing the device, lifts only its own quarantine", async () => {
    await backend.quarantine(id, `${QUARANTINE_PREFIX}: test`);
    expect((await backend.read(id))?.state).toBe("broken");
    expect(await backend.liftQuarantine(id)).toBe(true);
    expect((await backend.read(id))?.state).toBe("deployed");
    await backend.quarantine(id, "closed by an operator");
    expect(await backend.liftQuarantine(id)).toBe(false);
    // The gate re-run returns a node closed by hand to service: the configuration says it serves.
    const run = await backend.runAcceptance(id, { ...op(), params: { dcgmLevel: 1, burnIn: "1h" } });
    expect(run.outcome.kind).toBe("complete");
    expect((await backend.read(id))?.state).toBe("deployed");
  });

  it("releases (power off, image cleared) and removes; an absent device counts as removed", async () => {
    const out = await backend.release(id, { ...op(), erase: false });
    expect(out?.kind).toBe("complete");
    expect(out?.facts).toMatchObject({ state: "ready", image: "" });
    expect(await backend.powerState(id)).toBe("off");
    await backend.remove(id, op());
    expect(await backend.read(id)).toBeUndefined();
    await backend.remove(id, op());
  });

  it("a failed install (deploy-failure fault) is a failed outcome with the installer's words", async () => {
    const other = await backend.enroll(spec(1));
    lab.world.faults.add({ kind: "deploy-failure", node: lab.info.nodes[1].name, count: 1 });
    const out = await backend.deploy(other, { ...op(), image });
    expect(out.kind).toBe("failed");
    expect(out.facts.state).toBe("failed");
    expect(out.kind === "failed" && out.message).toMatch(/node-installer/);
    // Deploying again reboots into a new install, which succeeds (the fault was used up).
    expect((await backend.deploy(other, { ...op(), image })).kind).toBe("complete");
  });

  it("a node that never comes up (the install hangs) keeps the deploy waiting until its timeout aborts it", async () => {
    const d = (await backend.find(spec(1)))?.facts.id ?? "";
    await backend.release(d, { ...op(), erase: false });
    lab.backends?.bcm.failNextInstall(d, "hang");
    const ctl = new AbortController();
    const deploying = backend.deploy(d, { log, signal: ctl.signal, pollMs: 10, image });
    await new Promise((r) => setTimeout(r, 300));
    expect((await backend.read(d))?.status).toBe("INSTALLING");
    ctl.abort(new Error("timeout"));
    // Aborted between polls it rejects with the abort's reason; aborted during a poll's request, with the client's
    // "aborted by the caller". Either way the deploy stops there, and not before.
    await expect(deploying).rejects.toThrow(/timeout|aborted by the caller/);
  });
});
