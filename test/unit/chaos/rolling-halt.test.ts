/** The rolling chaos run's reading of a rollout halt (test/chaos/rolling-halt.ts), on the words the provider writes. */
import { describe, expect, it } from "vitest";
import { haltedOn, haltOnKilledRun } from "../../chaos/rolling-halt.js";

// As CI's run of seed 2701 printed it (2026-11-27), the engine's wrapping folded.
const HALT = {
  summary: "Rollout halted: the disruption budget is used up by nodes out of service",
  detail:
    "Slurm node r01-n04 was not drained: the rollout halted: 1 of 1 nodes allowed out of service are out and " +
    "nothing is bringing them back: r01-n06 (DOWN+DRAIN (reason: rackform: leaving)). The node stays joined; nothing " +
    "was changed. Nothing in progress will bring those nodes back, so the rollout stops here instead of waiting.",
};

describe("a rollout halt in the rolling chaos run", () => {
  it("names the nodes the halt found out with nothing bringing them back", () => {
    expect(haltedOn(HALT.detail)).toEqual(["r01-n06"]);
    const two = HALT.detail.replace(
      "r01-n06 (DOWN+DRAIN (reason: rackform: leaving))",
      "r01-n06 (DOWN+DRAIN (reason: rackform: leaving)), r02-n01 (IDLE+DRAIN (reason: hand))",
    );
    expect(haltedOn(two)).toEqual(["r01-n06", "r02-n01"]);
    expect(haltedOn("Acceptance gate failed")).toBeUndefined();
  });

  it("re-applies only a halt on nodes a killed run left out; any other error stays a violation", () => {
    expect(haltOnKilledRun([HALT], new Set(["r01-n05", "r01-n06"]))).toBe(true);
    expect(haltOnKilledRun([HALT], new Set(["r01-n05"]))).toBe(false);
    expect(haltOnKilledRun([HALT, { summary: "Acceptance gate failed", detail: "" }], new Set(["r01-n06"]))).toBe(
      false,
    );
    expect(haltOnKilledRun([], new Set(["r01-n06"]))).toBe(false);
  });
});
