/**
 * One refresh of the watch: every stack read through the engine, each node's stage from its state (refined by the
 * backends' own status), counted per rack, with the failures and their evidence and an ETA per rack.
 */
import { STAGE_LABEL, STAGES, type Stage, stageFromState } from "../stages.js";
import { nodeStage } from "../stages-live.js";
import { EtaTracker } from "./eta.js";
import type { LiveView } from "./live.js";
import { stackNodes } from "./nodes.js";
import type { StackRead } from "./sources.js";

/** One node as the watch shows it. */
export interface WatchNode {
  readonly name: string;
  readonly slot?: string;
  readonly stage: Stage;
  /** Why a node failed, is quarantined or draining: the backend's message, the gate's failures. */
  readonly detail?: string;
  /** The backend's own status word ("Deploying", "clean wait"), when it was read. */
  readonly backendStatus?: string;
}

/** One rack (a stack) as the watch shows it. */
export interface WatchRack {
  readonly label: string;
  readonly nodes: readonly WatchNode[];
  readonly counts: Readonly<Partial<Record<Stage, number>>>;
  /** Milliseconds left, 0 when every node is settled, absent while unknown. */
  readonly etaMs?: number;
  /** Why this refresh could not read the stack (its last nodes are kept). */
  readonly error?: string;
}

/** What one refresh found. */
export interface WatchSnapshot {
  readonly time: string;
  readonly racks: readonly WatchRack[];
  readonly failures: readonly {
    readonly rack: string;
    readonly node: string;
    readonly stage: Stage;
    readonly detail: string;
  }[];
  /** Live reads that failed this refresh (which backend and why; never a secret). */
  readonly liveErrors: readonly string[];
}

/** Builds snapshots refresh after refresh, learning stage durations for the ETA as it goes. */
export class WatchModel {
  private readonly eta = new EtaTracker();
  private readonly lastNodes = new Map<string, readonly WatchNode[]>();

  /** The snapshot of one refresh: per stack its read (or the error that stopped it), and the live view. */
  update(
    reads: readonly { readonly label: string; readonly read?: StackRead; readonly error?: string }[],
    live: LiveView | undefined,
    nowMs: number,
  ): WatchSnapshot {
    const racks: WatchRack[] = [];
    for (const r of reads) {
      const nodes = r.read ? this.nodesOf(r.read, live) : (this.lastNodes.get(r.label) ?? []);
      if (r.read) this.lastNodes.set(r.label, nodes);
      const key = (n: WatchNode) => `${r.label}/${n.name}`;
      for (const n of nodes) this.eta.observe(key(n), n.stage, nowMs);
      const counts: Partial<Record<Stage, number>> = {};
      for (const n of nodes) counts[n.stage] = (counts[n.stage] ?? 0) + 1;
      const etaMs = nodes.length > 0 ? this.eta.remainingMs(nodes.map(key), nowMs) : undefined;
      racks.push({
        label: r.label,
        nodes,
        counts,
        ...(etaMs !== undefined ? { etaMs } : {}),
        ...(r.error ? { error: r.error } : {}),
      });
    }
    const failures = racks.flatMap((rack) =>
      rack.nodes
        .filter((n) => n.stage === "failed" || n.stage === "quarantined" || n.stage === "unhealthy")
        .map((n) => ({ rack: rack.label, node: n.name, stage: n.stage, detail: n.detail ?? "" })),
    );
    return { time: new Date(nowMs).toISOString(), racks, failures, liveErrors: live?.errors ?? [] };
  }

  private nodesOf(read: StackRead, live: LiveView | undefined): WatchNode[] {
    return stackNodes(read).map((n) => {
      const recorded = stageFromState(n.chain, { attests: n.attests });
      const reading = live?.byName.get(n.name);
      const schedulerName = n.chain.member?.values.node;
      const onScheduler = live?.scheduler?.get(typeof schedulerName === "string" ? schedulerName : n.name);
      const now = nodeStage(recorded, reading, onScheduler);
      return {
        name: n.name,
        ...(n.slot ? { slot: n.slot } : {}),
        stage: now.stage,
        ...(now.detail ? { detail: now.detail } : {}),
        ...(reading?.status ? { backendStatus: reading.status } : {}),
      };
    });
  }
}

/** Counts of a rack in STAGES order, leaving out empty stages: "2 deploying · 6 joined". */
export function countsText(counts: Readonly<Partial<Record<Stage, number>>>): string {
  return STAGES.filter((s) => (counts[s] ?? 0) > 0)
    .map((s) => `${counts[s]} ${STAGE_LABEL[s]}`)
    .join(" · ");
}
