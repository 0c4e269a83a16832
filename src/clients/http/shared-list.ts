/**
 * SharedList: one list request serves every concurrent reader, and optionally readers for `maxAgeMs` after it.
 * A write calls invalidate(); after it, no reader joins or reuses a list that started before the write.
 * Batched reads of the MAAS machine list, Slurm nodes and Kubernetes nodes all stand on it.
 */

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
  private inflight: { gen: number; p: Promise<readonly T[]> } | undefined;
  private last: { gen: number; at: number; list: readonly T[] } | undefined;
  private loads = 0;

  constructor(
    private readonly load: () => Promise<readonly T[]>,
    private readonly opts: SharedListOptions = {},
  ) {}

  /** List requests sent so far (a figure for logs and tests). */
  get requests(): number {
    return this.loads;
  }

  /** The list: a fresh enough finished one (unless `fresh`), the one in flight, or a new request. */
  all(opts: { readonly fresh?: boolean } = {}): Promise<readonly T[]> {
    const now = this.opts.now ?? Date.now;
    const last = this.last;
    if (!opts.fresh && last && last.gen === this.generation && now() - last.at < (this.opts.maxAgeMs ?? 0)) {
      return Promise.resolve(last.list);
    }
    if (this.inflight && this.inflight.gen === this.generation) return this.inflight.p;
    const gen = this.generation;
    this.loads++;
    const p = this.load().then(
      (list) => {
        if (this.inflight?.p === p) this.inflight = undefined;
        if (gen === this.generation) this.last = { gen, at: now(), list };
        return list;
      },
      (e: unknown) => {
        if (this.inflight?.p === p) this.inflight = undefined;
        throw e;
      },
    );
    this.inflight = { gen, p };
    return p;
  }

  /** Forgets every list started so far; call before and after a write. */
  invalidate(): void {
    this.generation++;
  }
}
