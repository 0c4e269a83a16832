/**
 * The disruption budget of cluster members: at most `max_unavailable` nodes of one budget key out of service at once.
 * This run's drains hold slots in the provider process (one engine run); nodes the scheduler already reports out
 * (drained or down by hand, not responding, cordoned, NotReady) count too, looked at when a drain asks and every tick
 * while drains wait.
 *
 * Why in the provider: on a reimage every node's first step is its member's destroy (the drain), the engine makes all
 * of them ready at once and its parallelism semaphore is FIFO, so whatever -parallelism says every node drains before
 * any rejoins. Cross-node depends_on cannot help (destroy-then-create inverts it). So a drain takes a slot here first
 * and waits while the key's slots are held; the slot comes back when the node rejoins (member create, success or
 * failure), when its chain stops for this run (a failed drain, release, deploy or gate: the rollout goes on without
 * it), when it leaves the scheduler for good (removed from the rack), or when its machine is deleted. A drain whose
 * member sets no limit holds a slot too (without waiting), so a node removed by the same apply counts against the
 * limits of the rest of its partition.
 *
 * Deadlock guard: a waiting drain holds one of the engine's parallelism slots. When every RPC in flight is a waiting
 * drain for `quietMs` on end while slots are held, the nodes holding them can never take their next step, so the
 * waiting drains fail (the node stays joined, nothing changed) instead of hanging until their timeout.
 */
import type { Logger } from "../framework/index.js";

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

/** Options of the budget; tests shorten the guard. */
export interface DisruptionBudgetOptions {
  /** How long only waiting drains must be in flight before the guard fails them. @default 5_000 */
  readonly quietMs?: number;
  /** How often the guard looks. @default 250 */
  readonly tickMs?: number;
  /** Clock. @default Date.now */
  readonly now?: () => number;
}

/** One drain asking for a slot. */
export interface SlotRequest {
  /** Budget key: nodes sharing it share `max` (e.g. "slurm:gpu"). */
  readonly key: string;
  /** The node's name, as logs show it. */
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
   * Nodes of this key the scheduler reports out of service now (drained, down, not responding, cordoned, NotReady):
   * they count against `max` like drains of this run. A failed look counts as none (the run's own drains still do).
   */
  readonly outOfService?: () => Promise<readonly string[]>;
  readonly log: Logger;
}

interface Holder {
  readonly key: string;
  readonly node: string;
  readonly names: ReadonlySet<string>;
}

interface Waiter {
  readonly req: SlotRequest;
  /** Logged as waiting (it could not take a slot when it came): its wait counts against timeouts.delete. */
  waited: boolean;
  readonly grant: () => void;
  readonly fail: (e: unknown) => void;
}

/** Slots per budget key, shared by every rackform_cluster_member in the process. */
export class DisruptionBudget {
  private readonly holders: Holder[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly quietMs: number;
  private readonly tickMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private stuckSince: number | undefined;
  /** Per key: nodes the scheduler last reported out of service, and whether a look is under way. */
  private readonly outside = new Map<string, readonly string[]>();
  private readonly looking = new Map<string, Promise<void>>();

  constructor(opts: DisruptionBudgetOptions = {}) {
    this.quietMs = opts.quietMs ?? 5_000;
    this.tickMs = opts.tickMs ?? 250;
    this.now = opts.now ?? Date.now;
  }

  /** Nodes holding a slot of `key`, in the order they took it. */
  inUse(key: string): string[] {
    return this.holders.filter((h) => h.key === key).map((h) => h.node);
  }

  /** Nodes of `key` out of service in the scheduler that hold no slot of this run (as last looked at). */
  outOfService(key: string): string[] {
    const mine = new Set(this.holders.filter((h) => h.key === key).flatMap((h) => [...h.names]));
    return (this.outside.get(key) ?? []).filter((n) => !mine.has(n));
  }

  /** Everything that counts against `key`'s limit: this run's drains, then nodes already out in the scheduler. */
  unavailable(key: string, self: readonly string[] = []): string[] {
    return [...this.inUse(key), ...this.outOfService(key)].filter((n) => !self.includes(n));
  }

  /**
   * Takes a slot for the node, waiting while `max` of its key are held; resolves true when it had to wait. Rejects on
   * abort or with BudgetDeadlockError.
   */
  acquire(req: SlotRequest): Promise<boolean> {
    if (req.signal.aborted) return Promise.reject(req.signal.reason);
    if (this.holding(req)) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      const onAbort = () => {
        this.drop(w);
        reject(req.signal.reason);
      };
      // Queued at once, in arrival order: first come, first served per key, whatever the scheduler look costs.
      const w: Waiter = {
        req,
        waited: false,
        grant: () => {
          req.signal.removeEventListener("abort", onAbort);
          resolve(w.waited);
        },
        fail: (e) => {
          req.signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      req.signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(w);
      const decide = () => {
        this.grantWaiting();
        if (!this.waiters.includes(w) || w.waited) return;
        w.waited = true;
        const out = this.unavailable(req.key, namesOf(req));
        req.log.info(
          `drain of ${req.node} waits for the disruption budget (${out.length} of ${req.max} out of service: ${out.join(", ")})`,
          { node: req.node, budget: req.key, in_use: this.inUse(req.key), out_of_service: this.outOfService(req.key) },
        );
        this.watch();
      };
      if (req.outOfService) void this.look(req).then(decide);
      else decide();
    });
  }

  /**
   * Takes a slot for a drain that has no limit of its own (its member sets no max_unavailable, e.g. a node removed from
   * the rack while the remaining members of its partition set one): it never waits, but counts against the limit of
   * every other drain of its key until released, like any drain of this run.
   */
  hold(req: Pick<SlotRequest, "key" | "node" | "aliases" | "log">): void {
    if (this.holders.some((h) => h.key === req.key && h.node === req.node)) return;
    this.holders.push({ key: req.key, node: req.node, names: new Set([req.node, ...(req.aliases ?? [])]) });
    const inUse = this.inUse(req.key);
    req.log.info(
      `drain of ${req.node} (no limit of its own) takes a disruption budget slot (${inUse.length} in use: ${inUse.join(", ")})`,
      {
        node: req.node,
        budget: req.key,
        in_use: inUse,
      },
    );
  }

  /**
   * Gives back the slot of the node known by any of `names` (node name or machine id); `why` is logged. Returns the
   * node released, or undefined when it held none (most calls: nodes that were never drained in this run).
   */
  release(names: readonly (string | null | undefined)[], why: string, log: Logger): string | undefined {
    const known = names.filter((n): n is string => typeof n === "string" && n !== "");
    const i = this.holders.findIndex((h) => known.some((n) => h.names.has(n)));
    if (i < 0) return undefined;
    const [h] = this.holders.splice(i, 1);
    const left = this.inUse(h.key);
    log.info(
      `${h.node} ${why}: its disruption budget slot is free (${left.length} in use${left.length ? `: ${left.join(", ")}` : ""})`,
      {
        node: h.node,
        budget: h.key,
      },
    );
    this.grantWaiting();
    this.stuckSince = undefined;
    return h.node;
  }

  /** Asks the scheduler which nodes of the request's key are out of service; concurrent askers share one look. */
  private look(req: SlotRequest): Promise<void> {
    const pending = this.looking.get(req.key);
    if (pending || !req.outOfService) return pending ?? Promise.resolve();
    const ask = req.outOfService;
    const p = (async () => {
      try {
        this.outside.set(req.key, await ask());
      } catch (e) {
        req.log.warn(
          "could not list the scheduler's nodes for the disruption budget; counting this run's drains only",
          {
            budget: req.key,
            error: (e as Error)?.message ?? String(e),
          },
        );
      } finally {
        this.looking.delete(req.key);
      }
    })();
    this.looking.set(req.key, p);
    return p;
  }

  private holding(req: SlotRequest): boolean {
    return this.holders.some((h) => h.key === req.key && h.node === req.node);
  }

  private take(req: SlotRequest): void {
    this.holders.push({ key: req.key, node: req.node, names: new Set([req.node, ...(req.aliases ?? [])]) });
    const inUse = this.inUse(req.key);
    req.log.info(
      `drain of ${req.node} takes a disruption budget slot (${inUse.length} of ${req.max} in use: ${inUse.join(", ")})`,
      { node: req.node, budget: req.key, in_use: inUse },
    );
  }

  private drop(w: Waiter): void {
    const i = this.waiters.indexOf(w);
    if (i >= 0) this.waiters.splice(i, 1);
    if (this.waiters.length === 0) this.unwatch();
  }

  /** First come, first served per key: a later drain never overtakes an earlier one of its key. */
  private grantWaiting(): void {
    const blocked = new Set<string>();
    let granted = false;
    for (const w of [...this.waiters]) {
      if (blocked.has(w.req.key)) continue;
      if (this.unavailable(w.req.key, namesOf(w.req)).length >= w.req.max) {
        blocked.add(w.req.key);
        continue;
      }
      this.drop(w);
      this.take(w.req);
      w.grant();
      granted = true;
    }
    if (granted) this.stuckSince = undefined;
  }

  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.tickMs);
    this.timer.unref?.();
  }

  private unwatch(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stuckSince = undefined;
  }

  /** The guard: only waiting drains in flight, slots held, for quietMs on end → fail every waiting drain. */
  private check(): void {
    // Nodes out in the scheduler come back by themselves (or by hand): look again for every key that has waiters.
    const firstOfKey = new Map(this.waiters.map((w) => [w.req.key, w.req] as const));
    for (const req of firstOfKey.values()) {
      if (req.outOfService) void this.look(req).then(() => this.grantWaiting());
    }
    const counts = this.waiters.map((w) => w.req.inFlight?.());
    if (counts.some((c) => c === undefined) || this.holders.length === 0) {
      this.stuckSince = undefined;
      return;
    }
    const inFlight = Math.max(...(counts as number[]));
    if (inFlight > this.waiters.length) {
      this.stuckSince = undefined;
      return;
    }
    const t = this.now();
    this.stuckSince ??= t;
    if (t - this.stuckSince < this.quietMs) return;
    const holders = this.holders.map((h) => h.node);
    for (const w of [...this.waiters]) {
      this.drop(w);
      w.req.log.warn(`drain of ${w.req.node} gives up waiting: the engine's parallelism is exhausted`, {
        node: w.req.node,
        holders,
      });
      w.fail(new BudgetDeadlockError(w.req.node, holders));
    }
  }
}

/** The names a request knows its node by. */
function namesOf(req: SlotRequest): string[] {
  return [req.node, ...(req.aliases ?? [])];
}
