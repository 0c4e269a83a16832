/** Plan review: `show -json` plans in, a per-rack model out, Markdown for a pull request out. */
export {
  PLAN_SUMMARY,
  PLAN_SUMMARY_FLAGS,
  type PlanArg,
  type PlanSummaryIo,
  parseArgs,
  parsePlanArg,
  planSummary,
} from "./command.js";
export { type DriftNode, driftByNode } from "./drift.js";
export { type Column, DISRUPTIVE, type NodeEffects, type NodeEvent, nodeEffects } from "./effects.js";
export { banner, escapeCell, renderMarkdown, rolloutLine, SUMMARY_HEADING } from "./markdown.js";
export { type PlanInput, type PlanStatus, type PlanSummary, type RackSummary, summarise } from "./model.js";
export { CHAIN_TYPES, type ChainType, type PlanNode, planNodes } from "./nodes.js";
export { type PlanJson, PlanJsonError, parsePlanJson, type ResourceChange } from "./plan-json.js";
export { type OutBy, type Rollout, rollouts } from "./rollout.js";
export { attr, display, SENSITIVE, type Shown, UNKNOWN } from "./values.js";
