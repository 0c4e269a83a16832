/**
 * Batched machine reads: one `GET machines/` serves every machine, and concurrent readers in one process share
 * one request. Writes call invalidate(), after which no reader joins a list that started before the write.
 */
import { SharedList, type SharedListOptions } from "../http/shared-list.js";
import type { MaasMachine } from "./types.js";

/** Options of a MachineCache. */
export type MachineCacheOptions = SharedListOptions;

/** Shares one machine list among concurrent readers. */
export class MachineCache {
  private readonly list: SharedList<MaasMachine>;

  constructor(load: () => Promise<readonly MaasMachine[]>, opts: MachineCacheOptions = {}) {
    this.list = new SharedList(load, opts);
  }

  /** Number of list requests sent so far (a figure for logs and tests). */
  get listRequests(): number {
    return this.list.requests;
  }

  /** Every machine; `fresh` skips a finished result but still joins a list that started after the last write. */
  all(opts: { readonly fresh?: boolean } = {}): Promise<readonly MaasMachine[]> {
    return this.list.all(opts);
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
    this.list.invalidate();
  }
}
