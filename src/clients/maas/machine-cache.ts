/**
 * Batched machine reads: one `GET machines/` serves every machine, and concurrent readers in one process share
 * one request. Writes call invalidate(), after which no reader joins a list that started before the write.
 */
import type { MaasMachine } from "./types.js";

/** Options of a MachineCache. */
export interface MachineCacheOptions {
  /** A finished list is reused this long (0: only requests still in flight are shared). @default 0 */
  readonly maxAgeMs?: number;
  /** Clock. @default Date.now */
  readonly now?: () => number;
}

/** Shares one machine list among concurrent readers. */
export class MachineCache {
  private generation = 0;
  private inflight: { gen: number; p: Promise<readonly MaasMachine[]> } | undefined;
  private last: { gen: number; at: number; list: readonly MaasMachine[] } | undefined;
  private requests = 0;

  constructor(
    private readonly load: () => Promise<readonly MaasMachine[]>,
    private readonly opts: MachineCacheOptions = {},
  ) {}

  /** Number of list requests sent so far (a figure for logs and tests). */
  get listRequests(): number {
    return this.requests;
  }

  /** Every machine; `fresh` skips a finished result but still joins a list that started after the last write. */
  all(opts: { readonly fresh?: boolean } = {}): Promise<readonly MaasMachine[]> {
    const now = (this.opts.now ?? Date.now)();
    const maxAge = this.opts.maxAgeMs ?? 0;
    const last = this.last;
    // maxAge 0 means "share in-flight lists only": a finished list is never reused.
    if (!opts.fresh && maxAge > 0 && last && last.gen === this.generation && now - last.at <= maxAge) {
      return Promise.resolve(last.list);
    }
    if (this.inflight && this.inflight.gen === this.generation) return this.inflight.p;
    const gen = this.generation;
    this.requests++;
    const p = this.load().then(
      (list) => {
        if (this.inflight?.p === p) this.inflight = undefined;
        if (gen === this.generation) this.last = { gen, at: (this.opts.now ?? Date.now)(), list };
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

  /** One machine by system_id from the shared list; undefined when MAAS does not list it. */
  async get(systemId: string, opts: { readonly fresh?: boolean } = {}): Promise<MaasMachine | undefined> {
    return (await this.all(opts)).find((m) => m.systemId === systemId);
  }

  /** Machines indexed by system_id, hostname and lower-case MAC address, for callers resolving many at once. */
  async index(opts: { readonly fresh?: boolean } = {}): Promise<{
    readonly bySystemId: ReadonlyMap<string, MaasMachine>;
    readonly byHostname: ReadonlyMap<string, MaasMachine>;
    readonly byMac: ReadonlyMap<string, MaasMachine>;
  }> {
    const list = await this.all(opts);
    const byMac = new Map<string, MaasMachine>();
    for (const m of list) for (const mac of m.macAddresses) byMac.set(mac.toLowerCase(), m);
    return {
      bySystemId: new Map(list.map((m) => [m.systemId, m])),
      byHostname: new Map(list.map((m) => [m.hostname, m])),
      byMac,
    };
  }

  /** Forgets the last list: called after every write so that readers see its effect. */
  invalidate(): void {
    this.generation++;
    this.last = undefined;
  }
}
