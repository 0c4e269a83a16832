/** What a drain asks the disruption budget for, and the budget's options (disruption-budget.ts). */
import type { Logger } from "../../framework/index.js";
import type { SharedBudget } from "./budget-shared.js";

/** Options of the budget; tests shorten the guard. */
export interface DisruptionBudgetOptions {
  /** How long only waiting drains must be in flight before the guard fails them. @default 5_000 */
  readonly quietMs?: number;
  /** How long the budget must be filled by nodes nothing brings back before waiting drains halt. @default 5_000 */
  readonly haltMs?: number;
  /** How often the guard looks. @default 250 */
  readonly tickMs?: number;
  /** How long a reservation in the scheduler lasts unless renewed (renewed at a third of it). @default 120_000 */
  readonly leaseMs?: number;
  /** Clock. @default Date.now */
  readonly now?: () => number;
  /** This process's name in reservations. @default random */
  readonly owner?: string;
}

/** One drain asking for a slot. */
export interface SlotRequest {
  /** Budget key: nodes sharing it share `max` (e.g. "slurm:gpu"). */
  readonly key: string;
  /** The node's name, as logs and the scheduler show it. */
  readonly node: string;
  /** Other names the rest of the chain knows the node by (the machine id "maas:abc"); any of them releases. */
  readonly aliases?: readonly string[];
  /** Slots of this key that may be held at once (≥ 1). */
  readonly max: number;
  /** Aborts the wait (timeout, StopProvider). */
  readonly signal: AbortSignal;
  /** RPCs the server is serving now (Context.inFlight); without it the guard cannot judge this waiter. */
  readonly inFlight?: () => number;
  /**
   * The key's nodes in the scheduler and the reservations of other runs there: they count against `max` like drains
   * of this run, and a slot is taken by reserving there first. A failed look counts as none (this run's drains still do).
   */
  readonly shared?: SharedBudget;
  readonly log: Logger;
}
