/**
 * Where each node stands before the plan runs, in the stage words `rackform watch` shows live (`../stages.ts`): read
 * from the state the plan started from (each change's `before`, and whether the engine tainted it).
 */
import { type ChainLink, LINK_TYPE, type RecordedResource, type Stage, stageFromState } from "../stages.js";
import type { PlanNode } from "./nodes.js";

const LINKS = Object.entries(LINK_TYPE) as [ChainLink, string][];

/** A node's chain as the state before the plan holds it (each change's `before`), by link. */
export function recordedChain(node: PlanNode): Partial<Record<ChainLink, RecordedResource>> {
  const chain: Partial<Record<ChainLink, RecordedResource>> = {};
  for (const [link, type] of LINKS) {
    const c = node.changes.get(type as never)?.[0];
    const before = c?.change.before;
    if (!c || typeof before !== "object" || before === null) continue;
    chain[link] = {
      values: before as Record<string, unknown>,
      tainted: c.action_reason === "replace_because_tainted",
    };
  }
  return chain;
}

/** The stage state records for a node of a plan (`off` when nothing of its chain exists yet). */
export function stageBefore(node: PlanNode): Stage {
  return stageFromState(recordedChain(node)).stage;
}
