/**
 * Chaos at rack scale, the small fixed set CI runs (issue 15): seeded runs of the chaos harness (test/chaos) on a
 * 16-node rack on the lab's instant profile — lab faults of every kind on ~10% of the nodes, BMC reboots, outlet
 * cycles, backend 503/429 storms and SIGKILLs of the engine, each followed by a re-apply — then the faults are
 * cleared, one apply must converge and the next plan must be empty. Every invariant is checked after every step from
 * the lab's records and the engine's state; a violation names the seed, the step and the replay command.
 *
 * Three runs stay within the suite's budget (a seed is 1–2 minutes on a loaded 2-core machine): seed 1501 (MAAS) under
 * each engine and seed 1503 (Ironic) under OpenTofu; `npm run chaos` covers the other pairs at 64 nodes. The seeds are
 * fixed: a seed that once found a violation stays here as its regression case.
 *
 * One disruption budget per partition (issue 27): per engine, one seed splits 12 nodes into 3 stacks of one Slurm
 * partition, rolls them to a new image with max_unavailable = 1, all applied at once by 3 engines, and SIGKILLs
 * engines shortly after their drains (test/chaos/rolling.ts); the lab slurmctld's log of transitions must never show a
 * drain taking the partition above the budget, and no reservation may outlive its lease or be left at the end.
 */
import { describe, expect, it } from "vitest";
import { rollingReplay, runRolling } from "../chaos/rolling.js";
import { replayCommand, runChaos } from "../chaos/run.js";
import { ENGINES } from "../support/engines.js";

const SET = [
  { seed: 1501, backend: "maas", engine: "terraform" },
  { seed: 1501, backend: "maas", engine: "tofu" },
  // Seed 1503 once found a healthy node failing Ironic inspection with ECONNRESET from its BMC, on a machine loaded by
  // other runs. It has passed every run since refreshes and waits ride out passing failures (4 in a row, both
  // engines), though that reset itself was never reproduced; it stays here as Ironic's case.
  { seed: 1503, backend: "ironic", engine: "tofu" },
] as const;

describe.each(SET.filter((s) => ENGINES.includes(s.engine)))("chaos seed $seed: $backend under $engine", (s) => {
  it("16 nodes, 2 kills, faults, reboots and storms: every invariant holds and the rack converges once faults clear", async () => {
    const opts = { ...s, nodes: 16, profile: "instant", kills: 2 };
    const r = await runChaos(opts);
    const f = r.figures;
    console.log(
      `chaos seed ${s.seed} (${s.backend}/${s.engine}, 16 nodes): faults ${Object.values(f.faults).reduce((a, b) => a + b, 0)} ` +
        `(${Object.keys(f.faults).join(", ")}), reboots ${f.reboots}, outlet cycles ${f.outletCycles}, storms ${f.storms}, ` +
        `kills ${f.kills}, applies ${f.applies}, final apply ${f.finalApplyS} s, wall ${f.wallS} s`,
    );
    const lines = r.violations.map((v) => `step ${v.step}: ${v.message}`);
    expect(lines, `replay: ${replayCommand(opts)}`).toEqual([]);
    expect(f.kills).toBe(2);
  }, 900_000);
});

const SHARED = [
  { seed: 2701, backend: "maas", engine: "terraform" },
  { seed: 2702, backend: "ironic", engine: "tofu" },
] as const;

describe.each(SHARED.filter((s) => ENGINES.includes(s.engine)))(
  "chaos seed $seed, 3 stacks of one partition: $backend under $engine",
  (s) => {
    it("rolled at once by 3 engines with kills mid-drain: never more than max_unavailable out, no reservation left", async () => {
      const opts = { ...s, stacks: 3, nodesPerStack: 4, maxUnavailable: 1, kills: 2 };
      const r = await runRolling(opts);
      const f = r.figures;
      console.log(
        `chaos seed ${s.seed} (${s.backend}/${s.engine}, 3 stacks × 4 nodes, max_unavailable 1): drains ${f.drains}, ` +
          `most out at once ${f.peakOut}, kills ${f.kills} (${f.missedKills} missed), applies ${f.applies}, ` +
          `rollout ${f.rolloutS} s, wall ${f.wallS} s`,
      );
      const lines = r.violations.map((v) => `${v.step}: ${v.message}`);
      expect(lines, `replay: ${rollingReplay(opts)}`).toEqual([]);
      expect(f.drains).toBeGreaterThanOrEqual(12);
      expect(f.peakOut).toBe(1);
      expect(f.kills).toBeGreaterThanOrEqual(1);
    }, 600_000);
  },
);
