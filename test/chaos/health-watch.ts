/**
 * The health side of a chaos run (issue 30): posts the schedule's health faults between applies, reads after every
 * apply what the ladder did — the rungs in state, the backend's power cycles, reimages and gate runs, the lab's
 * faults, slurmctld's transitions — checks the ladder's invariants (health.ts) and the budget (budget.ts), and at the
 * end checks that cured nodes returned and nodes nothing cures are held for repair.
 */
import type { Lab } from "../../src/lab/index.js";
import { type ShownResource, slurmNodes } from "../support/rack.js";
import { budgetOverruns } from "./budget.js";
import {
  type HealthEnd,
  healthEnd,
  healthSteps,
  healthyRemediated,
  LadderTrack,
  type NodeRungs,
  unhealthyOverrun,
} from "./health.js";
import {
  type BackendMachine,
  type BackendMarks,
  backendActions,
  backendMarks,
  type Diagnostic,
  type NodeAction,
} from "./observe.js";
import { type HealthEvent, LADDER_KINDS, type Schedule } from "./schedule.js";

/** The health policy a chaos rack carries: the rollout budget and max_unhealthy, from the rack's size. */
export function healthPolicy(nodes: number): { readonly maxUnavailable: number; readonly maxUnhealthy: number } {
  return { maxUnavailable: Math.max(3, Math.round(nodes / 8)), maxUnhealthy: Math.max(2, Math.floor(nodes / 16)) };
}

/** What a health watch reports into. */
export interface HealthSink {
  violate(step: string, message: string): void;
  log(line: string): void;
}

/** Figures of the ladder in a run. */
export interface HealthFigures {
  healthFaults: number;
  laddered: number;
  powerCycles: number;
  reimages: number;
  heldForRepair: number;
  mostStepsInOneApply: number;
  rounds: number;
}

const REMEDIATION_OF = {
  rackform_deployment: "deployment",
  rackform_acceptance: "gate",
  rackform_cluster_member: "member",
};

/** The watch over one run's health faults and ladder. */
export class HealthWatch {
  readonly figures: HealthFigures = {
    healthFaults: 0,
    laddered: 0,
    powerCycles: 0,
    reimages: 0,
    heldForRepair: 0,
    mostStepsInOneApply: 0,
    rounds: 0,
  };
  private readonly events: readonly HealthEvent[];
  private readonly ids = new Map<string, string>();
  private readonly injected = new Set<HealthEvent>();
  private readonly ladder = new LadderTrack();
  private readonly laddered = new Set<string>();
  private readonly policy: ReturnType<typeof healthPolicy>;
  private rungs = new Map<string, string>();
  private marks: BackendMarks = { maas: 0, ironic: 0 };
  private slurmMark = 0;
  private ready = false;

  constructor(
    private readonly lab: Lab,
    private readonly backend: "maas" | "ironic",
    private readonly schedule: Schedule,
    private readonly sink: HealthSink,
  ) {
    this.events = schedule.health ?? [];
    this.policy = healthPolicy(lab.info.nodes.length);
  }

  /**
   * Posts the health faults due by the apply of `step` (each once) — on a converged rack only: while one of their
   * nodes has not joined after an apply that ran to its end, they wait for the next apply — then marks the logs.
   */
  async before(step: number): Promise<void> {
    for (const e of this.events) {
      if (e.step > step || this.injected.has(e) || !this.ready) continue;
      this.injected.add(e);
      const r = await fetch(`${this.lab.info.control.url}/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(e.fault),
      });
      if (r.status >= 300) throw new Error(`lab control POST /faults: ${r.status} ${await r.text()}`);
      this.ids.set(e.fault.node, ((await r.json()) as { id: string }).id);
      this.figures.healthFaults++;
      this.sink.log(`health fault ${e.fault.kind} (cure ${e.fault.cure}) on ${e.fault.node}`);
    }
    this.marks = backendMarks(this.lab);
    this.slurmMark = this.transitions().length;
  }

  /** After an apply that ran to its end: whether every node a health fault will hit is joined and did not fail. */
  converged(
    outcomes: readonly { readonly node: string; readonly joined: boolean; readonly errored?: boolean }[],
  ): void {
    if (this.ready) return;
    const targets = new Set(this.events.map((e) => e.fault.node));
    this.ready = outcomes.filter((o) => targets.has(o.node)).every((o) => o.joined && !o.errored);
  }

  /** Whether every health fault of the schedule has been posted. */
  get allInjected(): boolean {
    return this.injected.size === this.events.length;
  }

  private transitions() {
    return this.lab.backends!.slurm.hooks.transitions();
  }

  /** Nodes the lab still holds a health fault on. */
  private active(): Set<string> {
    const live = new Set(this.lab.world.faults.list().map((f) => f.id));
    return new Set([...this.ids].filter(([, id]) => live.has(id)).map(([node]) => node));
  }

  /** Nodes a convergence check excuses: a health fault still held, or held for repair. */
  disturbed(): Set<string> {
    const out = this.active();
    for (const [node, rung] of this.rungs) if (rung === "repair") out.add(node);
    return out;
  }

  /** The rung a node's deployment recorded at the last observation. */
  rung(node: string): string {
    return this.rungs.get(node) ?? "";
  }

  /** Nodes whose BMC may show a health finding so far: posted health faults, and the lab's gpu-health faults. */
  private eligible(step: number): Set<string> {
    const out = new Set([...this.injected].map((e) => e.fault.node));
    for (const st of this.schedule.steps)
      for (const e of st.events)
        if (st.index <= step && e.type === "fault" && e.fault.kind === "gpu-health") out.add(e.fault.node);
    return out;
  }

  /** The checks after one apply (killed or not), from state (undefined when it could not be read) and its stream. */
  observe(
    label: string,
    step: number,
    state: readonly ShownResource[] | undefined,
    diagnostics: readonly Diagnostic[],
    machines: readonly BackendMachine[],
  ): void {
    const actions = backendActions(this.lab, this.backend, this.marks, machines);
    const quarantined = new Map(machines.flatMap((m) => (m.quarantined ? [[m.name, m.quarantined] as const] : [])));
    const heldBack = diagnostics
      .filter((d) => d.severity === "warning" && d.summary.startsWith("Remediation held back by max_unhealthy: "))
      .map((d) => d.summary.split(": ").pop() ?? "");
    const byNode = state ? rungsIn(state) : new Map<string, NodeRungs>();
    for (const v of healthyRemediated({
      eligible: this.eligible(step),
      rungs: byNode,
      actions,
      quarantined,
      heldBack,
    }))
      this.sink.violate(label, v);
    const watch = { max: this.policy.maxUnavailable, nodes: new Set(this.lab.info.nodes.map((n) => n.name)) };
    for (const v of budgetOverruns(this.transitions(), { ...watch, sinceSeq: this.seqAt(this.slurmMark) }))
      this.sink.violate(label, v);
    this.figures.powerCycles += actions.filter((a) => a.action === "power-cycle").length;
    if (!state) return;
    const after = new Map([...byNode].map(([n, r]) => [n, r.deployment]));
    const steps = healthSteps(actions, this.rungs, after, quarantined, heldBack);
    this.figures.mostStepsInOneApply = Math.max(this.figures.mostStepsInOneApply, steps.length);
    for (const v of unhealthyOverrun(steps, this.policy.maxUnhealthy)) this.sink.violate(label, v);
    this.ladderChecks(label, after, actions, diagnostics);
    this.rungs = after;
  }

  private ladderChecks(
    label: string,
    after: ReadonlyMap<string, string>,
    actions: readonly NodeAction[],
    diagnostics: readonly Diagnostic[],
  ): void {
    const active = this.active();
    for (const e of this.injected) {
      const node = e.fault.node;
      const rung = after.get(node) ?? "";
      if (rung !== "") this.laddered.add(node);
      const mine = actions.filter((a) => a.node === node).map((a) => a.action);
      if (rung.startsWith("reimage")) this.figures.reimages += mine.filter((a) => a === "reimage").length;
      if (rung !== "" || mine.length > 0 || (this.rungs.get(node) ?? "") !== "")
        this.sink.log(
          `  ladder ${node}: ${rung || '""'}, fault ${active.has(node) ? "held" : "gone"}, actions: ${mine.join(", ") || "none"}`,
        );
      for (const v of this.ladder.observe(node, { rung, actions: mine, faultActive: active.has(node) }))
        this.sink.violate(
          label,
          `${v} [seed ${this.schedule.seed}; actions this apply: ${mine.join(", ") || "none"}; ` +
            `diagnostics naming it: ${namedIn(node, diagnostics) || "none"}]`,
        );
    }
  }

  /** The seq of the slurm transition at index `i` (the log's position when the apply began). */
  private seqAt(i: number): number {
    const log = this.transitions();
    return i < log.length ? log[i].seq : (log.at(-1)?.seq ?? 0) + 1;
  }

  /** Every health node has settled: its ladder reset with its fault gone, held for repair, or never started. */
  settled(): boolean {
    if (!this.allInjected) return false;
    const active = this.active();
    return [...this.injected].every((e) => {
      const rung = this.rungs.get(e.fault.node) ?? "";
      return rung === "repair" || (rung === "" && (!active.has(e.fault.node) || !this.laddered.has(e.fault.node)));
    });
  }

  /** Lab fault ids the final clear keeps: the faults nothing cures on nodes held for repair. */
  kept(): Set<string> {
    const active = this.active();
    return new Set(
      [...this.injected]
        .filter((e) => e.fault.cure === "none" && active.has(e.fault.node) && this.rungs.get(e.fault.node) === "repair")
        .map((e) => this.ids.get(e.fault.node)!),
    );
  }

  /** Nodes held for repair on purpose (the final apply need not join them). */
  held(): Set<string> {
    const kept = this.kept();
    return new Set([...this.ids].filter(([, id]) => kept.has(id)).map(([n]) => n));
  }

  /** After the final apply: cured nodes joined, nodes nothing cures held for repair, the others joined. */
  async end(
    label: string,
    state: readonly ShownResource[],
    machines: readonly BackendMachine[],
    kept: Set<string>,
    curedBefore: Set<string>,
  ): Promise<void> {
    const rungs = rungsIn(state);
    const joined = new Set(
      state
        .filter((s) => s.type === "rackform_cluster_member" && s.values.joined === true)
        .map((s) => String(s.values.node)),
    );
    const slurm = await slurmNodes(this.lab);
    const ends: HealthEnd[] = [...this.injected].map((e) => {
      const node = e.fault.node;
      return {
        node,
        kind: e.fault.kind,
        cure: e.fault.cure,
        laddered: this.laddered.has(node),
        cured: curedBefore.has(node),
        kept: kept.has(this.ids.get(node) ?? ""),
        rung: rungs.get(node)?.deployment ?? "",
        joined: joined.has(node),
        quarantined: machines.find((m) => m.name === node)?.quarantined,
        scheduler: slurm.get(node),
      };
    });
    for (const v of healthEnd(ends, LADDER_KINDS)) this.sink.violate(label, `${v} [seed ${this.schedule.seed}]`);
    this.figures.laddered = this.laddered.size;
    this.figures.heldForRepair = ends.filter((e) => e.kept && e.rung === "repair").length;
  }

  /** Health nodes whose fault the lab no longer holds (cured), now. */
  cured(): Set<string> {
    const active = this.active();
    return new Set([...this.injected].map((e) => e.fault.node).filter((n) => !active.has(n)));
  }
}

/** The diagnostics of an apply that name `node` (severity and summary), for a violation's evidence. */
function namedIn(node: string, diagnostics: readonly Diagnostic[]): string {
  const rn = node.replaceAll("-", "_");
  return diagnostics
    .filter((d) => `${d.summary} ${d.detail}`.includes(node) || (d.address ?? "").split(".").includes(rn))
    .map((d) => `${d.severity}: ${d.summary}`)
    .slice(0, 4)
    .join(" | ");
}

/** The remediation values of each node's deployment, gate and member in state (by the member's node name). */
function rungsIn(state: readonly ShownResource[]): Map<string, NodeRungs> {
  const byName = new Map<string, Record<string, string>>();
  const nodeOf = new Map<string, string>();
  for (const s of state) if (s.type === "rackform_cluster_member") nodeOf.set(s.name, String(s.values.node));
  for (const s of state) {
    const key = REMEDIATION_OF[s.type as keyof typeof REMEDIATION_OF];
    if (!key) continue;
    const node = nodeOf.get(s.name) ?? s.name.replaceAll("_", "-");
    const v = s.values.remediation;
    byName.set(node, { ...(byName.get(node) ?? {}), [key]: typeof v === "string" ? v : "" });
  }
  return new Map(
    [...byName].map(([n, r]) => [n, { deployment: r.deployment ?? "", gate: r.gate ?? "", member: r.member ?? "" }]),
  );
}
