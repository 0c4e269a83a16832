/**
 * One chaos run: a lab rack, the demo's HCL stack under a real engine, and the seeded schedule played while the engine
 * applies — faults, BMC reboots, outlet cycles, backend storms, SIGKILLs, each killed apply followed by a re-apply —
 * then the faults are cleared, one apply must converge and the next plan must be empty. The invariants
 * (invariants.ts) are checked after every step from the lab's records and the engine's own output and state.
 */

import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Lab, startLab } from "../../src/lab/index.js";
import { engine as findEngine, type RunResult, type Workdir } from "../support/engines.js";
import { rackStack, resourceName, type ShownResource, shownState, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";
import { LEASE_MS, leftReservations, overlongLeases } from "./budget.js";
import { type HealthFigures, HealthWatch } from "./health-watch.js";
import { convergence, duplicateMachines, leaks, orphans, type Secret, writesOutsidePlan } from "./invariants.js";
import {
  type BackendMachine,
  backendMachines,
  cpuTicks,
  ironicAllocations,
  labRequests,
  leftAfterKill,
  nodeWrites,
  parseStream,
  providerChildren,
} from "./observe.js";
import { describeChanges, isBmcRecheck, type PlannedChange, plannedChanges } from "./plan-changes.js";
import { Prng } from "./prng.js";
import { APPLY_BOUND_MS, chaosConfig, trailOf, waiting } from "./run-support.js";
import { backendFaultedBy, buildSchedule, type ChaosEvent, disturbedIn, type Schedule, type Step } from "./schedule.js";

/** What a run is. */
export interface ChaosOptions {
  readonly seed: number;
  readonly nodes: number;
  readonly backend: "maas" | "ironic";
  readonly engine: "terraform" | "tofu";
  readonly profile: string;
  readonly kills: number;
  /** Stop after this step (a replay of a violation found there); the final clear, apply and plan are skipped. */
  readonly untilStep?: number;
  /** Run every engine command with TF_LOG=trace and scan the log for credentials. @default true */
  readonly trace?: boolean;
  /**
   * Health faults between applies on a rack with the remediation ladder (bmc_health, max_unhealthy, max_unavailable),
   * and the ladder's invariants. Off: the rack and schedule of the seeds from before the ladder. @default true
   */
  readonly health?: boolean;
  /** Progress lines. @default none */
  readonly log?: (line: string) => void;
}

/** One broken invariant. */
export interface Violation {
  readonly step: string;
  readonly message: string;
}

/** What a run did. */
export interface ChaosFigures {
  faults: Record<string, number>;
  reboots: number;
  outletCycles: number;
  storms: number;
  kills: number;
  missedKills: number;
  applies: number;
  traceMiB: number;
  wallS: number;
  finalApplyS: number;
  health?: HealthFigures;
}

/** A run's outcome. */
export interface ChaosResult {
  readonly violations: readonly Violation[];
  readonly figures: ChaosFigures;
  readonly schedule: Schedule;
}

const MAIN = join(ROOT, "dist", "main.js");

/** The one-line command that replays a run (up to a step). */
export function replayCommand(o: ChaosOptions, step?: number): string {
  const until = step !== undefined ? ` --until-step ${step}` : "";
  const health = o.health === false ? " --no-health" : "";
  return `npm run chaos -- --seed ${o.seed} --nodes ${o.nodes} --backend ${o.backend} --engine ${o.engine} --profile ${o.profile} --kills ${o.kills}${health}${until}`;
}

/** Runs the schedule for `o` against a fresh lab; every temp file lives under os.tmpdir() (the caller removes it). */
export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const lab = await startLab({
    nodes: o.nodes,
    profile: o.profile,
    stateDir: await mkdtemp(join(tmpdir(), "rf-chaos-lab-")),
  });
  const names = lab.info.nodes.map((n) => n.name);
  const schedule = buildSchedule({
    seed: o.seed,
    nodes: names,
    kills: o.kills,
    backend: o.backend,
    health: o.health !== false,
  });
  const figures: ChaosFigures = {
    faults: {},
    reboots: 0,
    outletCycles: 0,
    storms: 0,
    kills: 0,
    missedKills: 0,
    applies: 0,
    traceMiB: 0,
    wallS: 0,
    finalApplyS: 0,
  };
  const violations: Violation[] = [];
  try {
    if (o.backend === "maas") await uploadGoldenImage(lab);
    const w = await rackStack(findEngine(o.engine), await freshInstall([builtProvider()]), lab, o.backend, names);
    await w.write({ "main.tf": chaosConfig(lab, o.backend, names, o.health !== false) });
    await w.ok(["init", "-no-color"]);
    const ctx = new Run(o, lab, w, schedule, figures, violations, log);
    figures.health = ctx.health.figures;
    await ctx.steps();
    if (o.untilStep === undefined) {
      await ctx.ladderRounds();
      await ctx.finish();
    }
  } finally {
    await lab.close();
  }
  figures.wallS = Math.round((Date.now() - started) / 100) / 10;
  return { violations, figures, schedule };
}

/** The state of one run while it plays its schedule. */
class Run {
  private estimate: number;
  private readonly secrets: Secret[];
  private readonly byResource: Map<string, string>;
  private readonly control: string;
  private readonly extra: Prng;
  private readonly aliases: Map<string, string[]>;
  private carriedStorms: ChaosEvent[] = [];
  readonly health: HealthWatch;

  constructor(
    private readonly o: ChaosOptions,
    private readonly lab: Lab,
    private readonly w: Workdir,
    private readonly schedule: Schedule,
    private readonly figures: ChaosFigures,
    private readonly violations: Violation[],
    private readonly log: (line: string) => void,
  ) {
    this.estimate = 40 * o.nodes;
    this.control = lab.info.control.url;
    this.byResource = new Map(lab.info.nodes.map((n) => [resourceName(n.name), n.name]));
    this.extra = new Prng(o.seed ^ 0x9e3779b9);
    this.health = new HealthWatch(lab, o.backend, schedule, {
      violate: (step, message) => this.violate(step, message),
      log,
    });
    this.aliases = new Map(lab.info.nodes.map((n) => [n.name, [new URL(n.bmc.url).host]]));
    const i = lab.info;
    const key = i.maas?.apiKey ?? "";
    this.secrets = [...new Set([...i.nodes.map((n) => n.bmc.password), ...i.pdus.map((p) => p.password)])].map(
      (value) => ({ name: "a BMC/PDU password", value }),
    );
    this.secrets.push(
      { name: "the MAAS API key", value: key },
      { name: "the MAAS API key's secret", value: key.split(":")[2] ?? "" },
      { name: "the Slurm JWT", value: i.slurm?.token ?? "" },
      { name: "the Kubernetes token", value: i.kubernetes?.token ?? "" },
    );
  }

  private violate(step: string, message: string): void {
    this.violations.push({ step, message });
    this.log(`VIOLATION seed=${this.o.seed} step=${step}: ${message}`);
  }

  /** Plays every step; a kill that did not land (the apply ended first) is carried to one more killed apply. */
  async steps(): Promise<void> {
    const queue: Step[] = [...this.schedule.steps];
    let carried = 0;
    for (let i = 0; i < queue.length; i++) {
      const step = queue[i];
      const landed = await this.apply(step, i);
      if (step.kill !== undefined && !landed) {
        this.figures.missedKills++;
        if (carried++ < this.o.kills)
          queue.splice(i + 1, 0, { index: step.index, kill: this.extra.next(), events: [] });
      }
      if (this.o.untilStep !== undefined && i >= this.o.untilStep) return;
    }
  }

  /**
   * Applies without other events after the schedule (health faults due after it are posted before the first) until
   * every health node has settled — its ladder reset with the fault gone, or held for repair — at most LADDER_ROUNDS.
   */
  async ladderRounds(): Promise<void> {
    if ((this.schedule.health ?? []).length === 0) return;
    const first = this.schedule.steps.length;
    for (let r = 0; r < LADDER_ROUNDS; r++) {
      if (r > 0 && this.health.settled()) break;
      await this.apply({ index: first + r, events: [] }, `ladder-${r}`);
      this.health.figures.rounds++;
    }
    if (!this.health.settled())
      this.violate("ladder", `the health ladders had not settled after ${LADDER_ROUNDS} applies past the schedule`);
  }

  /** Runs one apply of the schedule; true when its kill landed. */
  private async apply(step: Step, n: number | string): Promise<boolean> {
    const label = `${n}`;
    await this.health.before(step.index);
    const markRequests = labRequests(this.lab);
    const markLog = this.lab.requests.last();
    const expected = this.estimate;
    // Storms a killed apply did not reach blow at the start of the re-apply, so every scheduled storm happens.
    const pending: ChaosEvent[] = [...this.carriedStorms.map((e) => ({ ...e, at: 0 })), ...step.events];
    this.carriedStorms = [];
    const injected: string[] = [];
    const timers: NodeJS.Timeout[] = [];
    let enginePid = 0;
    let killedPids: number[] | undefined;
    let done = false;
    const t0 = Date.now();
    const run = this.engineRun(["apply", "-auto-approve", "-no-color", "-json"], `apply-${n}`, (pid) => {
      enginePid = pid;
    });
    void run.finally(() => {
      done = true;
    });
    while (!done) {
      const progress = (labRequests(this.lab) - markRequests) / expected;
      while (pending.length > 0 && pending[0].at <= progress) await this.fire(pending.shift()!, injected, timers);
      if (step.kill !== undefined && killedPids === undefined && step.kill <= progress && enginePid > 0) {
        killedPids = await providerChildren(MAIN, enginePid);
        if (!done) process.kill(enginePid, "SIGKILL");
        else killedPids = undefined;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const r = await run;
    const killed = r.signal === "SIGKILL";
    this.figures.applies++;
    if (killed) this.figures.kills++;
    else this.estimate = Math.max(this.o.nodes * 5, labRequests(this.lab) - markRequests);
    const storm = injected.length > 0;
    for (const e of pending) if (e.type !== "storm") await this.fire(e, injected, timers);
    if (killed) this.carriedStorms = pending.filter((e) => e.type === "storm");
    for (const t of timers) clearTimeout(t);
    if (killed && killedPids) await this.checkProcesses(label, killedPids);
    await this.removeFaults(step, injected);
    const stream = parseStream(r.stdout);
    // RACKFORM_CHAOS_DIAGS=1: each apply's error diagnostics in the run's log, for reading a replay.
    if (process.env.RACKFORM_CHAOS_DIAGS === "1")
      for (const d of stream.diagnostics.filter((x) => x.severity === "error"))
        this.log(
          `  error ${d.address ?? ""} [${stream.trail.get(d.address ?? "")?.join(", ") ?? ""}]: ${d.summary}: ${d.detail.replace(/\s+/g, " ").slice(0, 300)}`,
        );
    if (process.env.RACKFORM_CHAOS_DIAGS === "1") {
      // …and the trail of every resource of a node that had an error.
      const failed = new Set(stream.diagnostics.map((d) => d.address?.split(".")[1]).filter(Boolean));
      for (const [addr, t] of stream.trail)
        if (failed.has(addr.split(".")[1])) this.log(`  trail ${addr}: ${t.join(", ")}`);
    }
    const nodesOf = (addrs: ReadonlySet<string>) =>
      new Set([...addrs].map((a) => this.byResource.get(a.split(".")[1]) ?? "").filter(Boolean));
    for (const v of writesOutsidePlan(nodeWrites(this.lab, markLog), nodesOf(stream.planned))) this.violate(label, v);
    const machines = await this.checkBackend(label);
    await this.checkLeaks(label, r, `apply-${n}`);
    const state = await shownState(this.w).catch(() => undefined);
    this.health.observe(label, step.index, state, stream.diagnostics, machines);
    if (!killed && state) {
      const disturbed = new Set([...disturbedIn(this.schedule, step.index), ...this.health.disturbed()]);
      const errored = nodesOf(stream.errored);
      // A node held for repair is out of service by design: the ladder's checks judge it (health.ts).
      const held = this.health.disturbed();
      const outcomes = this.outcomes(state)
        .map((x) => ({ ...x, errored: errored.has(x.node) }))
        .filter((x) => !(held.has(x.node) && this.health.rung(x.node) === "repair"));
      this.health.converged(outcomes);
      // A failure in the backend names the node's machine by its backend id (MAAS system id, Ironic uuid).
      const aliases = new Map(this.aliases);
      for (const m of machines) aliases.set(m.name, [...(this.aliases.get(m.name) ?? []), m.id]);
      const earlier = backendFaultedBy(this.schedule, step.index);
      for (const v of convergence(outcomes, disturbed, stream.diagnostics, storm, aliases, earlier)) {
        const node = v.split(" ")[0];
        this.violate(label, names(this.lab).has(node) ? `${v} [${trailOf(node, stream.trail, state)}]` : v);
      }
      this.log(
        `step ${n}: apply ran to its end in ${((Date.now() - t0) / 1000).toFixed(1)} s (exit ${r.code}): ` +
          `${outcomes.filter((x) => x.joined && !x.errored).length}/${outcomes.length} converged, ` +
          `${disturbed.size} nodes disturbed`,
      );
    } else {
      this.log(`step ${n}: killed after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    return killed;
  }

  private outcomes(state: readonly ShownResource[]) {
    const joined = new Set(
      state
        .filter((s) => s.type === "rackform_cluster_member" && s.values.joined === true)
        .map((s) => String(s.values.node)),
    );
    return this.lab.info.nodes.map((n) => ({ node: n.name, joined: joined.has(n.name) }));
  }

  /** The engine with TF_LOG=trace into a per-command log (scanned for credentials, then removed). */
  private async engineRun(
    args: string[],
    name: string,
    onSpawn?: (pid: number) => void,
  ): Promise<RunResult & { blocked: boolean }> {
    const env: Record<string, string> =
      this.o.trace === false ? {} : { TF_LOG: "trace", TF_LOG_PATH: join(this.w.dir, `${name}.trace.log`) };
    let pid = 0;
    let blocked = false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const r = await this.w.run(args, {
        env,
        onSpawn: (p) => {
          pid = p;
          liveEngines.add(p);
          onSpawn?.(p);
          timer = setTimeout(() => {
            blocked = true;
            process.kill(p, "SIGKILL");
          }, APPLY_BOUND_MS);
        },
      });
      if (blocked)
        this.violate(
          name,
          `${args[0]} still running ${APPLY_BOUND_MS / 1000} s after it began (killed): ${waiting(r.stdout)}`,
        );
      return { ...r, blocked };
    } finally {
      clearTimeout(timer);
      liveEngines.delete(pid);
    }
  }

  private async post(path: string, body?: unknown): Promise<{ id?: string }> {
    const r = await fetch(`${this.control}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`lab control POST ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as { id?: string };
  }

  private async fire(e: ChaosEvent, injected: string[], timers: NodeJS.Timeout[]): Promise<void> {
    if (e.type === "fault") {
      const { id } = await this.post("/faults", e.fault);
      this.figures.faults[e.fault.kind] = (this.figures.faults[e.fault.kind] ?? 0) + 1;
      faultIds.set(e, id!);
      if (e.releaseAfterMs !== undefined) timers.push(setTimeout(() => void this.deleteFault(id!), e.releaseAfterMs));
    } else if (e.type === "storm") {
      const { id } = await this.post("/faults", {
        kind: "http-status",
        service: e.service,
        status: e.status,
        retryAfterS: e.retryAfterS,
        count: e.count,
      });
      injected.push(id!);
      this.figures.storms++;
    } else if (e.type === "reboot") {
      await this.post(`/nodes/${e.node}/bmc/reset`);
      this.figures.reboots++;
    } else {
      await this.post(`/nodes/${e.node}/outlet`, { state: "PowerCycle" });
      this.figures.outletCycles++;
    }
  }

  private async deleteFault(id: string): Promise<void> {
    await fetch(`${this.control}/faults/${id}`, { method: "DELETE" }).catch(() => undefined);
  }

  /** Storms end with their apply; faults whose `until` is this step are removed. */
  private async removeFaults(step: Step, storms: readonly string[]): Promise<void> {
    for (const id of storms) await this.deleteFault(id);
    for (const st of this.schedule.steps)
      for (const e of st.events)
        if (e.type === "fault" && e.until === step.index && faultIds.has(e)) await this.deleteFault(faultIds.get(e)!);
  }

  /** After a kill: the killed engine's providers exit (by pid) without spinning on the CPU. */
  private async checkProcesses(label: string, pids: readonly number[]): Promise<void> {
    for (const pid of await leftAfterKill(pids)) {
      const a = await cpuTicks(pid);
      await new Promise((r) => setTimeout(r, 1000));
      const b = await cpuTicks(pid);
      if (b === undefined) continue;
      this.violate(label, `provider pid ${pid} left behind 10 s after the kill, using ${b - (a ?? b)}% CPU`);
      process.kill(pid, "SIGKILL");
    }
  }

  /** Never two backend machines for one node. */
  private async checkBackend(label: string): Promise<BackendMachine[]> {
    const machines = await backendMachines(this.lab, this.o.backend);
    for (const v of duplicateMachines(machines)) this.violate(label, v);
    return machines;
  }

  /** No credential in the engine's output, its trace log or its state. */
  private async checkLeaks(label: string, r: RunResult, name: string): Promise<void> {
    const found = [
      ...leaks(r.stdout + r.stderr, "the engine's output", this.secrets),
      ...leaks(await readText(join(this.w.dir, "terraform.tfstate")), "the state", this.secrets),
    ];
    const trace = join(this.w.dir, `${name}.trace.log`);
    const size = await stat(trace).then(
      (s) => s.size,
      () => 0,
    );
    this.figures.traceMiB += size / 2 ** 20;
    if (size > 0) found.push(...leaks(await readText(trace), "the TF_LOG=trace log", this.secrets));
    await rm(trace, { force: true });
    for (const v of new Set(found)) this.violate(label, v);
  }

  /**
   * Clears every fault but those nothing cures on nodes held for repair, applies once (must converge, those nodes
   * held), then plans (must be empty); checks orphans, leaks and how each health node ended.
   */
  async finish(): Promise<void> {
    const kept = this.health.kept();
    const held = this.health.held();
    const cured = this.health.cured();
    for (const f of this.lab.world.faults.list()) if (!kept.has(f.id)) await this.deleteFault(f.id);
    await this.health.before(Number.POSITIVE_INFINITY);
    const t0 = Date.now();
    const markLog = this.lab.requests.last();
    const r = await this.engineRun(["apply", "-auto-approve", "-no-color", "-json"], "final-apply");
    this.figures.applies++;
    this.figures.finalApplyS = Math.round((Date.now() - t0) / 100) / 10;
    const stream = parseStream(r.stdout);
    const nodesOf = new Set([...stream.planned].map((a) => this.byResource.get(a.split(".")[1]) ?? ""));
    for (const v of writesOutsidePlan(nodeWrites(this.lab, markLog), nodesOf)) this.violate("final apply", v);
    await this.checkLeaks("final apply", r, "final-apply");
    const state = await shownState(this.w);
    const final = await backendMachines(this.lab, this.o.backend);
    this.health.observe("final apply", Number.POSITIVE_INFINITY, state, stream.diagnostics, final);
    await this.health.end("final", state, final, kept, cured);
    const behind = this.outcomes(state).filter((x) => !x.joined && !held.has(x.node));
    if (r.code !== 0 || behind.length > 0) {
      const errs = stream.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary);
      this.violate(
        "final apply",
        `after clearing faults one apply did not converge (exit ${r.code}; not joined: ${behind.map((x) => x.node).join(", ") || "none"}; first error: ${errs[0] ?? "none"})`,
      );
    }
    this.log(`final apply: exit ${r.code} in ${this.figures.finalApplyS} s`);
    const plan = await this.engineRun(["plan", "-detailed-exitcode", "-no-color", "-out=final.tfplan"], "final-plan");
    await this.checkLeaks("final plan", plan, "final-plan");
    const shown = await this.w.run(["show", "-json", "-no-color", "final.tfplan"]);
    // A node held for repair keeps its fault; where that fault leaves its inventory short of expected (a GPU off the
    // bus), its rackform_bmc plans a re-check on every plan: drift stays visible until the node conforms.
    const changes = plannedChanges(shown.stdout);
    const heldRecheck = (c: PlannedChange) =>
      isBmcRecheck(c) && held.has(this.byResource.get(c.address.split(".")[1]) ?? "");
    const unexpected = changes?.filter((c) => !heldRecheck(c));
    if (plan.code !== 0 && (unexpected === undefined || unexpected.length > 0))
      this.violate(
        "final plan",
        `the plan after the converging apply is not empty (exit ${plan.code}): ${unexpected ? describeChanges(unexpected) : "show -json unreadable"}`,
      );
    for (const v of leaks(shown.stdout, "the plan JSON", this.secrets)) this.violate("final plan", v);
    const machines = await backendMachines(this.lab, this.o.backend);
    for (const v of duplicateMachines(machines)) this.violate("final", v);
    const tracked = (type: string) =>
      new Set(state.filter((s) => s.type === type).map((s) => String(s.values.id).split(":")[1]));
    const allocations = this.o.backend === "ironic" ? await ironicAllocations(this.lab) : 0;
    const orphaned = orphans(
      machines,
      { machines: tracked("rackform_machine"), deployments: tracked("rackform_deployment") },
      allocations,
    );
    for (const v of orphaned) this.violate("final", v);
    // A drain under a limit reserves its node in the scheduler: no lease overlong, none left behind by kills.
    const transitions = this.lab.backends!.slurm.hooks.transitions();
    for (const v of overlongLeases(transitions, LEASE_MS)) this.violate("final", v);
    for (const v of leftReservations(transitions, names(this.lab))) this.violate("final", v);
  }
}

/** Engine processes running now (a harness stopped by a signal kills them, so nothing outlives it). */
export const liveEngines = new Set<number>();

/** Applies past the schedule for the health ladders to settle, at most (one step each, a few held back by the budget). */
const LADDER_ROUNDS = 8;

const names = (lab: Lab) => new Set(lab.info.nodes.map((n) => n.name));

/** Lab fault ids of the schedule's fault events, once injected. */
const faultIds = new WeakMap<ChaosEvent, string>();

async function readText(path: string): Promise<string> {
  return readFile(path, "utf8").catch(() => "");
}
