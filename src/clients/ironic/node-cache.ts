/**
 * Batched node reads: one `GET /v1/nodes?fields=…` and one `GET /v1/ports` serve every node of a refresh, and
 * concurrent readers in one process share one request (SharedList). Two rules keep a shared list from going back in
 * time: a write (any non-GET through this client) invalidates every list, and a list never answers for a node this
 * client has read directly since that list started — a waiter that saw "active" must not then read "deploying".
 */
import { SharedList, type SharedListOptions } from "../http/shared-list.js";
import type { IronicNode, IronicPort } from "./types.js";

/** Options of a NodeCache. */
export type NodeCacheOptions = SharedListOptions;

/** How a NodeCache loads its lists. */
export interface NodeCacheLoaders {
  /** Every node with these fields (uuid and name always included), following pagination. */
  readonly nodes: (fields: readonly string[]) => Promise<readonly IronicNode[]>;
  /** Every port, following pagination. */
  readonly ports: () => Promise<readonly IronicPort[]>;
}

/** Shares node and port lists among concurrent readers; see the file comment for when a list may answer. */
export class NodeCache {
  private readonly nodeLists = new Map<string, SharedList<IronicNode>>();
  private readonly portList: SharedList<IronicPort>;
  /** Monotonic ticket: lists take one when they start, direct reads when their answer arrives. */
  private tick = 0;
  private readonly startedAt = new WeakMap<object, number>();
  private readonly lastDirect = new Map<string, number>();

  constructor(
    private readonly load: NodeCacheLoaders,
    private readonly opts: NodeCacheOptions = {},
  ) {
    this.portList = new SharedList(() => this.ticketed(load.ports), opts);
  }

  /** List requests sent so far, nodes and ports together (a figure for logs and tests). */
  get listRequests(): number {
    let n = this.portList.requests;
    for (const l of this.nodeLists.values()) n += l.requests;
    return n;
  }

  /**
   * One node by uuid or name from a shared list with `fields`; undefined when the list does not hold it or is older
   * than this client's last direct read of it — the caller then reads the node directly (which also tells "absent").
   */
  async get(
    id: string,
    fields: readonly string[],
    opts: { readonly newerThan?: number } = {},
  ): Promise<IronicNode | undefined> {
    const list = await this.nodesWith(fields).all(opts);
    const n = list.find((x) => x.uuid === id || x.name === id);
    return n && this.current(list, n) ? n : undefined;
  }

  /** The MAC addresses of a node's ports from the shared port list; undefined when that list may be stale for it. */
  async macsOf(node: IronicNode): Promise<string[] | undefined> {
    const ports = await this.portList.all();
    if (!this.current(ports, node)) return undefined;
    return ports.filter((p) => p.nodeUuid === node.uuid).map((p) => p.address);
  }

  /** A ticket for `newerThan`: lists started after this call serve a poller that passes it. */
  mark(): number {
    return this.portList.mark();
  }

  /** Records a direct read of a node: lists started before now no longer answer for it. */
  sawDirect(id: string, node?: IronicNode): void {
    const t = ++this.tick;
    for (const key of [id, node?.uuid, node?.name]) if (key) this.lastDirect.set(key, t);
  }

  /** Forgets every list; called before and after each write. */
  invalidate(): void {
    this.portList.invalidate();
    for (const l of this.nodeLists.values()) l.invalidate();
  }

  private nodesWith(fields: readonly string[]): SharedList<IronicNode> {
    const key = [...new Set(["uuid", "name", ...fields])].sort().join(",");
    let l = this.nodeLists.get(key);
    if (!l) {
      const wanted = key.split(",");
      l = new SharedList(() => this.ticketed(() => this.load.nodes(wanted)), this.opts);
      this.nodeLists.set(key, l);
    }
    return l;
  }

  private async ticketed<T extends object>(load: () => Promise<readonly T[]>): Promise<readonly T[]> {
    const t = ++this.tick;
    const list = await load();
    this.startedAt.set(list, t);
    return list;
  }

  private current(list: object, n: IronicNode): boolean {
    const started = this.startedAt.get(list) ?? 0;
    const seen = Math.max(this.lastDirect.get(n.uuid) ?? 0, n.name ? (this.lastDirect.get(n.name) ?? 0) : 0);
    return started > seen;
  }
}
