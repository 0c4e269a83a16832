/**
 * The watch's stage for every state a backend or a scheduler reports (issue 27: a node MAAS is deploying or erasing
 * was shown joined, a drained node was never "draining", the acceptance step showed as "commissioning"): each
 * backend word alone, then with what state recorded for a node on its first deploy and during a rolling reimage.
 */
import { describe, expect, it } from "vitest";
import { PATH, STAGE_LABEL, STAGES, type Stage, type StageReading, stageFromState } from "../../../src/cli/stages.js";
import { type BackendReading, liveStage, nodeStage, type SchedulerReading } from "../../../src/cli/stages-live.js";
import { EtaTracker } from "../../../src/cli/watch/eta.js";
import { WatchModel } from "../../../src/cli/watch/model.js";
import { watchPage } from "../../../src/cli/watch/page.js";
import type { StateResource } from "../../../src/cli/watch/sources.js";

const maas = (status: string, more: Partial<BackendReading> = {}): BackendReading => ({
  backend: "maas",
  status,
  ...more,
});
const ironic = (status: string, more: Partial<BackendReading> = {}): BackendReading => ({
  backend: "ironic",
  status,
  ...more,
});
const at = (stage: Stage): StageReading => ({ stage });
const slurm = (state: string, drain: boolean, down = false): SchedulerReading => ({
  scheduler: "slurm",
  state,
  drain,
  down,
});

describe("rackform watch: every backend state has its stage", () => {
  it("maps each MAAS status (Testing of a deployed, owned machine is its acceptance gate)", () => {
    const table: [string, Partial<BackendReading>, Stage][] = [
      ["New", {}, "enrolled"],
      ["Commissioning", {}, "commissioning"],
      ["Testing", {}, "commissioning"],
      ["Testing", { owned: true }, "testing"],
      ["Ready", {}, "ready"],
      ["Allocated", { owned: true }, "deploying"],
      ["Deploying", { owned: true }, "deploying"],
      ["Deployed", { owned: true }, "deployed"],
      ["Releasing", { owned: true }, "releasing"],
      ["Disk erasing", {}, "releasing"],
      ["Failed commissioning", {}, "failed"],
      ["Failed testing", { owned: true }, "failed"],
      ["Failed deployment", {}, "failed"],
      ["Failed releasing", {}, "failed"],
      ["Failed disk erasing", {}, "failed"],
      ["Broken", {}, "quarantined"],
    ];
    for (const [status, more, stage] of table) {
      expect([status, more, liveStage(maas(status, more))?.stage]).toEqual([status, more, stage]);
    }
    expect(liveStage(maas("Rescue mode"))).toBeUndefined();
    expect(liveStage(maas("Broken", { message: "rackform: acceptance failed" }))?.detail).toBe(
      "rackform: acceptance failed",
    );
  });

  it("maps each Ironic provision state (cleaning of a machine state already holds is its release's erase)", () => {
    const table: [string, Stage][] = [
      ["enroll", "enrolled"],
      ["verifying", "enrolled"],
      ["manageable", "enrolled"],
      ["inspecting", "commissioning"],
      ["inspect wait", "commissioning"],
      ["cleaning", "commissioning"],
      ["clean wait", "commissioning"],
      ["available", "ready"],
      ["deploying", "deploying"],
      ["wait call-back", "deploying"],
      ["deploy wait", "deploying"],
      ["active", "deployed"],
      ["servicing", "testing"],
      ["service wait", "testing"],
      ["deleting", "releasing"],
      ["undeploying", "releasing"],
      ["deploy failed", "failed"],
      ["clean failed", "failed"],
      ["inspect failed", "failed"],
      ["service failed", "failed"],
      ["error", "failed"],
    ];
    for (const [status, stage] of table) expect([status, liveStage(ironic(status))?.stage]).toEqual([status, stage]);
    // the first cleaning (machine not in state yet) is part of enrolment; after a deployment it erases the disks
    expect(liveStage(ironic("clean wait"), "bmc-up")?.stage).toBe("commissioning");
    expect(liveStage(ironic("clean wait"), "deployed")?.stage).toBe("releasing");
    expect(liveStage(ironic("cleaning"), "joined")?.stage).toBe("releasing");
    expect(liveStage(ironic("active", { maintenance: true, message: "power failure" }))).toEqual({
      stage: "quarantined",
      detail: "power failure",
    });
  });

  it("maps BCM device statuses and rackform's Warewulf state tag", () => {
    const bcm: [string, Stage][] = [
      ["UP", "deployed"],
      ["INSTALLING", "deploying"],
      ["INSTALLER_REBOOTING", "deploying"],
      ["INSTALLER_CALLINGINIT", "deploying"],
      ["INSTALLER_UNREACHABLE", "deploying"],
      ["INSTALLER_BURNING", "testing"],
      ["INSTALLER_FAILED", "failed"],
      ["CLOSED", "quarantined"],
    ];
    for (const [status, stage] of bcm) {
      expect([status, liveStage({ backend: "bcm", status })?.stage]).toEqual([status, stage]);
    }
    expect(liveStage({ backend: "bcm", status: "UP", maintenance: true, message: "gate failed" })?.stage).toBe(
      "quarantined",
    );
    const ww: [string, Stage][] = [
      ["", "ready"],
      ["deploying", "deploying"],
      ["deployed", "deployed"],
      ["failed", "failed"],
    ];
    for (const [status, stage] of ww) {
      expect([status, liveStage({ backend: "warewulf", status })?.stage]).toEqual([status, stage]);
    }
  });
});

describe("rackform watch: a node's stage from state, its backend and its scheduler", () => {
  it("never shows joined for a node MAAS is releasing, erasing, deploying or testing (a reimage under a lagging state)", () => {
    // GIVEN state that still records the node joined (the pg backend persists state every 20 s during an apply)
    const joined = at("joined");
    const sequence: [BackendReading, Stage][] = [
      [maas("Releasing", { owned: true }), "releasing"],
      [maas("Disk erasing"), "releasing"],
      [maas("Ready"), "ready"],
      [maas("Allocated", { owned: true }), "deploying"],
      [maas("Deploying", { owned: true }), "deploying"],
      [maas("Testing", { owned: true }), "testing"],
      [maas("Failed testing", { owned: true, message: "nccl below threshold" }), "failed"],
      [maas("Broken", { owned: true, message: "acceptance failed" }), "quarantined"],
    ];
    for (const [reading, stage] of sequence) {
      expect([reading.status, nodeStage(joined, reading).stage]).toEqual([reading.status, stage]);
    }
    // AND the same under Ironic
    expect(nodeStage(joined, ironic("deleting")).stage).toBe("releasing");
    expect(nodeStage(joined, ironic("clean wait")).stage).toBe("releasing");
    expect(nodeStage(joined, ironic("wait call-back")).stage).toBe("deploying");
    expect(nodeStage(joined, ironic("service wait")).stage).toBe("testing");
  });

  it("shows a deployed node's gate as testing, never commissioning, and a first commissioning as commissioning", () => {
    expect(nodeStage(at("deployed"), maas("Testing", { owned: true })).stage).toBe("testing");
    expect(nodeStage(at("ready"), maas("Testing", { owned: true })).stage).toBe("testing");
    expect(nodeStage(at("bmc-up"), maas("Testing")).stage).toBe("commissioning");
    expect(nodeStage(at("bmc-up"), maas("Commissioning")).stage).toBe("commissioning");
  });

  it("reads the scheduler for draining: drained, draining, down or cordoned is not joined", () => {
    const joined = at("joined");
    expect(nodeStage(joined, maas("Deployed", { owned: true }), slurm("IDLE", false)).stage).toBe("joined");
    expect(nodeStage(joined, maas("Deployed", { owned: true }), slurm("MIXED+DRAIN", true))).toEqual({
      stage: "draining",
      detail: "slurm reports MIXED+DRAIN",
    });
    expect(nodeStage(joined, undefined, slurm("IDLE+DRAIN", true)).stage).toBe("draining");
    expect(nodeStage(joined, undefined, slurm("DOWN", false, true)).stage).toBe("draining");
    const cordoned: SchedulerReading = { scheduler: "kubernetes", state: "Ready,cordoned", drain: true, down: false };
    expect(nodeStage(joined, undefined, cordoned).stage).toBe("draining");
    // a node not yet joined is not "draining" because its scheduler node is still down
    expect(nodeStage(at("testing"), maas("Deployed", { owned: true }), slurm("DOWN", false, true)).stage).toBe(
      "testing",
    );
    // the backend working on the machine says more than the drain flag it still carries
    expect(nodeStage(joined, maas("Deploying", { owned: true }), slurm("DOWN+DRAIN", true, true)).stage).toBe(
      "deploying",
    );
  });

  it("keeps what only state knows: a failed gate's evidence, an outlet switched off, a deployed node's progress", () => {
    const quarantined: StageReading = { stage: "quarantined", detail: "measured all_reduce busbw 300 GB/s" };
    expect(nodeStage(quarantined, maas("Broken", { message: "rackform" }))).toEqual(quarantined);
    expect(nodeStage(quarantined, maas("Deployed", { owned: true }))).toEqual(quarantined);
    // a re-run of the gate is news
    expect(nodeStage(quarantined, maas("Testing", { owned: true })).stage).toBe("testing");
    const off: StageReading = { stage: "off", detail: "outlet switched off" };
    expect(nodeStage(off, maas("Deployed", { owned: true }))).toEqual(off);
    expect(nodeStage(at("testing"), maas("Deployed", { owned: true })).stage).toBe("testing");
    expect(nodeStage(at("ready"), maas("Deployed", { owned: true })).stage).toBe("deployed");
    expect(nodeStage(at("bmc-up"), maas("New")).stage).toBe("enrolled");
  });

  it("reads a member recorded not joined as draining with the scheduler's words", () => {
    const member = { values: { joined: false, state: "IDLE+DRAIN" } };
    expect(stageFromState({ member })).toEqual({ stage: "draining", detail: "scheduler reports IDLE+DRAIN" });
  });
});

describe("rackform watch: the ETA is blank while nothing progresses", () => {
  it("gives no figure for a rack whose node stays in a stage far longer than others took", () => {
    const eta = new EtaTracker();
    const path = ["off", "bmc-up", "enrolled", "commissioning", "ready", "deploying", "deployed", "testing", "joined"];
    for (const [i, st] of path.entries()) eta.observe("a", st as Stage, i * 10_000);
    eta.observe("b", "off", 0);
    eta.observe("b", "bmc-up", 10_000);
    eta.observe("b", "enrolled", 20_000);
    eta.observe("b", "commissioning", 30_000);
    eta.observe("b", "ready", 40_000);
    // 5 s into "ready" (mean 10 s): 5 s left of it, then deploying, deployed and testing at 10 s each
    expect(eta.remainingMs(["a", "b"], 45_000)).toBe(35_000);
    // still "ready" 20 s in: past its mean but not overdue yet, so what is left of the path
    expect(eta.remainingMs(["a", "b"], 60_000)).toBe(30_000);
    // five minutes later (a drain waiting on the budget, a hung step): no figure rather than a wrong one
    expect(eta.remainingMs(["a", "b"], 340_000)).toBeUndefined();
    // a node draining or releasing is off the path: no figure either
    eta.observe("b", "releasing", 341_000);
    expect(eta.remainingMs(["a", "b"], 342_000)).toBeUndefined();
  });
});

describe("rackform watch: the firmware stage", () => {
  const bmc = { values: { endpoint: "https://127.10.1.1" } };
  const firmware = (more: Record<string, unknown> = {}, tainted = false) => ({
    values: { endpoint: "https://127.10.1.1", versions: { BIOS: "2.3" }, last_update_messages: [], ...more },
    tainted,
  });

  it("sits between BMC up and enrolled on the path, with its label and colour in the one stage model", () => {
    expect(PATH.slice(0, 4)).toEqual(["off", "bmc-up", "firmware", "enrolled"]);
    expect(PATH.at(-1)).toBe("joined");
    expect(STAGES).toContain("firmware");
    expect(STAGE_LABEL.firmware).toBe("firmware");
  });

  it("is a node whose firmware baseline is recorded and its machine not yet; past it once the machine is", () => {
    expect(stageFromState({ bmc, firmware: firmware() })).toEqual({ stage: "firmware" });
    expect(stageFromState({ bmc, firmware: firmware(), machine: { values: { id: "maas:m1" } } }).stage).toBe("ready");
  });

  it("a failed update is failed with its evidence; quarantined when the node's member carried it out", () => {
    const messages = ["BIOS: Image signature check failed", "iDRAC firmware: version 7.10 not reached"];
    const failed = firmware({ last_update_messages: messages }, true);
    expect(stageFromState({ bmc, firmware: failed })).toEqual({
      stage: "failed",
      detail: `firmware update failed: ${messages.join("; ")}`,
    });
    expect(stageFromState({ bmc, firmware: firmware({}, true) })).toEqual({
      stage: "failed",
      detail: "firmware update failed",
    });
    const member = { values: { joined: true } };
    expect(stageFromState({ bmc, firmware: firmware({ last_update_messages: messages }), member })).toEqual({
      stage: "quarantined",
      detail: `firmware update failed: ${messages.join("; ")}`,
    });
  });

  it("ties the firmware to its node by the BMC's endpoint in state, and shows the stage on the page's legend", () => {
    const resources: StateResource[] = [
      {
        address: "rackform_bmc.a_bmc",
        mode: "managed",
        type: "rackform_bmc",
        name: "a_bmc",
        values: { endpoint: "https://127.10.1.1" },
      },
      {
        address: "rackform_firmware.a_firmware",
        mode: "managed",
        type: "rackform_firmware",
        name: "a_firmware",
        values: { endpoint: "https://127.10.1.1/", versions: { BIOS: "2.3" }, last_update_messages: [] },
      },
    ];
    const s = new WatchModel().update([{ label: "r1", read: { resources } }], { byName: new Map(), errors: [] }, 0);
    expect(s.racks[0].nodes.map((n) => [n.name, n.stage])).toEqual([["https://127.10.1.1", "firmware"]]);
    const html = watchPage(s);
    expect(html).toContain('"firmware":"firmware"');
    expect(html).toMatch(/const ORDER=\[[^\]]*"bmc-up","firmware","enrolled"/);
  });
});

describe("rackform watch: a joined node whose BMC reports a component not OK (issue 30)", () => {
  const chain = (health: unknown[]) => ({
    bmc: { values: { endpoint: "https://127.10.1.1", health } },
    acceptance: { values: { passed: true } },
    member: { values: { joined: true, state: "IDLE" } },
  });

  it("is unhealthy, naming the components, and settled; healthy it is joined", () => {
    const sick = stageFromState(
      chain([
        { component: "GPU 1", health: "Critical" },
        { component: "DIMM3", health: "Warning" },
      ]),
    );
    expect(sick).toEqual({ stage: "unhealthy", detail: "BMC reports GPU 1 Critical, DIMM3 Warning" });
    expect(stageFromState(chain([]))).toEqual({ stage: "joined" });
    expect(STAGE_LABEL.unhealthy).toBe("unhealthy");
  });

  it("stays unhealthy beside a deployed machine, and is draining once its scheduler drains it", () => {
    const sick = stageFromState(chain([{ component: "GPU 1", health: "Critical" }]));
    expect(nodeStage(sick, maas("Deployed", { owned: true })).stage).toBe("unhealthy");
    expect(nodeStage(sick, maas("Deployed", { owned: true }), slurm("IDLE+DRAIN", true)).stage).toBe("draining");
  });
});

describe("rackform watch: the health remediation ladder", () => {
  const sick = { values: { health: [{ component: "GPU 1", kind: "gpu", health: "Critical", since: "t" }] } };
  const chain = (dep: string, mem: string, gate: Record<string, unknown> = {}) => ({
    bmc: sick,
    deployment: { values: { remediation: dep } },
    acceptance: { values: { remediation: dep, passed: null, ...gate } },
    member: { values: { joined: true, remediation: mem } },
  });

  it("a step recorded by the deployment and not yet by the member is remediating, with the step and the finding", () => {
    expect(stageFromState(chain("power_cycle:1", ""))).toEqual({
      stage: "remediating",
      detail: "power cycle (BMC reports GPU 1 Critical)",
    });
    expect(STAGES).toContain("remediating");
    expect(STAGE_LABEL.remediating).toBe("remediating");
  });

  it("a step whose gate failed is quarantined until the next plan; repair is quarantined and says so", () => {
    expect(stageFromState(chain("reimage:1", "power_cycle:1", { passed: false })).stage).toBe("quarantined");
    expect(stageFromState(chain("repair", "repair"))).toEqual({
      stage: "quarantined",
      detail: "held for repair: BMC reports GPU 1 Critical",
    });
  });

  it("a step the member recorded is done: the node reads as its scheduler and BMC say", () => {
    expect(stageFromState(chain("power_cycle:1", "power_cycle:1")).stage).toBe("unhealthy");
    expect(stageFromState({ ...chain("", ""), bmc: { values: { health: [] } } }).stage).toBe("joined");
  });
});
