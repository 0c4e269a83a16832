/**
 * The scheduler's side of the disruption budget (disruption-budget.ts keeps the queue and the guards): this process's
 * reservations in the scheduler — written by a winning try, renewed while held, removed when the slot is given back or
 * the provider closes — and the last look at each key's nodes. Reservations that lapsed (their run died and stopped
 * renewing) are removed by whoever reads them, so none stays in the scheduler for good (budget-shared.ts).
 */
import type { Logger } from "../../framework/index.js";
import { type Blocker, type BudgetNode, blockersOf, contend, type SharedBudget } from "./budget-shared.js";

/** A slot held by this run, and its reservation in the scheduler when its key is shared. */
export interface Holder {
  readonly key: string;
  readonly node: string;
  readonly names: ReadonlySet<string>;
  readonly shared?: SharedBudget;
  renew?: NodeJS.Timeout;
  /** The last write of its reservation: a removal comes only after that write, or the write would bring it back. */
  writing?: Promise<unknown>;
}

/** What a try for a slot needs to know of the request. */
export interface Contender {
  readonly key: string;
  readonly node: string;
  readonly names: readonly string[];
  readonly max: number;
  readonly shared: SharedBudget;
  readonly log: Logger;
}

/** How a try for a slot through the scheduler ended. */
export type TryResult = "won" | "lost" | "later";

const errorText = (e: unknown) => (e as Error)?.message ?? String(e);

export class Reservations {
  /** Per key: what the scheduler last showed counting against the limit (other than this run's holders). */
  readonly outside = new Map<string, readonly Blocker[]>();
  private readonly retryAt = new Map<string, number>();
  /** Reservation writes whose end the provider waits for before it answers or closes. */
  private readonly pending = new Set<Promise<unknown>>();
  /** Nodes whose lapsed reservation is being removed (one removal each). */
  private readonly clearing = new Set<string>();
  private closed = false;

  constructor(
    /** This process's name in the scheduler's reservations. */
    readonly owner: string,
    private readonly leaseMs: number,
    private readonly tickMs: number,
    private readonly now: () => number,
  ) {}

  /** Keeps the holder's reservation alive while it is held; `writeNow`: write it at once (else the winning try did). */
  keep(h: Holder, log: Logger, writeNow: boolean): void {
    const shared = h.shared;
    if (!shared) return;
    const renew = () => {
      if (this.closed) return;
      h.writing = shared
        .reserve(h.node, { owner: this.owner, until: this.now() + this.leaseMs })
        .catch((e: unknown) =>
          log.warn("could not renew the node's reservation in the scheduler", { node: h.node, error: errorText(e) }),
        );
    };
    if (writeNow) renew();
    h.renew = setInterval(renew, Math.max(this.leaseMs / 3, 10));
    h.renew.unref?.();
  }

  /** Stops renewing and removes the holder's reservation (after its last write); errors are logged. */
  remove(h: Holder, log: Logger): void {
    clearInterval(h.renew);
    const shared = h.shared;
    if (!shared) return;
    const removal = (h.writing ?? Promise.resolve()).then(() => shared.unreserve(h.node));
    void this.track(removal).catch((e: unknown) =>
      log.warn("could not remove the node's reservation from the scheduler; it lapses when its lease ends", {
        node: h.node,
        error: errorText(e),
      }),
    );
  }

  /** Removes a reservation on `node` left by a run killed since (looked up first: most nodes have none). */
  async dropStale(node: string, shared: SharedBudget, log: Logger): Promise<void> {
    const stale = async () => {
      const n = (await shared.survey()).find((x) => x.name === node);
      if (n?.reservation) await shared.unreserve(node);
    };
    await this.track(stale()).catch((e: unknown) =>
      log.warn("could not remove a stale reservation from the scheduler; it lapses when its lease ends", {
        node,
        error: errorText(e),
      }),
    );
  }

  /** Resolves once every reservation write or removal this process started has ended. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /**
   * The provider closes (its engine is done, or gone): no reservation of this process may outlive it. Renewals stop,
   * the holders' reservations are removed, and a try under way takes its reservation back when it ends.
   */
  async close(holders: readonly Holder[], log: Logger): Promise<void> {
    this.closed = true;
    for (const h of holders) this.remove(h, log);
    await this.settle();
  }

  /** Asks the scheduler for the key's nodes; a failed look keeps the last one. Removes lapsed reservations seen. */
  async look(c: Pick<Contender, "key" | "shared" | "log">): Promise<void> {
    try {
      const nodes: readonly BudgetNode[] = await c.shared.survey();
      this.outside.set(c.key, blockersOf(nodes, [], [], this.now()));
      this.clearLapsed(nodes, [], c);
    } catch (e) {
      c.log.warn("could not list the scheduler's nodes for the disruption budget; counting this run's drains only", {
        budget: c.key,
        error: errorText(e),
      });
    }
  }

  /**
   * One try through the scheduler (reserve, read again, keep or take back): "won" keeps the reservation; "lost" after
   * a race or a scheduler error (retried after a random pause); "later" while that pause lasts. `gone()` is asked once
   * the try ends: a request that went away meanwhile gets its reservation taken back.
   */
  async attempt(c: Contender, holders: readonly string[], gone: () => boolean): Promise<TryResult> {
    if ((this.retryAt.get(c.key) ?? 0) > this.now()) return "later";
    const lease = { owner: this.owner, until: this.now() + this.leaseMs };
    const trying = contend({ shared: c.shared, self: c.names, max: c.max, holders, lease, now: this.now });
    try {
      const r = await this.track(trying);
      if (r.won && (gone() || this.closed)) {
        await this.track(c.shared.unreserve(c.node)).catch(() => undefined);
        return "lost";
      }
      if (r.won) return "won";
      this.outside.set(c.key, r.blockers);
      c.log.info(`drain of ${c.node} lost a race for the disruption budget to another run; trying again`, {
        node: c.node,
        budget: c.key,
        out_of_service: r.blockers.map((b) => b.node),
      });
    } catch (e) {
      await this.track(c.shared.unreserve(c.node)).catch(() => undefined);
      c.log.warn("could not reserve the node in the scheduler; trying again", { node: c.node, error: errorText(e) });
    }
    // Contenders that saw each other all backed off: a random pause lets one of them go first next time.
    this.retryAt.set(c.key, this.now() + this.tickMs + Math.floor(Math.random() * 4 * this.tickMs));
    return "lost";
  }

  /** Removes the reservations among `nodes` whose lease ended (their run is gone), except on `self`'s nodes. */
  private clearLapsed(nodes: readonly BudgetNode[], self: readonly string[], c: Pick<Contender, "shared" | "log">) {
    const t = this.now();
    for (const n of nodes) {
      if (!n.reservation || n.reservation.until > t || self.includes(n.name) || this.clearing.has(n.name)) continue;
      this.clearing.add(n.name);
      c.log.info("removing a reservation whose lease ended (its run is gone)", {
        node: n.name,
        owner: n.reservation.owner,
      });
      const removal = this.track(c.shared.unreserve(n.name)).catch(() => undefined);
      void removal.finally(() => this.clearing.delete(n.name));
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    const done = () => this.pending.delete(p);
    void p.then(done, done);
    return p;
  }
}
