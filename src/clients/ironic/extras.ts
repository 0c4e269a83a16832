/** Ironic ports and allocations. */
import { abortedError } from "../http/failures.js";
import { abortableSleep } from "../http/retry.js";
import type { Redactor } from "../redact.js";
import { IronicError } from "./errors.js";
import { parseAllocation, parseAllocationList, parsePort, parsePortList, sameOriginPath } from "./parse.js";
import type { IronicTransport } from "./transport.js";
import type { IronicAllocation, IronicPort, JsonPatchOp } from "./types.js";

/** Input of createPort. */
export interface IronicPortCreate {
  readonly nodeUuid: string;
  readonly address: string;
  readonly pxeEnabled?: boolean;
  readonly physicalNetwork?: string;
  readonly localLinkConnection?: Readonly<Record<string, unknown>>;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Input of createAllocation. */
export interface IronicAllocationCreate {
  readonly name?: string;
  readonly resourceClass?: string;
  readonly traits?: readonly string[];
  readonly candidateNodes?: readonly string[];
  /** Backfill: record an allocation for a node deployed without one (1.58). */
  readonly node?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Ports and allocations of one Ironic. */
export class IronicExtras {
  constructor(
    private readonly t: IronicTransport,
    private readonly redactor: Redactor,
    private readonly clock: {
      readonly now?: () => number;
      readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
    } = {},
  ) {}

  /** Creates a port (a NIC MAC) on a node. */
  async createPort(p: IronicPortCreate, signal?: AbortSignal): Promise<IronicPort> {
    const json = {
      node_uuid: p.nodeUuid,
      address: p.address,
      ...(p.pxeEnabled !== undefined ? { pxe_enabled: p.pxeEnabled } : {}),
      ...(p.physicalNetwork !== undefined ? { physical_network: p.physicalNetwork } : {}),
      ...(p.localLinkConnection ? { local_link_connection: p.localLinkConnection } : {}),
      ...(p.extra ? { extra: p.extra } : {}),
    };
    return parsePort(this.t.json(await this.t.send("POST", "/v1/ports", { json, signal })));
  }

  /** One port by uuid. */
  async getPort(uuid: string, signal?: AbortSignal): Promise<IronicPort> {
    return parsePort(this.t.json(await this.t.send("GET", `/v1/ports/${encodeURIComponent(uuid)}`, { signal })));
  }

  /** Ports (detailed), of one node or with one MAC when given; one call serves many nodes. */
  async listPorts(
    q: { readonly node?: string; readonly address?: string; readonly signal?: AbortSignal } = {},
  ): Promise<IronicPort[]> {
    const p = new URLSearchParams({ detail: "true" });
    if (q.node) p.set("node", q.node);
    if (q.address) p.set("address", q.address);
    const out: IronicPort[] = [];
    let path: string | undefined = `/v1/ports?${p}`;
    while (path) {
      const page = parsePortList(this.t.json(await this.t.send("GET", path, { signal: q.signal })));
      out.push(...page.ports);
      path = page.next ? sameOriginPath(page.next, this.t.origin) : undefined;
    }
    return out;
  }

  /** Applies an RFC 6902 patch to a port. */
  async updatePort(uuid: string, patch: readonly JsonPatchOp[], signal?: AbortSignal): Promise<IronicPort> {
    return parsePort(
      this.t.json(await this.t.send("PATCH", `/v1/ports/${encodeURIComponent(uuid)}`, { json: patch, signal })),
    );
  }

  /** Deletes a port; an absent port counts as deleted. */
  async deletePort(uuid: string, signal?: AbortSignal): Promise<void> {
    await this.t.send("DELETE", `/v1/ports/${encodeURIComponent(uuid)}`, { signal, alsoOk: [404] });
  }

  /** Requests a node by resource class and traits; the conductor picks one asynchronously (waitForAllocation). */
  async createAllocation(a: IronicAllocationCreate, signal?: AbortSignal): Promise<IronicAllocation> {
    const json = {
      ...(a.name !== undefined ? { name: a.name } : {}),
      ...(a.resourceClass !== undefined ? { resource_class: a.resourceClass } : {}),
      ...(a.traits ? { traits: a.traits } : {}),
      ...(a.candidateNodes ? { candidate_nodes: a.candidateNodes } : {}),
      ...(a.node !== undefined ? { node: a.node } : {}),
      ...(a.extra ? { extra: a.extra } : {}),
    };
    return parseAllocation(this.t.json(await this.t.send("POST", "/v1/allocations", { json, signal })));
  }

  /** One allocation by uuid or name. */
  async getAllocation(id: string, signal?: AbortSignal): Promise<IronicAllocation> {
    return parseAllocation(
      this.t.json(await this.t.send("GET", `/v1/allocations/${encodeURIComponent(id)}`, { signal })),
    );
  }

  /** Every allocation. */
  async listAllocations(signal?: AbortSignal): Promise<IronicAllocation[]> {
    return parseAllocationList(this.t.json(await this.t.send("GET", "/v1/allocations", { signal })));
  }

  /** Deletes an allocation (releasing its node); an absent one counts as deleted. */
  async deleteAllocation(id: string, signal?: AbortSignal): Promise<void> {
    await this.t.send("DELETE", `/v1/allocations/${encodeURIComponent(id)}`, { signal, alsoOk: [404] });
  }

  /** Polls until the allocation is active (resolves) or error (RACKFORM_ERR_IRONIC_PROVISION_FAILED with last_error). */
  async waitForAllocation(
    id: string,
    o: { readonly timeoutMs?: number; readonly pollMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<IronicAllocation> {
    const now = this.clock.now ?? Date.now;
    const timeoutMs = o.timeoutMs ?? 300_000;
    const deadline = now() + timeoutMs;
    for (;;) {
      const a = await this.getAllocation(id, o.signal);
      if (a.state === "active") return a;
      if (a.state === "error") {
        throw this.redactor.scrub(
          new IronicError(
            "RACKFORM_ERR_IRONIC_PROVISION_FAILED",
            `allocation ${a.name ?? a.uuid} failed: ${a.lastError ?? "no last_error"}`,
            {},
            { uuid: a.uuid, state: a.state, lastError: a.lastError },
          ),
        );
      }
      if (now() >= deadline) {
        throw new IronicError(
          "RACKFORM_ERR_IRONIC_PROVISION_TIMEOUT",
          `allocation ${a.name ?? a.uuid} is still ${a.state} after ${timeoutMs} ms`,
          {},
          { uuid: a.uuid, state: a.state },
        );
      }
      try {
        await (this.clock.sleep ?? abortableSleep)(
          Math.min(o.pollMs ?? 1_000, Math.max(0, deadline - now())),
          o.signal,
        );
      } catch (e) {
        throw abortedError(this.redactor, { method: "GET", url: `allocation ${id}` }, e);
      }
    }
  }
}
