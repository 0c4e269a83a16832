/** The two ways a drain's wait for the disruption budget ends without a slot (disruption-budget.ts). */
import type { Diagnostics } from "../../framework/index.js";
import type { Blocker } from "./budget-shared.js";

/** A failed step's evidence for the budget: its first error, summary and the detail's first line. */
export function evidenceOf(diags: Diagnostics): string {
  const e = diags.items.find((d) => d.severity === "error");
  if (!e) return "no detail";
  const first = (e.detail ?? "").split("\n")[0].trim();
  const text = first ? `${e.summary} — ${first}` : e.summary;
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

/** The waiting drains gave up: the engine's parallelism is exhausted by drains waiting for the budget. */
export class BudgetDeadlockError extends Error {
  override readonly name = "BudgetDeadlockError";
  constructor(
    readonly node: string,
    /** Nodes holding slots (being recycled) when the guard fired. */
    readonly holders: readonly string[],
  ) {
    super(
      `every operation the engine runs in parallel is a drain waiting for the disruption budget, so the nodes ` +
        `being recycled (${holders.join(", ")}) cannot take their next step`,
    );
  }
}

/** The rollout halted: the budget is used up by nodes that nothing in progress will bring back. */
export class BudgetHaltError extends Error {
  override readonly name = "BudgetHaltError";
  constructor(
    readonly node: string,
    readonly max: number,
    /** What fills the budget, each with its evidence. */
    readonly blockers: readonly Blocker[],
  ) {
    super(
      `the rollout halted: ${blockers.length} of ${max} nodes allowed out of service are out and nothing is bringing ` +
        `them back: ${blockers.map((b) => `${b.node} (${b.why})`).join("; ")}`,
    );
  }
}
