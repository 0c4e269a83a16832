/**
 * The chaos schedule: a pure function of (seed, nodes, kills, backend). It lists the applies of a run and, per apply,
 * what happens during it — lab faults on ~10% of the nodes, BMC reboots, outlet power cycles, backend 503/429 storms
 * and the moment the engine is SIGKILLed. A moment is a fraction of the lab requests the apply is expected to make
 * (the runner counts them), so it follows the apply's progress rather than the wall clock.
 */
import { Prng } from "./prng.js";

/** The lab's node-scoped fault kinds dealt during applies (src/lab/world/faults.ts). */
export const NODE_FAULT_KINDS = [
  "bmc-unreachable",
  "http-status",
  "latency",
  "connection-reset",
  "hang",
  "missing-gpu",
  "firmware-drift",
  "update-failure",
  "gpu-health",
  "commission-failure",
  "deploy-failure",
  "marginal-nccl",
  "erase-failure",
  "xid-error",
] as const;

/**
 * The lab's health faults (src/lab/world/health-faults.ts): hardware going bad under a converged node, injected
 * between applies so a scheduled plan finds them and the remediation ladder walks them, one step per apply.
 */
export const HEALTH_KINDS = ["gpu-xid", "memory-ecc", "pcie-degraded", "nvlink-down", "thermal"] as const;

/** Health kinds every vendor's BMC reports Critical (Status or log), so the ladder always starts on them. */
export const LADDER_KINDS = ["gpu-xid", "memory-ecc", "thermal"] as const;

/** Every fault kind the schedule injects. */
export const FAULT_KINDS = [...NODE_FAULT_KINDS, ...HEALTH_KINDS] as const;

/** A fault kind the schedule injects. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What clears a health fault in the lab: a power cycle, a reimage, or nothing (a person's repair). */
export const CURES = ["power-cycle", "reimage", "none"] as const;
export type Cure = (typeof CURES)[number];

/** What the runner posts to the lab's `POST /faults` (node-scoped). */
export interface FaultBody {
  readonly kind: FaultKind;
  readonly node: string;
  readonly status?: number;
  readonly retryAfterS?: number;
  readonly ms?: number;
  readonly count?: number;
  readonly gpus?: number;
  readonly component?: string;
  readonly version?: string;
  readonly value?: number;
  readonly xid?: number;
  readonly gpu?: number;
  readonly dimm?: number;
  readonly device?: number;
  readonly cure?: Cure;
}

/** A health fault posted before the apply of step `step` begins (`step` = the schedule's length: before the rounds after it). */
export interface HealthEvent {
  readonly step: number;
  readonly fault: FaultBody & { readonly cure: Cure };
}

/** One thing that happens during an apply, at `at` (a fraction of the apply's expected lab requests). */
export type ChaosEvent =
  | {
      readonly at: number;
      readonly type: "fault";
      readonly fault: FaultBody;
      /** Removed after this step; undefined = kept until the final clear. */
      readonly until?: number;
      /** Removed this many real ms after it is injected (hangs: the held request is then dropped). */
      readonly releaseAfterMs?: number;
    }
  | { readonly at: number; readonly type: "reboot" | "outlet-cycle"; readonly node: string }
  | {
      readonly at: number;
      readonly type: "storm";
      readonly service: "maas" | "ironic";
      readonly status: 503 | 429;
      readonly retryAfterS: number;
      readonly count: number;
    };

/** One apply of the run. */
export interface Step {
  readonly index: number;
  /** When the engine is SIGKILLed (fraction of expected requests); undefined = the apply runs to its end. */
  readonly kill?: number;
  readonly events: readonly ChaosEvent[];
}

/** A run's whole schedule (before the final clear, converge and plan). */
export interface Schedule {
  readonly seed: number;
  readonly steps: readonly Step[];
  /** Health faults, on nodes no other event touches. @default none */
  readonly health?: readonly HealthEvent[];
}

/** What a schedule is built from. */
export interface ScheduleInput {
  readonly seed: number;
  readonly nodes: readonly string[];
  readonly kills: number;
  readonly backend: "maas" | "ironic";
  /** Deal health faults (their own stream of the seed: the other events stay as they are). @default true */
  readonly health?: boolean;
}

/** The node an event concerns (storms concern every node). */
export function eventNode(e: ChaosEvent): string | undefined {
  if (e.type === "fault") return e.fault.node;
  if (e.type === "storm") return undefined;
  return e.node;
}

/** Applies in groups of up to 4 killed ones, each group followed by one that runs to its end (at least one). */
function stepShapes(kills: number): boolean[] {
  const group = Math.max(1, Math.min(4, Math.ceil(kills / 2)));
  const shapes: boolean[] = [];
  for (let k = 0; k < kills; k++) {
    shapes.push(true);
    if ((k + 1) % group === 0) shapes.push(false);
  }
  if (shapes.length === 0 || shapes[shapes.length - 1]) shapes.push(false);
  return shapes;
}

function faultBody(rng: Prng, kind: FaultKind, node: string): FaultBody {
  switch (kind) {
    case "http-status":
      return { kind, node, status: rng.pick([503, 429]), retryAfterS: rng.int(0, 1), count: rng.int(1, 4) };
    case "latency":
      return { kind, node, ms: rng.int(100, 800), count: rng.int(3, 10) };
    case "connection-reset":
      return { kind, node, count: rng.int(1, 3) };
    case "hang":
      return { kind, node, count: 1 };
    case "missing-gpu":
      return { kind, node, gpus: rng.int(1, 2) };
    case "firmware-drift":
      return { kind, node, component: rng.pick(["bios", "bmc", "gpu", "nic"]), version: "0.0.1-chaos" };
    case "marginal-nccl":
      return { kind, node, value: rng.int(250, 360) };
    case "xid-error":
      return { kind, node, value: rng.pick([48, 79, 94]) };
    default:
      return { kind, node };
  }
}

/** Builds the schedule; the same input always gives the same schedule. */
export function buildSchedule(input: ScheduleInput): Schedule {
  const rng = new Prng(input.seed);
  const shapes = stepShapes(input.kills);
  const events: ChaosEvent[][] = shapes.map(() => []);
  const last = shapes.length - 1;
  const step = () => rng.int(0, last);
  const n = input.nodes.length;

  // ~10% of the nodes get one or two faults; the kinds are dealt from a shuffled deck so a run with enough slots
  // injects every kind at least once.
  const faulty = rng.sample(input.nodes, Math.max(1, Math.round(n * 0.1)));
  const slots = faulty.flatMap((node) => (rng.chance(0.5) ? [node, node] : [node]));
  const deck = rng.sample(NODE_FAULT_KINDS, NODE_FAULT_KINDS.length);
  slots.forEach((node, i) => {
    const kind = i < deck.length ? deck[i] : rng.pick(NODE_FAULT_KINDS);
    const s = step();
    const until = kind === "hang" ? s : rng.chance(0.5) ? Math.min(last, s + rng.int(0, 2)) : undefined;
    const releaseAfterMs = kind === "hang" ? rng.int(500, 3000) : undefined;
    events[s].push({ at: rng.next(), type: "fault", fault: faultBody(rng, kind, node), until, releaseAfterMs });
  });
  for (const node of rng.sample(input.nodes, Math.max(1, Math.round(n * 0.05)))) {
    events[step()].push({ at: rng.next(), type: "reboot", node });
  }
  for (const node of rng.sample(input.nodes, Math.max(1, Math.round(n * 0.03)))) {
    events[step()].push({ at: rng.next(), type: "outlet-cycle", node });
  }
  for (let i = 0; i < Math.max(1, Math.round(shapes.length / 4)); i++) {
    events[step()].push({
      at: rng.next(),
      type: "storm",
      service: input.backend,
      status: rng.chance(0.8) ? 503 : 429,
      retryAfterS: rng.int(0, 1),
      count: rng.int(3, 15),
    });
  }
  const steps = shapes.map((killed, index) => ({
    index,
    kill: killed ? rng.next() : undefined,
    events: [...events[index]].sort((a, b) => a.at - b.at),
  }));
  return { seed: input.seed, steps, health: input.health === false ? [] : healthEvents(input, steps) };
}

/**
 * The health faults of a run, from their own stream (the other events of a seed stay as they were): on ~6% of the
 * nodes (at least 3, never a majority), only nodes no other event touches, the first three cured by a power cycle, a
 * reimage and nothing, each of a kind every BMC calls Critical; the rest of any kind and cure. All are posted before
 * one apply after the first that runs to its end (the rack has converged), early enough for the ladder to walk during
 * the schedule's kills and storms.
 */
function healthEvents(input: ScheduleInput, steps: readonly Step[]): HealthEvent[] {
  const rng = new Prng(input.seed ^ 0x4845414c);
  const touched = new Set(steps.flatMap((st) => st.events.map(eventNode)));
  const free = input.nodes.filter((n) => !touched.has(n));
  const count = Math.min(
    free.length,
    Math.floor((input.nodes.length - 1) / 2),
    Math.max(3, Math.round(input.nodes.length * 0.06)),
  );
  const firstFull = steps.findIndex((st) => st.kill === undefined);
  const from = firstFull + 1;
  const step =
    from >= steps.length ? steps.length : rng.int(from, Math.max(from, Math.floor((from + steps.length - 1) / 2)));
  const cures = rng.sample(CURES, CURES.length);
  return rng.sample(free, count).map((node, i) => {
    const cure = i < cures.length ? cures[i] : rng.pick(CURES);
    const kinds = i < cures.length ? LADDER_KINDS : HEALTH_KINDS;
    // A thermal trip shows in no component's Status, only in the log: one a reimage cures would be logged again at
    // the reimage's boot and never read as recovered (reported in docs/reliability.md), so it is cured otherwise.
    const kind = rng.pick(cure === "reimage" ? kinds.filter((k) => k !== "thermal") : kinds);
    return { step, fault: { ...healthBody(rng, kind, node), cure } };
  });
}

function healthBody(rng: Prng, kind: (typeof HEALTH_KINDS)[number], node: string): FaultBody {
  switch (kind) {
    case "gpu-xid":
      // XIDs that leave the GPU Critical or off the bus: the ladder's findings on every vendor.
      return { kind, node, xid: rng.pick([48, 63, 79]), gpu: rng.int(0, 7) };
    case "memory-ecc":
      return { kind, node, dimm: rng.int(0, 3) };
    case "pcie-degraded":
      return { kind, node, device: rng.int(0, 7) };
    case "nvlink-down":
      return { kind, node, gpu: rng.int(0, 7) };
    default:
      return { kind, node };
  }
}

/** Faults that fail a backend operation (MAAS commissioning, an Ironic inspection, a deploy, an erase). */
const BACKEND_OPERATION_FAULTS: ReadonlySet<string> = new Set([
  "commission-failure",
  "deploy-failure",
  "erase-failure",
]);

/**
 * Nodes a backend-operation fault was dealt to at or before step `s`, removed since or not: the backend carries an
 * operation on alone when the apply that started it is killed, so the failure the fault caused can be what a later
 * apply finds and reports (a machine waiting for manageable finds it inspect failed), after the fault was removed.
 */
export function backendFaultedBy(schedule: Schedule, s: number): Set<string> {
  const out = new Set<string>();
  for (const st of schedule.steps)
    for (const e of st.events)
      if (e.type === "fault" && st.index <= s && BACKEND_OPERATION_FAULTS.has(e.fault.kind)) out.add(e.fault.node);
  return out;
}

/** Nodes disturbed during step `s`: a fault active in it, or a reboot or outlet cycle in it. */
export function disturbedIn(schedule: Schedule, s: number): Set<string> {
  const out = new Set<string>();
  for (const st of schedule.steps)
    for (const e of st.events) {
      if (e.type === "fault") {
        if (st.index <= s && (e.until === undefined || e.until >= s)) out.add(e.fault.node);
      } else if (e.type !== "storm" && st.index === s) out.add(e.node);
    }
  return out;
}
