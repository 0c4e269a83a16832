/**
 * The chaos schedule: a pure function of (seed, nodes, kills, backend). It lists the applies of a run and, per apply,
 * what happens during it — lab faults on ~10% of the nodes, BMC reboots, outlet power cycles, backend 503/429 storms
 * and the moment the engine is SIGKILLed. A moment is a fraction of the lab requests the apply is expected to make
 * (the runner counts them), so it follows the apply's progress rather than the wall clock.
 */
import { Prng } from "./prng.js";

/** Every fault kind the lab has (src/lab/world/faults.ts), node-scoped. */
export const FAULT_KINDS = [
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

/** A fault kind the schedule injects. */
export type FaultKind = (typeof FAULT_KINDS)[number];

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
}

/** What a schedule is built from. */
export interface ScheduleInput {
  readonly seed: number;
  readonly nodes: readonly string[];
  readonly kills: number;
  readonly backend: "maas" | "ironic";
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
  const deck = rng.sample(FAULT_KINDS, FAULT_KINDS.length);
  slots.forEach((node, i) => {
    const kind = i < deck.length ? deck[i] : rng.pick(FAULT_KINDS);
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
  return {
    seed: input.seed,
    steps: shapes.map((killed, index) => ({
      index,
      kill: killed ? rng.next() : undefined,
      events: [...events[index]].sort((a, b) => a.at - b.at),
    })),
  };
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
