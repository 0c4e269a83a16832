/**
 * Batched machine reads. Reads of single machines (a refresh, a status wait) are served by one list of this
 * process's own machines — `GET machines/?id=…&id=…` with every system id it has been asked about, never the whole
 * region — and concurrent readers share one request: a reader whose id a list in flight does not carry joins the next
 * list, which starts when that one ends and carries every id asked for meanwhile. find() and index() still list the
 * whole region (a machine to adopt is not known by id yet).
 * Writes call invalidate(), after which no reader joins a list that started before the write; a list never answers
 * for a machine this client has read directly since the list started (sawDirect), so a reader never goes back in
 * time behind a status a caller already saw; and a poller passes `newerThan: mark()` taken after its previous read,
 * so any list started since — by any poller — serves it.
 */
import { SharedList, type SharedListOptions } from "../http/shared-list.js";
import type { MaasMachine } from "./types.js";

/** Options of a MachineCache. */
export interface MachineCacheOptions extends SharedListOptions {
  /** System ids per list request (MAAS takes them in the query string; proxies cap its length). @default 200 */
  readonly idsPerRequest?: number;
}

/** How a MachineCache loads: every machine (no ids), or the machines with these system ids. */
export type MachineLoader = (systemIds?: readonly string[]) => Promise<readonly MaasMachine[]>;

const noop = () => {};

interface OwnList {
  readonly gen: number;
  readonly started: number;
  readonly ids: ReadonlySet<string>;
  readonly p: Promise<readonly MaasMachine[]>;
  at?: number;
  list?: readonly MaasMachine[];
}

/** Shares machine lists among concurrent readers; see the file comment for when a list may answer. */
export class MachineCache {
  private readonly region: SharedList<MaasMachine>;
  /** Monotonic ticket: lists take one when they start, direct reads when their answer arrives. */
  private tick = 0;
  private generation = 0;
  private readonly startedAt = new WeakMap<object, number>();
  private readonly lastDirect = new Map<string, number>();
  /** Every system id asked for: the machines of this process (its stack). */
  private readonly own = new Set<string>();
  private inflight: OwnList | undefined;
  private last: OwnList | undefined;
  private queued: Promise<readonly MaasMachine[]> | undefined;
  private ownLoads = 0;
  private readonly listeners = new Set<(list: readonly MaasMachine[]) => void>();

  constructor(
    private readonly load: MachineLoader,
    private readonly opts: MachineCacheOptions = {},
  ) {
    this.region = new SharedList(async () => {
      const t = ++this.tick;
      const list = await load();
      this.startedAt.set(list, t);
      return list;
    }, opts);
  }

  /** Number of list requests sent so far, whole-region and own-machine lists (a figure for logs and tests). */
  get listRequests(): number {
    return this.region.requests + this.ownLoads;
  }

  /** A ticket for `newerThan`: lists started after this call serve a poller that passes it. */
  mark(): number {
    return this.tick;
  }

  /** Every machine in the region; `fresh` skips a finished result but still joins a list that started after the last write. */
  all(opts: { readonly fresh?: boolean } = {}): Promise<readonly MaasMachine[]> {
    return this.region.all(opts);
  }

  /**
   * One machine by system_id from a list of this process's machines; undefined when MAAS does not list it or the
   * list predates a direct read of it (the caller then reads it directly). `fresh` wants a list started after this
   * call; `newerThan` (a mark) any list started after the mark; neither, a list in flight or within maxAgeMs.
   */
  async get(
    systemId: string,
    opts: { readonly fresh?: boolean; readonly newerThan?: number } = {},
  ): Promise<MaasMachine | undefined> {
    this.own.add(systemId);
    const after = opts.fresh ? this.tick : opts.newerThan;
    const list = await this.ownList(systemId, after);
    if ((this.startedAt.get(list) ?? Number.POSITIVE_INFINITY) < (this.lastDirect.get(systemId) ?? 0)) return undefined;
    return list.find((m) => m.systemId === systemId);
  }

  /** Records a direct read of a machine: lists started before now no longer answer for it in get(). */
  sawDirect(systemId: string): void {
    this.lastDirect.set(systemId, ++this.tick);
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

  /**
   * Calls `fn` with every list of this process's machines as it arrives (whoever asked for it); returns the function
   * that stops it. Waits use it to notice a machine's change in a list another wait started.
   */
  onList(fn: (list: readonly MaasMachine[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Forgets the last list: called after every write so that readers see its effect. */
  invalidate(): void {
    this.region.invalidate();
    this.generation++;
  }

  private usable(l: OwnList | undefined, id: string, after: number | undefined): boolean {
    return l !== undefined && l.gen === this.generation && l.ids.has(id) && (after === undefined || l.started > after);
  }

  private ownList(id: string, after: number | undefined): Promise<readonly MaasMachine[]> {
    const now = this.opts.now ?? Date.now;
    const last = this.last;
    if (last?.list && this.usable(last, id, after)) {
      if (after !== undefined || now() - (last.at ?? 0) < (this.opts.maxAgeMs ?? 0)) return Promise.resolve(last.list);
    }
    const flying = this.inflight;
    if (flying && this.usable(flying, id, after)) return flying.p;
    // Otherwise the next list: it starts when the one in flight ends (or on the next turn of the event loop, so the
    // readers of one burst share it) and carries every id asked for until then.
    if (!this.queued) {
      const current = flying && flying.gen === this.generation ? flying.p : undefined;
      const turn = current ? current.then(noop, noop) : new Promise<void>((r) => setImmediate(r));
      this.queued = turn.then(() => {
        this.queued = undefined;
        return this.startOwn().p;
      });
    }
    return this.queued;
  }

  private startOwn(): OwnList {
    const started = ++this.tick;
    const ids = [...this.own];
    const per = Math.max(1, this.opts.idsPerRequest ?? 200);
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += per) chunks.push(ids.slice(i, i + per));
    this.ownLoads += chunks.length;
    const p = Promise.all(chunks.map((c) => this.load(c))).then((parts) => parts.flat());
    const entry: OwnList = { gen: this.generation, started, ids: new Set(ids), p };
    this.inflight = entry;
    p.then(
      (list) => {
        this.startedAt.set(list, started);
        if (this.inflight === entry) this.inflight = undefined;
        entry.at = (this.opts.now ?? Date.now)();
        entry.list = list;
        if (entry.gen === this.generation && (!this.last || this.last.started < started)) this.last = entry;
        for (const fn of [...this.listeners]) fn(list);
      },
      () => {
        if (this.inflight === entry) this.inflight = undefined;
      },
    );
    return entry;
  }
}
