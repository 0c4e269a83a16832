/**
 * The disruption budget shared by every process that touches a partition: several stacks of one partition applied at
 * once (a Fleet's wave, or pipelines on different runners) each run a provider process of their own, so counting the
 * drains of one process is not enough. The scheduler is the arbiter every runner already shares: a drain first writes
 * a reservation on its own node (a lease: owner and expiry, renewed while the node is being recycled), then reads the
 * partition again, and goes ahead only if the nodes out of service plus the other live reservations leave room for
 * it; otherwise it takes its reservation back and tries again later.
 *
 * Why this cannot overrun: slurmctld and the Kubernetes API server apply writes one at a time and a read after a write
 * sees it. Of several contenders, the last one to write its reservation reads every earlier one (they are kept until
 * their node rejoins), so at most `max` of them can each have seen fewer than `max` others. Contenders that see each
 * other all back off, with random jitter, so one of them goes first on the next try.
 *
 * Why it cannot block forever: a reservation is a lease. A process killed mid-rollout stops renewing it, and after its
 * expiry it no longer counts (the node itself still counts while the scheduler reports it out, as it should); a
 * re-apply recycling the same node adopts the reservation on that node, whoever wrote it.
 *
 * Where it lives: Slurm keeps it in the node's Comment (`scontrol show node` shows it; a comment of the operator's is
 * kept beside it; slurm.conf nodes and dynamic nodes alike outlive a reimage). Kubernetes keeps it in a Lease
 * (coordination.k8s.io/v1, `kube-system/rackform-budget-<node>`, holder and renew time), not on the Node: a Node
 * object may be deleted while its machine is reimaged, and the reservation must outlive it — a node whose Node is
 * gone but whose Lease is live still counts.
 */

/** A reservation of one node's slot, as written in the scheduler. */
export interface Reservation {
  /** The provider process that wrote it (random per process). */
  readonly owner: string;
  /** Epoch milliseconds after which it no longer counts unless renewed. */
  readonly until: number;
}

/** A node of a budget key as the scheduler reports it. */
export interface BudgetNode {
  readonly name: string;
  /** Out of service: drained, down, not responding, cordoned, NotReady. */
  readonly out: boolean;
  /** The scheduler's words for its state, e.g. "IDLE+DRAIN (reason: rackform: reimage)". */
  readonly why: string;
  readonly reservation?: Reservation;
}

/** The scheduler's side of one budget key. */
export interface SharedBudget {
  /** The key's nodes, read after every earlier write of this process. */
  survey(): Promise<readonly BudgetNode[]>;
  /** Writes (or renews) the reservation on `node`. */
  reserve(node: string, r: Reservation): Promise<void>;
  /** Removes the reservation on `node` (any owner's: the node is this process's to recycle). */
  unreserve(node: string): Promise<void>;
}

/** Something that counts against a key's limit, and whether it is on its way back (in progress somewhere). */
export interface Blocker {
  readonly node: string;
  readonly why: string;
  /** Held by a drain of this process or a live reservation: it will come back (or fail) by itself. */
  readonly live: boolean;
}

const MARK = /\s*\[rackform-budget: reserved by ([\w-]+) until (\S+?)\]/;

/** The reservation in a Slurm node's Comment, if any. */
export function reservationIn(text: string): Reservation | undefined {
  const m = MARK.exec(text);
  if (!m) return undefined;
  const until = Date.parse(m[2]);
  return Number.isFinite(until) ? { owner: m[1], until } : undefined;
}

/** `text` with the reservation `r` in place of any earlier one (null: removed); the rest of the text is kept. */
export function withReservation(text: string, r: Reservation | null): string {
  const rest = text.replace(MARK, "").trim();
  if (!r) return rest;
  const mark = `[rackform-budget: reserved by ${r.owner} until ${new Date(r.until).toISOString()}]`;
  return rest ? `${rest} ${mark}` : mark;
}

/** Where Kubernetes reservations live: one coordination.k8s.io/v1 Lease per node, apart from the Node object. */
export const RESERVATION_NAMESPACE = "kube-system";
/** The label every reservation Lease carries, its value the budget key. */
export const RESERVATION_LABEL = "rackform.io/disruption-budget";
/** The name of the Lease reserving `node`. */
export const reservationLease = (node: string) => `rackform-budget-${node}`;

/**
 * What counts against the limit for a drain of the node known by `self`: the scheduler's nodes that are out or hold
 * a live reservation, and this process's holders; each node once.
 */
export function blockersOf(
  nodes: readonly BudgetNode[],
  self: readonly string[],
  holders: readonly string[],
  now: number,
): Blocker[] {
  const out = new Map<string, Blocker>();
  for (const h of holders)
    if (!self.includes(h)) out.set(h, { node: h, why: "being recycled by this run", live: true });
  for (const n of nodes) {
    if (self.includes(n.name) || out.has(n.name)) continue;
    const live = n.reservation !== undefined && n.reservation.until > now;
    if (!n.out && !live) continue;
    const why = live ? `${n.why}; reserved by another run (${n.reservation?.owner})` : n.why;
    out.set(n.name, { node: n.name, why, live });
  }
  return [...out.values()];
}

/** The outcome of one try for a slot: won, or the blockers seen right after writing the reservation. */
export type Contention = { readonly won: true } | { readonly won: false; readonly blockers: Blocker[] };

/** One try for a slot: the key's shared budget, the node's names (the first is reserved), the limit and the lease. */
export interface Contender {
  readonly shared: SharedBudget;
  /** The node's names; the reservation is written on the first. */
  readonly self: readonly string[];
  readonly max: number;
  /** Nodes holding a slot of this run. */
  readonly holders: readonly string[];
  readonly lease: Reservation;
  readonly now: () => number;
}

/**
 * One try: reserve, read the key again, keep the reservation if fewer than `max` others count, else take it back.
 * Errors of the scheduler propagate (the caller counts them as a lost try).
 */
export async function contend(c: Contender): Promise<Contention> {
  const { shared, self, max } = c;
  await shared.reserve(self[0], c.lease);
  const blockers = blockersOf(await shared.survey(), self, c.holders, c.now());
  if (blockers.length < max) return { won: true };
  await shared.unreserve(self[0]);
  return { won: false, blockers };
}
