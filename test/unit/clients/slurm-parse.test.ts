/** Parsing of real-shaped slurmrestd payloads: v0.0.41 state arrays and the v0.0.38 string encoding. */
import { describe, expect, it } from "vitest";
import { describeErrors, parseNode, restErrors } from "../../../src/clients/slurm/parse.js";
import type { SlurmNode } from "../../../src/clients/slurm/types.js";
import {
  V38_DRAINED_NODE,
  V38_UNKNOWN_NODE,
  V41_NODES,
  V41_UPDATE_REFUSED,
} from "../../support/clients/slurm-payloads.js";

const parsed = (raw: unknown): SlurmNode => {
  const n = parseNode(raw);
  if (typeof n === "string") throw new Error(n);
  return n;
};

describe("slurmrestd v0.0.41 nodes", () => {
  const [idle, draining, down] = V41_NODES.nodes.map(parsed);

  it("reads an idle GPU node as schedulable, with features, partitions and gres", () => {
    expect(idle).toMatchObject({ name: "gpu-a01", baseState: "IDLE", schedulable: true, drain: false, down: false });
    expect(idle.features).toEqual(["h100", "ib-ndr"]);
    expect(idle.partitions).toEqual(["gpu", "debug"]);
    expect(idle.gres).toBe("gpu:h100:8(S:0-1)");
  });

  it("reads MIXED+DRAIN as draining (jobs left), not drained", () => {
    expect(draining).toMatchObject({ drain: true, draining: true, drained: false, schedulable: false });
    expect(draining.reason).toBe("rackform: reimage to 2026.06.2");
  });

  it("reads DOWN+NOT_RESPONDING as down and not schedulable", () => {
    expect(down).toMatchObject({
      down: true,
      schedulable: false,
      reason: "Not responding",
      state: ["DOWN", "NOT_RESPONDING"],
    });
  });

  it("explains slurmctld's refusal from errors[]", () => {
    const errs = restErrors(V41_UPDATE_REFUSED);
    expect(errs[0].error_number).toBe(2028);
    expect(describeErrors(errs)).toBe("Invalid node state specified (2028): Failure to update node gpu-a01");
  });

  it("reads slurmd_start_time as ms since the epoch, and an unset or zero one as unknown", () => {
    const at = (v: unknown) => parsed({ name: "n", state: ["IDLE"], slurmd_start_time: v }).slurmdStartedAt;
    expect(at({ set: true, infinite: false, number: 1_795_000_000 })).toBe(1_795_000_000_000);
    expect(at({ set: false, infinite: false, number: 0 })).toBeUndefined();
    expect(at(1_795_000_000)).toBe(1_795_000_000_000);
    expect(at(0)).toBeUndefined();
    expect(at(undefined)).toBeUndefined();
  });

  it("fails to parse a node without a name or state, saying which", () => {
    expect(parseNode({ state: ["IDLE"] })).toBe("a node entry has no name");
    expect(parseNode({ name: "x" })).toBe("node x has no state");
  });
});

describe("slurmrestd v0.0.38 (Slurm 22.05) nodes", () => {
  it("reads state 'idle' with state_flags [DRAIN] and comma-separated features as drained", () => {
    const n = parsed(V38_DRAINED_NODE);
    expect(n).toMatchObject({ state: ["IDLE", "DRAIN"], drained: true, draining: false, features: ["h100"] });
  });

  it("reads the old `errno` key of errors[]", () => {
    expect(restErrors(V38_UNKNOWN_NODE)).toEqual([
      { error: "Invalid node name specified", error_number: 2018, description: undefined, source: undefined },
    ]);
  });
});
