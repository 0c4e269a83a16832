/**
 * The disruption budget of cluster members: at most `max_unavailable` nodes of one budget key out of service at once.
 * This run's drains hold slots in the provider process (one engine run); nodes the scheduler reports out (drained or
 * down by hand, not responding, cordoned, NotReady, failed) and nodes other runs have reserved in the scheduler count
 * too (budget-shared.ts: reserve in the scheduler, read again, then drain — so stacks applied at once by separate
 * engines, on one runner or many, share one budget per partition).
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
 * No wait is endless. Deadlock guard: a waiting drain holds one of the engine's parallelism slots; when every RPC in
 * flight is a waiting drain for `quietMs` on end while slots are held, the nodes holding them can never take their
 * next step, so the waiting drains fail (the node stays joined, nothing changed). Halt: when what fills the budget is
 * only nodes that nothing is bringing back — failed in this run (quarantined), drained or down by hand, with no live
 * reservation anywhere, and no other operation of this run in flight — for `haltMs`, the waiting drains of that key
 * fail naming those nodes and their evidence: the rollout stops, every waiting node stays joined, and a re-apply after the fix goes on from there.
 */
import { randomBytes } from "node:crypto";
import type { Diagnostics, Logger } from "../../framework/index.js";
import { BudgetDeadlockError, BudgetHaltError, evidenceOf } from "./budget-errors.js";
import type { DisruptionBudgetOptions, SlotRequest } from "./budget-request.js";
import { type Holder, Reservations } from "./budget-reservations.js";
import type { Blocker, SharedBudget } from "./budget-shared.js";

export type { DisruptionBudgetOptions, SlotRequest };
export { BudgetDeadlockError, BudgetHaltError };

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
  private readonly haltMs: number;
  private readonly tickMs: number;
  private readonly now: () => number;
  /** This run's reservations in the scheduler and its last look at each key there. */
  private readonly reservations: Reservations;
  private timer: NodeJS.Timeout | undefined;
  private stuckSince: number | undefined;
  /** Per key: a look or a try for a slot under way (one at a time per key). */
  private readonly busy = new Set<string>();
  /** Per key: since when nothing but nodes no one brings back has filled the budget. */
  private readonly stalledSince = new Map<string, number>();
  /** Nodes whose chain failed in this run, with the evidence. */
  private readonly failed = new Map<string, string>();

  constructor(opts: DisruptionBudgetOptions = {}) {
    this.quietMs = opts.quietMs ?? 5_000;
    this.haltMs = opts.haltMs ?? 5_000;
    this.tickMs = opts.tickMs ?? 250;
    this.now = opts.now ?? Date.now;
    const owner = opts.owner ?? `rf-${randomBytes(4).toString("hex")}`;
    this.reservations = new Reservations(owner, opts.leaseMs ?? 120_000, this.tickMs, this.now);
  }

  /** This process's name in the scheduler's reservations. */
  get owner(): string {
    return this.reservations.owner;
  }

  private get outside(): Map<string, readonly Blocker[]> {
    return this.reservations.outside;
  }

  /** Nodes holding a slot of `key`, in the order they took it. */
  inUse(key: string): string[] {
    return this.holders.filter((h) => h.key === key).map((h) => h.node);
  }

  /** Nodes of `key` out of service (or reserved by other runs) that hold no slot of this run, as last looked at. */
  outOfService(key: string): string[] {
    const mine = new Set(this.holders.filter((h) => h.key === key).flatMap((h) => [...h.names]));
    return (this.outside.get(key) ?? []).map((b) => b.node).filter((n) => !mine.has(n));
  }

  /** Everything that counts against `key`'s limit: this run's drains, then nodes already out in the scheduler. */
  unavailable(key: string, self: readonly string[] = []): string[] {
    return [...this.inUse(key), ...this.outOfService(key)].filter((n) => !self.includes(n));
  }

  /**
   * Takes a slot for the node, waiting while `max` of its key are held; resolves true when it had to wait. Rejects on
   * abort, with BudgetDeadlockError or with BudgetHaltError.
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
      this.watch();
      void this.pump(req.key);
    });
  }

  /**
   * Takes a slot for a drain that has no limit of its own (its member sets no max_unavailable, e.g. a node removed from
   * the rack while the remaining members of its partition set one): it never waits, but counts against the limit of
   * every other drain of its key until released, like any drain of this run. It is not reserved in the scheduler
   * (other runs see the node once it is drained; a drain without a limit is no contender).
   */
  hold(req: Pick<SlotRequest, "key" | "node" | "aliases" | "log" | "shared">): void {
    if (this.holders.some((h) => h.key === req.key && h.node === req.node)) return;
    this.push(req, req.shared, true);
    const inUse = this.inUse(req.key);
    req.log.info(
      `drain of ${req.node} (no limit of its own) takes a disruption budget slot (${inUse.length} in use: ${inUse.join(", ")})`,
      { node: req.node, budget: req.key, in_use: inUse },
    );
  }

  /**
   * Gives back the slot of the node known by any of `names` (node name or machine id); `why` is logged. `evidence`
   * marks a node whose chain failed in this run (it stays out: a later halt names it with this). Returns the node
   * released, or undefined when it held none (most calls: nodes that were never drained in this run).
   */
  release(
    names: readonly (string | null | undefined)[],
    why: string,
    log: Logger,
    evidence?: string,
  ): string | undefined {
    const known = names.filter((n): n is string => typeof n === "string" && n !== "");
    const i = this.holders.findIndex((h) => known.some((n) => h.names.has(n)));
    if (i < 0) return undefined;
    const [h] = this.holders.splice(i, 1);
    if (evidence !== undefined) this.failed.set(h.node, `${why}: ${evidence}`);
    this.reservations.remove(h, log);
    const left = this.inUse(h.key);
    log.info(
      `${h.node} ${why}: its disruption budget slot is free (${left.length} in use${left.length ? `: ${left.join(", ")}` : ""})`,
      { node: h.node, budget: h.key },
    );
    this.stuckSince = undefined;
    void this.pump(h.key);
    return h.node;
  }

  /**
   * After the node rejoined (or its recycling ended) without a slot of this run — its drain was made by a run killed
   * since — removes the reservation that run left on it: it would count against the partition until its lease ended,
   * and stay in the scheduler after. Nothing when this run holds the node (release() does it). Never throws.
   */
  async dropStale(node: string, shared: SharedBudget, log: Logger): Promise<void> {
    if (this.holders.some((h) => h.names.has(node))) return;
    await this.reservations.dropStale(node, shared, log);
  }

  /**
   * Gives back the slot of a node whose chain failed in this run (it stays out, quarantined or broken) with the
   * failure's evidence for a later halt, and waits for its reservation's removal (see settle).
   */
  async releaseFailed(names: readonly (string | null | undefined)[], why: string, log: Logger, diags: Diagnostics) {
    this.release(names, why, log, evidenceOf(diags));
    await this.settle();
  }

  /**
   * Resolves once every reservation removal this process started has ended: the resource that released a slot waits
   * for it before it answers, since the engine may stop the provider right after the last answer.
   */
  async settle(): Promise<void> {
    await this.reservations.settle();
  }

  /**
   * The provider closes (its engine is done or gone, killed mid-rollout perhaps): waiting drains fail, and no
   * reservation of this run stays in the scheduler — a node it drained stays out and counts as such, and a re-apply
   * takes it over first. Bounded by the caller.
   */
  async close(log: Logger): Promise<void> {
    for (const w of [...this.waiters]) {
      this.drop(w);
      w.fail(new Error("the provider is closing"));
    }
    await this.reservations.close(this.holders.splice(0), log);
  }

  private holding(req: SlotRequest): boolean {
    return this.holders.some((h) => h.key === req.key && h.node === req.node);
  }

  /** Records the slot (and keeps its reservation alive while held). */
  private push(
    req: Pick<SlotRequest, "key" | "node" | "aliases" | "log">,
    shared: SharedBudget | undefined,
    reserveNow: boolean,
  ): void {
    const h: Holder = { key: req.key, node: req.node, names: new Set(namesOf(req)), shared };
    this.reservations.keep(h, req.log, reserveNow);
    this.holders.push(h);
  }

  private take(req: SlotRequest): void {
    // A slot taken through the scheduler was reserved there by the winning try.
    this.push(req, req.shared, false);
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

  /**
   * Hands out free slots of `key`, first come first served: the first waiter of the key looks at the scheduler, and
   * if there is room, reserves there and looks again (budget-shared.ts); a later drain never overtakes an earlier one.
   * One look or try per key at a time.
   */
  private async pump(key: string): Promise<void> {
    if (this.busy.has(key)) return;
    this.busy.add(key);
    try {
      for (;;) {
        const w = this.waiters.find((x) => x.req.key === key);
        if (!w) return;
        const { req } = w;
        if (req.shared) await this.reservations.look({ key, shared: req.shared, log: req.log });
        if (!this.waiters.includes(w)) continue;
        // A node already out or reserved (drained by a run killed since) adds nothing to what is out: it goes first,
        // whatever its place in the queue — behind others it would wait for itself.
        const own = this.waiters.find((x) => x.req.key === key && this.alreadyOut(x.req));
        if (own) {
          this.adopt(own);
          continue;
        }
        const blockers = this.blockers(req);
        if (blockers.length >= req.max) {
          this.blocked(w, blockers);
          return;
        }
        this.stalledSince.delete(key);
        if (req.shared) {
          const c = { key, node: req.node, names: namesOf(req), max: req.max, shared: req.shared, log: req.log };
          const r = await this.reservations.attempt(c, this.inUse(key), () => !this.waiters.includes(w));
          if (!this.waiters.includes(w)) continue;
          if (r === "lost") this.blocked(w, this.blockers(req));
          if (r !== "won") return;
        }
        this.drop(w);
        this.take(req);
        this.stuckSince = undefined;
        w.grant();
      }
    } finally {
      this.busy.delete(key);
    }
  }

  /** Whether the request's node is among the last look's nodes out of service or reserved. */
  private alreadyOut(req: SlotRequest): boolean {
    const names = namesOf(req);
    return (this.outside.get(req.key) ?? []).some((b) => names.includes(b.node));
  }

  /** Grants a node that is already out, taking over its reservation (no room is needed: nothing more goes out). */
  private adopt(w: Waiter): void {
    this.drop(w);
    this.push(w.req, w.req.shared, true);
    w.req.log.info(`drain of ${w.req.node} takes over its node, already out of service or reserved by an earlier run`, {
      node: w.req.node,
      budget: w.req.key,
    });
    this.stuckSince = undefined;
    w.grant();
  }

  /** What counts against the limit for the request's node now: this run's holders and the last look's blockers. */
  private blockers(req: SlotRequest): Blocker[] {
    const self = namesOf(req);
    const mine = this.holders.filter((h) => h.key === req.key && !self.includes(h.node));
    const mineNames = new Set(mine.flatMap((h) => [...h.names]));
    const held = mine.map((h): Blocker => ({ node: h.node, why: "being recycled by this run", live: true }));
    const others = (this.outside.get(req.key) ?? []).filter((b) => !self.includes(b.node) && !mineNames.has(b.node));
    return [...held, ...others.map((b) => (this.failed.has(b.node) ? { ...b, why: this.failedWhy(b) } : b))];
  }

  private failedWhy(b: Blocker): string {
    return `${this.failed.get(b.node)}; ${b.why}`;
  }

  /** The head waiter cannot go: log it once, and halt the key when nothing fills the budget that will come back. */
  private blocked(w: Waiter, blockers: readonly Blocker[]): void {
    const { req } = w;
    if (!w.waited) {
      w.waited = true;
      const out = blockers.map((b) => b.node);
      req.log.info(
        `drain of ${req.node} waits for the disruption budget (${out.length} of ${req.max} out of service: ${out.join(", ")})`,
        { node: req.node, budget: req.key, in_use: this.inUse(req.key), out_of_service: this.outOfService(req.key) },
      );
    }
    // Something still under way may bring a blocker back: a live reservation, or any other operation of this run in
    // flight (a re-apply re-running the gate of a node quarantined before, say).
    const busy = (req.inFlight?.() ?? 0) > this.waiters.length;
    if (blockers.length < req.max || blockers.some((b) => b.live) || busy) {
      this.stalledSince.delete(req.key);
      return;
    }
    const since = this.stalledSince.get(req.key) ?? this.now();
    this.stalledSince.set(req.key, since);
    if (this.now() - since < this.haltMs) return;
    this.stalledSince.delete(req.key);
    for (const x of this.waiters.filter((x) => x.req.key === req.key)) {
      this.drop(x);
      x.req.log.warn(`drain of ${x.req.node} halts: the disruption budget is used up by nodes nothing brings back`, {
        node: x.req.node,
        out_of_service: blockers.map((b) => b.node),
      });
      x.fail(new BudgetHaltError(x.req.node, x.req.max, blockers));
    }
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

  /** Every tick: look again for every key with waiters, and the deadlock guard. */
  private check(): void {
    // Nodes out in the scheduler come back by themselves (or by hand), other runs' reservations end: look again.
    for (const key of new Set(this.waiters.map((w) => w.req.key))) void this.pump(key);
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
function namesOf(req: Pick<SlotRequest, "node" | "aliases">): string[] {
  return [req.node, ...(req.aliases ?? [])];
}
