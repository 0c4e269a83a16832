/**
 * SharedList: one list request serves every concurrent reader, and optionally readers for `maxAgeMs` after it.
 * A write calls invalidate(); after it, no reader joins or reuses a list that started before the write.
 * A poller passes `newerThan: mark()` taken after its previous read: any list started since then — by any poller —
 * is as new as a read of its own, so the polls of many waits share one list request.
 * Batched reads of the MAAS machine list, Slurm nodes and Kubernetes nodes all stand on it.
 */

/** Start tickets of every SharedList: a mark taken from one list orders its loads against later ones. */
let ticket = 0;

/** Options of a SharedList. */
export interface SharedListOptions {
  /** A finished list is reused this long (0: only lists still in flight are shared). @default 0 */
  readonly maxAgeMs?: number;
  /** Clock. @default Date.now */
  readonly now?: () => number;
}

/** Shares one list among concurrent readers. */
export class SharedList<T> {
  private generation = 0;
  private inflight: { gen: number; started: number; p: Promise<readonly T[]> } | undefined;
  private last: { gen: number; at: number; started: number; list: readonly T[] } | undefined;
  private loads = 0;

  constructor(
    private readonly load: () => Promise<readonly T[]>,
    private readonly opts: SharedListOptions = {},
  ) {}

  /** List requests sent so far (a figure for logs and tests). */
  get requests(): number {
    return this.loads;
  }

  /** A ticket: lists started after this call have a greater one (pass it later as `newerThan`). */
  mark(): number {
    return ticket;
  }

  /**
   * The list: a fresh enough finished one (unless `fresh`), the one in flight, or a new request. With `newerThan`
   * (a mark), any list that started after the mark will do, finished or not, however old `maxAgeMs` would call it.
   */
  all(opts: { readonly fresh?: boolean; readonly newerThan?: number } = {}): Promise<readonly T[]> {
    const now = this.opts.now ?? Date.now;
    const last = this.last;
    const after = opts.newerThan;
    if (last && last.gen === this.generation) {
      if (after !== undefined ? last.started > after : !opts.fresh && now() - last.at < (this.opts.maxAgeMs ?? 0)) {
        return Promise.resolve(last.list);
      }
    }
    const flying = this.inflight;
    if (flying && flying.gen === this.generation && (after === undefined || flying.started > after)) return flying.p;
    const gen = this.generation;
    const started = ++ticket;
    this.loads++;
    const p = this.load().then(
      (list) => {
        if (this.inflight?.p === p) this.inflight = undefined;
        if (gen === this.generation && (!this.last || this.last.started < started)) {
          this.last = { gen, at: now(), started, list };
        }
        return list;
      },
      (e: unknown) => {
        if (this.inflight?.p === p) this.inflight = undefined;
        throw e;
      },
    );
    this.inflight = { gen, started, p };
    return p;
  }

  /** Forgets every list started so far; call before and after a write. */
  invalidate(): void {
    this.generation++;
  }
}
