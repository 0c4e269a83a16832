/**
 * A chaos run of one disruption budget shared by several stacks (issue 27): a lab rack split into stacks of one Slurm
 * partition, each its own working directory and engine process. The stacks are deployed, then all get a new image
 * version with max_unavailable set and are applied at the same time; seeded SIGKILLs hit an engine shortly after one of
 * its nodes is drained (mid-drain, mid-recycle), each killed apply followed at once by a re-apply. Then every stack is
 * applied once more and planned (must be empty). Checked from the lab slurmctld's log of node transitions
 * (budget.ts): no drain takes the partition above max_unavailable, reservation leases stay bounded and none is left;
 * and from the engines: every apply ends within the lease plus a bound (a killed run's reservation blocks no one
 * longer), the killed engines' providers exit, never two backend machines for one node.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Lab, type SlurmTransition, startLab } from "../../src/lab/index.js";
import { engine as findEngine, type RunResult, type Workdir } from "../support/engines.js";
import { GOLDEN_IMAGE, goldenImage, rackConfig, rackStack, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";
import { budgetOverruns, drainsIn, LEASE_MS, leftReservations, overlongLeases, peakOut } from "./budget.js";
import { duplicateMachines } from "./invariants.js";
import { backendMachines, leftAfterKill, parseStream, providerChildren } from "./observe.js";
import { Prng } from "./prng.js";
import { haltOnKilledRun } from "./rolling-halt.js";
import type { Violation } from "./run.js";
import { restoreEmptiedState } from "./state-loss.js";

/** What a run of stacks sharing one budget is. */
export interface RollingOptions {
  readonly seed: number;
  /** Stacks applied at once, each a separate engine process. */
  readonly stacks: number;
  /** Nodes per stack. */
  readonly nodesPerStack: number;
  readonly maxUnavailable: number;
  readonly backend: "maas" | "ironic";
  readonly engine: "terraform" | "tofu";
  readonly kills: number;
  readonly log?: (line: string) => void;
}

/** A SIGKILL of a stack's engine, `delayMs` after its `afterDrain`-th drain of the rollout. */
export interface RollingKill {
  readonly stack: number;
  readonly afterDrain: number;
  readonly delayMs: number;
}

/** What a run did. */
export interface RollingFigures {
  drains: number;
  peakOut: number;
  kills: number;
  missedKills: number;
  /** Kills that left the engine's local state file empty (restored from its backup: state-loss.ts). */
  statesRestored: number;
  /** Applies halted on nodes a killed run left out, re-applied (rolling-halt.ts). */
  halts: number;
  applies: number;
  rolloutS: number;
  wallS: number;
}

/** A run's outcome. */
export interface RollingResult {
  readonly violations: readonly Violation[];
  readonly figures: RollingFigures;
  readonly kills: readonly RollingKill[];
}

/** An apply still running this long after it started is blocked (a lease blocks for at most LEASE_MS). */
const APPLY_BOUND_MS = LEASE_MS + 180_000;
/** How often a stack is re-applied after a halt on nodes a killed run left out, and the pause before each. */
const HALT_RETRIES = 5;
const HALT_PAUSE_MS = 2_000;
const MAIN = join(ROOT, "dist", "main.js");
const NEW_IMAGE = goldenImage("2026.07.1");

/** The kills of a run: a pure function of (seed, stacks, nodes per stack, kills). */
export function rollingKills(seed: number, stacks: number, nodesPerStack: number, kills: number): RollingKill[] {
  const rng = new Prng(seed ^ 0x5bd1e995);
  const out: RollingKill[] = [];
  for (let k = 0; k < kills; k++)
    out.push({
      stack: rng.int(0, stacks - 1),
      afterDrain: rng.int(1, Math.max(1, nodesPerStack - 1)),
      delayMs: rng.int(0, 1500),
    });
  return out;
}

/** The one-line command that replays a run. */
export function rollingReplay(o: RollingOptions): string {
  return (
    `npm run chaos -- --seed ${o.seed} --stacks ${o.stacks} --nodes ${o.stacks * o.nodesPerStack} ` +
    `--max-unavailable ${o.maxUnavailable} --backend ${o.backend} --engine ${o.engine} --kills ${o.kills}`
  );
}

/** Runs the stacks against a fresh lab on the instant profile. */
export async function runRolling(o: RollingOptions): Promise<RollingResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const lab = await startLab({
    nodes: o.stacks * o.nodesPerStack,
    profile: "instant",
    stateDir: await mkdtemp(join(tmpdir(), "rf-chaos-lab-")),
  });
  const kills = rollingKills(o.seed, o.stacks, o.nodesPerStack, o.kills);
  const figures: RollingFigures = {
    drains: 0,
    peakOut: 0,
    kills: 0,
    missedKills: 0,
    statesRestored: 0,
    halts: 0,
    applies: 0,
    rolloutS: 0,
    wallS: 0,
  };
  const violations: Violation[] = [];
  try {
    const run = new Rollout(o, lab, figures, violations, log);
    await run.deploy();
    await run.roll(kills);
    await run.finish();
  } finally {
    await lab.close();
  }
  figures.wallS = Math.round((Date.now() - started) / 100) / 10;
  return { violations, figures, kills };
}

/** The stacks of one run. */
class Rollout {
  private readonly groups: string[][];
  private readonly all: ReadonlySet<string>;
  private stacks: Workdir[] = [];
  private readonly pids = new Map<number, number>();
  /** The stacks whose engine a kill landed on. */
  private readonly killed = new Set<number>();
  private mark = 0;

  constructor(
    private readonly o: RollingOptions,
    private readonly lab: Lab,
    private readonly figures: RollingFigures,
    private readonly violations: Violation[],
    private readonly log: (line: string) => void,
  ) {
    const names = lab.info.nodes.map((n) => n.name);
    this.groups = Array.from({ length: o.stacks }, (_, i) =>
      names.slice(i * o.nodesPerStack, (i + 1) * o.nodesPerStack),
    );
    this.all = new Set(this.groups.flat());
  }

  private violate(step: string, message: string): void {
    this.violations.push({ step, message });
    this.log(`VIOLATION seed=${this.o.seed} step=${step}: ${message}`);
  }

  private transitions(): readonly SlurmTransition[] {
    return this.lab.backends!.slurm.hooks.transitions();
  }

  /** Every stack deployed on the golden image (at once, one engine each); a failure here is the run's, not a finding. */
  async deploy(): Promise<void> {
    const t0 = Date.now();
    for (const img of [GOLDEN_IMAGE, NEW_IMAGE]) {
      this.lab.images.put(`${img.name}-${img.version}.qcow2`, `${img.name}-${img.version}`);
      if (this.o.backend === "maas") await uploadGoldenImage(this.lab, img);
    }
    const cli = await freshInstall([builtProvider()]);
    const opts = { maxUnavailable: this.o.maxUnavailable };
    this.stacks = await Promise.all(
      this.groups.map((g) => rackStack(findEngine(this.o.engine), cli, this.lab, this.o.backend, g, opts)),
    );
    await Promise.all(this.stacks.map((w) => w.ok(["init", "-no-color"])));
    await Promise.all(this.stacks.map((w) => w.ok(["apply", "-auto-approve", "-no-color"])));
    this.figures.applies += this.stacks.length;
    this.log(`deployed ${this.o.stacks} stacks × ${this.o.nodesPerStack} nodes in ${secs(t0)} s`);
  }

  /** The image bump, every stack applied at once; the seeded kills land shortly after a drain of their stack. */
  async roll(kills: readonly RollingKill[]): Promise<void> {
    const t0 = Date.now();
    this.mark = this.transitions().length;
    await Promise.all(
      this.stacks.map((w, i) =>
        w.write({
          "main.tf": rackConfig(this.lab, this.o.backend, this.groups[i], {
            image: NEW_IMAGE,
            maxUnavailable: this.o.maxUnavailable,
          }),
        }),
      ),
    );
    const pending = [...kills];
    let rolling = true;
    const killer = (async () => {
      while (rolling) {
        await this.fireKills(pending);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    await Promise.all(this.stacks.map((_, i) => this.rollStack(i, () => pending.some((k) => k.stack === i))));
    rolling = false;
    await killer;
    this.figures.missedKills += pending.length;
    this.figures.rolloutS = secs(t0);
  }

  /** Kills whose drain has come: after their delay, SIGKILL the stack's engine (if an apply of it runs). */
  private async fireKills(pending: RollingKill[]): Promise<void> {
    const log = this.transitions();
    for (const k of [...pending]) {
      const drains = drainsIn(log, new Set(this.groups[k.stack])).filter((t) => t.seq >= this.mark);
      const nth = drains[k.afterDrain - 1];
      if (!nth || Date.now() < nth.at + k.delayMs) continue;
      const pid = this.pids.get(k.stack);
      if (pid === undefined) continue;
      pending.splice(pending.indexOf(k), 1);
      // The next kill of this stack waits for its re-apply's engine.
      this.pids.delete(k.stack);
      const children = await providerChildren(MAIN, pid);
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        this.figures.missedKills++;
        continue;
      }
      void this.checkProcesses(`stack ${k.stack}`, children);
    }
  }

  /** Applies the stack until one apply runs to its end (re-applying after each kill) or it is blocked too long. */
  private async rollStack(i: number, killsLeft: () => boolean): Promise<void> {
    for (let n = 0; ; n++) {
      const t0 = Date.now();
      const r = await this.bounded(i, ["apply", "-auto-approve", "-no-color", "-json"]);
      this.figures.applies++;
      if (r.signal === "SIGKILL" && !r.blocked) {
        this.figures.kills++;
        this.killed.add(i);
        this.log(`stack ${i}: apply ${n} killed after ${secs(t0)} s; re-applying`);
        if (await restoreEmptiedState(this.stacks[i].dir)) {
          this.figures.statesRestored++;
          this.log(`stack ${i}: the kill left the engine's state file empty; restored from its backup (state-loss.ts)`);
        }
        continue;
      }
      const errs = parseStream(r.stdout).diagnostics.filter((d) => d.severity === "error");
      if (!r.blocked && r.code !== 0 && n < HALT_RETRIES && haltOnKilledRun(errs, this.leftByKills())) {
        this.figures.halts++;
        this.log(`stack ${i}: apply ${n} halted on nodes a killed run left out; re-applying, as a pipeline would`);
        await new Promise((res) => setTimeout(res, HALT_PAUSE_MS));
        continue;
      }
      if (r.blocked)
        this.violate(`stack ${i}`, `apply ${n} was still running ${APPLY_BOUND_MS / 1000} s after it began`);
      else if (r.code !== 0) {
        const why = errs.map((d) => `${d.summary}: ${d.detail.replace(/\s+/g, " ").slice(0, 600)}`);
        this.violate(`stack ${i}`, `apply ${n} failed (exit ${r.code}): ${why.join(" | ") || "no diagnostic"}`);
      }
      this.log(`stack ${i}: apply ${n} ran to its end in ${secs(t0)} s (exit ${r.code})`);
      // A kill still pending for this stack missed (its rollout ended first); nothing more to kill.
      if (killsLeft()) this.log(`stack ${i}: a kill missed (the apply ended first)`);
      return;
    }
  }

  /** The nodes of the stacks whose engine was killed in this rollout. */
  private leftByKills(): Set<string> {
    return new Set([...this.killed].flatMap((i) => this.groups[i]));
  }

  /** Runs the engine in stack `i`; an apply still running after APPLY_BOUND_MS is killed and marked blocked. */
  private async bounded(i: number, args: string[]): Promise<RunResult & { blocked: boolean }> {
    let blocked = false;
    let timer: NodeJS.Timeout | undefined;
    let spawned: number | undefined;
    const r = await this.stacks[i].run(args, {
      onSpawn: (pid) => {
        spawned = pid;
        this.pids.set(i, pid);
        liveRollingEngines.add(pid);
        timer = setTimeout(() => {
          blocked = true;
          process.kill(pid, "SIGKILL");
        }, APPLY_BOUND_MS);
      },
    });
    clearTimeout(timer);
    if (spawned !== undefined) liveRollingEngines.delete(spawned);
    if (this.pids.get(i) === spawned) this.pids.delete(i);
    return { ...r, blocked };
  }

  /** After a kill: the killed engine's providers exit within 10 s. */
  private async checkProcesses(label: string, pids: readonly number[]): Promise<void> {
    for (const pid of await leftAfterKill(pids)) {
      this.violate(label, `provider pid ${pid} left behind 10 s after the kill`);
      process.kill(pid, "SIGKILL");
    }
  }

  /** One more apply and a plan per stack (at once), then the budget's invariants over the whole rollout. */
  async finish(): Promise<void> {
    const applies = await Promise.all(
      this.stacks.map((_, i) => this.bounded(i, ["apply", "-auto-approve", "-no-color"])),
    );
    this.figures.applies += applies.length;
    for (const [i, r] of applies.entries())
      if (r.code !== 0) this.violate("final", `stack ${i}: the apply after the rollout failed (exit ${r.code})`);
    for (const [i, w] of this.stacks.entries()) {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      if (plan.code !== 0)
        this.violate("final", `stack ${i}: the plan after the rollout is not empty (exit ${plan.code})`);
    }
    const log = this.transitions();
    const watch = { max: this.o.maxUnavailable, nodes: this.all, sinceSeq: this.mark };
    for (const v of budgetOverruns(log, watch)) this.violate("rollout", v);
    for (const v of overlongLeases(log.slice(this.mark), LEASE_MS)) this.violate("rollout", v);
    for (const v of leftReservations(log, this.all)) this.violate("final", v);
    for (const v of duplicateMachines(await backendMachines(this.lab, this.o.backend))) this.violate("final", v);
    this.figures.drains = drainsIn(log, this.all).filter((t) => t.seq >= this.mark).length;
    this.figures.peakOut = peakOut(log, this.all, this.mark).count;
  }
}

/** Engine processes running now (a harness stopped by a signal kills them). */
export const liveRollingEngines = new Set<number>();

const secs = (t0: number) => Math.round((Date.now() - t0) / 100) / 10;
