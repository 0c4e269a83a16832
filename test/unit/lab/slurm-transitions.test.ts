/** The lab slurmctld's log of node transitions: every change of a node's state or comment, in order. */
import { describe, expect, it } from "vitest";
import { SlurmNodeTable } from "../../../src/lab/scheduler/slurm-nodes.js";

describe("lab slurmctld transition log", () => {
  it("records registrations, drains, lost slurmds, resumes, comments and deletes once each, in order", () => {
    const t = new SlurmNodeTable({ now: () => 0 });
    t.register("n1", { partitions: ["gpu"] });
    t.register("n2", { partitions: ["gpu"], dynamic: true });
    t.update("n1", { comment: "[rackform-budget: reserved by rf-1 until 2026-01-01T00:00:00.000Z]" }, "slurm");
    t.update("n1", { state: ["DRAIN"], reason: "rackform: reimage" }, "slurm");
    t.update("n1", { state: ["DRAIN"], reason: "rackform: reimage again" }, "slurm");
    t.lost("n1");
    t.register("n1", {});
    t.update("n1", { state: ["RESUME"], comment: "" }, "slurm");
    t.remove("n2");
    const log = t.transitions.map((x) => [x.seq, x.node, x.state.join("+"), x.out, x.cause, x.user ?? ""]);
    expect(log).toEqual([
      [0, "n1", "IDLE", false, "register", ""],
      [1, "n2", "IDLE+DYNAMIC_NORM", false, "register", ""],
      [2, "n1", "IDLE", false, "update", "slurm"],
      [3, "n1", "IDLE+DRAIN", true, "update", "slurm"],
      [4, "n1", "DOWN+DRAIN+NOT_RESPONDING", true, "lost", ""],
      // The slurmd registering again clears NOT_RESPONDING (as on the real 22.05 slurmctld); the node stays DOWN.
      [5, "n1", "DOWN+DRAIN", true, "register", ""],
      [6, "n1", "IDLE", false, "update", "slurm"],
      [7, "n2", "", true, "remove", ""],
    ]);
    expect(t.transitions[2].comment).toContain("reserved by rf-1");
    expect(t.transitions[3].partitions).toEqual(["gpu"]);
  });
});
