/**
 * The health ladder on a node that never joined: its gate failed at join (the member was never created) while its BMC
 * reports a fault the ladder acts on. The gate's replacement offers its run to the member (acceptance-ops.test.ts);
 * the member's create carries the step — remedy, gate, join — or holds the node for repair, as an update does on a
 * node in service. Before, nothing carried the step: the replaced gate failed on the fault before any remedy, its
 * member was never created, and the ladder planned the same step apply after apply (chaos seed 1501).
 */
import { describe, expect, it } from "vitest";
import { createMember } from "../../../src/provider/resources/cluster-member-ops.js";
import { fakeDeps, memberPlan, offerLadderStep, offerRepair } from "../../support/member-fakes.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

/** The node registered (its slurmd runs on the deployed OS) but never joined. */
function registered() {
  const f = fakeDeps();
  f.nodes.set("n1", { registered: true, state: "DOWN", joined: false, partitions: ["gpu"] });
  return f;
}

const steps = (calls: readonly string[]) => calls.filter((c) => /^(drain|power|gate|join|quarantine) /.test(c));

describe("rackform_cluster_member's create under a ladder step", () => {
  it("power cycles the node, runs its gate, then joins it, recording the rung", async () => {
    const f = registered();
    offerLadderStep(f, "n1");
    const r = typedRequest();
    const s = await createMember({ ...r, plan: memberPlan({ remediation: "power_cycle:1" }) }, f.deps);
    expect(diagnosticLines(r.diagnostics)).toEqual([]);
    expect([s?.remediation, s?.joined]).toEqual(["power_cycle:1", true]);
    expect(steps(f.calls)).toEqual(["drain n1", "power cycle n1", "gate n1", "join n1"]);
  });

  it("a gate that fails after the remedy records nothing, so the next plan creates the member again", async () => {
    const f = registered();
    offerLadderStep(f, "n1", false);
    const r = typedRequest();
    const s = await createMember({ ...r, plan: memberPlan({ remediation: "power_cycle:1" }) }, f.deps);
    expect(s).toBeUndefined();
    expect(diagnosticLines(r.diagnostics)).toEqual(["error Acceptance gate failed @ "]);
    expect(steps(f.calls)).toEqual(["drain n1", "power cycle n1", "gate n1"]);
  });

  it("repair: quarantines the node and records it out of service, never joined", async () => {
    const f = registered();
    offerRepair(f, "n1");
    const r = typedRequest();
    const s = await createMember({ ...r, plan: memberPlan({ remediation: "repair" }) }, f.deps);
    expect([s?.remediation, s?.joined]).toEqual(["repair", false]);
    expect(steps(f.calls)).toEqual(["drain n1", "quarantine n1"]);
  });

  it("without a ladder step a create joins as always, taking no offer", async () => {
    const f = registered();
    const r = typedRequest();
    const s = await createMember({ ...r, plan: memberPlan({ remediation: "" }) }, f.deps);
    expect([s?.joined, steps(f.calls)]).toEqual([true, ["join n1"]]);
  });
});
