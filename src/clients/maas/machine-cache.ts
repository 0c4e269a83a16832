/**
 * Batched machine reads: one `GET machines/` serves every machine, and concurrent readers in one process share
 * one request. Writes call invalidate(), after which no reader joins a list that started before the write; and a
 * list never answers for a machine this client has read directly since the list started (sawDirect), so a reader
 * never goes back in time behind a status a caller already saw.
 */
import { SharedList, type SharedListOptions } from "../http/shared-list.js";
import type { MaasMachine } from "./types.js";

/** Options of a MachineCache. */
export type MachineCacheOptions = SharedListOptions;

/** Shares one machine list among concurrent readers. */
export class MachineCache {
  private readonly list: SharedList<MaasMachine>;

  /** Monotonic ticket: lists take one when they start, direct reads when their answer arrives. */
  private tick = 0;
  private readonly startedAt = new WeakMap<object, number>();
  private readonly lastDirect = new Map<string, number>();

  constructor(load: () => Promise<readonly MaasMachine[]>, opts: MachineCacheOptions = {}) {
    this.list = new SharedList(async () => {
      const t = ++this.tick;
      const list = await load();
      this.startedAt.set(list, t);
      return list;
    }, opts);
  }

  /** Number of list requests sent so far (a figure for logs and tests). */
  get listRequests(): number {
    return this.list.requests;
  }

  /** Every machine; `fresh` skips a finished result but still joins a list that started after the last write. */
  all(opts: { readonly fresh?: boolean } = {}): Promise<readonly MaasMachine[]> {
    return this.list.all(opts);
  }

  /** One machine by system_id from the shared list; undefined when MAAS does not list it or the list predates a direct read of it. */
  async get(systemId: string, opts: { readonly fresh?: boolean } = {}): Promise<MaasMachine | undefined> {
    const list = await this.all(opts);
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

  /** Forgets the last list: called after every write so that readers see its effect. */
  invalidate(): void {
    this.list.invalidate();
  }
}
