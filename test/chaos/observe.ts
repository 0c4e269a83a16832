/**
 * What the chaos invariants are checked against, read from the lab's own records and the engine's output — never
 * from the provider's word: backend machines (MAAS, Ironic), Redfish writes per node from the lab's request log,
 * the engine's `-json` stream (planned changes, diagnostics), and provider processes from /proc.
 */
import { readdir, readFile } from "node:fs/promises";
import { MAAS_STATUS, MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";

/** One machine of the backend, with what identifies its node. */
export interface BackendMachine {
  readonly id: string;
  readonly name: string;
  readonly macs: readonly string[];
  /** The BMC address the backend powers it through (host of the Redfish URL). */
  readonly bmc: string;
  /** Taken by a deployment (MAAS Allocated/Deploying/Deployed; Ironic instance set, or deploying/active). */
  readonly taken: boolean;
  /** Held out of service by the backend (MAAS Broken or Failed testing, Ironic maintenance): the reason, else undefined. */
  readonly quarantined?: string;
}

function hostOf(address: string | undefined): string {
  if (!address) return "";
  try {
    return new URL(address.includes("://") ? address : `https://${address}`).host;
  } catch {
    return address;
  }
}

/** Every machine the backend holds now. */
export async function backendMachines(lab: Lab, backend: "maas" | "ironic"): Promise<BackendMachine[]> {
  if (backend === "maas") {
    const client = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      const taken: number[] = [
        MAAS_STATUS.ALLOCATED,
        MAAS_STATUS.RESERVED,
        MAAS_STATUS.DEPLOYING,
        MAAS_STATUS.DEPLOYED,
      ];
      return (await client.listMachines()).map((m) => ({
        id: m.systemId,
        name: m.hostname,
        macs: m.macAddresses.map((x) => x.toLowerCase()),
        bmc: hostOf(lab.backends!.maas.machine(m.systemId)?.powerParams.power_address),
        taken: taken.includes(m.status),
        quarantined:
          m.status === MAAS_STATUS.BROKEN
            ? m.statusMessage || m.description || "Broken"
            : m.status === MAAS_STATUS.FAILED_TESTING
              ? m.description || m.statusMessage || "Failed testing"
              : undefined,
      }));
    } finally {
      await client.close();
    }
  }
  const get = async (path: string) => {
    const r = await fetch(`${lab.info.ironic!.url}${path}`, { headers: { "X-OpenStack-Ironic-API-Version": "1.87" } });
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const nodes = (await get("/v1/nodes?detail=true")).nodes as Record<string, unknown>[];
  const ports = (await get("/v1/ports?detail=true")).ports as { node_uuid: string; address: string }[];
  return nodes.map((n) => ({
    id: String(n.uuid),
    name: String(n.name),
    macs: ports.filter((p) => p.node_uuid === n.uuid).map((p) => p.address.toLowerCase()),
    bmc: hostOf((n.driver_info as Record<string, string> | null)?.redfish_address),
    taken: n.instance_uuid !== null || ["deploying", "wait call-back", "active"].includes(String(n.provision_state)),
    quarantined: n.maintenance === true ? String(n.maintenance_reason ?? "maintenance") : undefined,
  }));
}

/** Ironic allocations (rackform deploys without them: any left is an orphan). */
export async function ironicAllocations(lab: Lab): Promise<number> {
  const r = await fetch(`${lab.info.ironic!.url}/v1/allocations`, {
    headers: { "X-OpenStack-Ironic-API-Version": "1.87" },
  });
  return ((await r.json()) as { allocations: unknown[] }).allocations.length;
}

/** A write (not GET/HEAD, not a session login/logout) that reached a node's BMC or its PDU outlet. */
export interface NodeWrite {
  readonly node: string;
  readonly method: string;
  readonly path: string;
}

/** Writes per node in the lab's Redfish log after `since`; PDU outlet writes are mapped to the node they feed. */
export function nodeWrites(lab: Lab, since: number): NodeWrite[] {
  const byOutlet = new Map(lab.info.nodes.map((n) => [`${n.pdu}/${n.outlet}`, n.name]));
  const nodes = new Set(lab.info.nodes.map((n) => n.name));
  const out: NodeWrite[] = [];
  for (const e of lab.requests.since(since)) {
    if (e.method === "GET" || e.method === "HEAD" || e.path.includes("/SessionService/Sessions")) continue;
    const outlet = /\/RackPDUs\/([^/]+)\/Outlets\/([^/]+)/.exec(e.path);
    const node = outlet ? byOutlet.get(`${outlet[1]}/${outlet[2]}`) : e.target && nodes.has(e.target) ? e.target : "";
    if (node) out.push({ node, method: e.method, path: e.path });
  }
  return out;
}

/** What a backend was asked to do to a node that a health step does (only successful requests count). */
export type BackendAction = "power-cycle" | "power-on" | "reimage" | "deploy" | "gate";

/** One such request, in the order its backend received it. */
export interface NodeAction {
  readonly node: string;
  readonly action: BackendAction;
}

/** Where each backend's request log stood (marks to read actions since). */
export interface BackendMarks {
  readonly maas: number;
  readonly ironic: number;
}

/** The backends' request logs' lengths now. */
export function backendMarks(lab: Lab): BackendMarks {
  return { maas: lab.backends!.maas.requests.length, ironic: lab.backends!.ironic.requests.length };
}

/**
 * Power cycles, reimages and gate runs the backend was asked for since `marks`, by node: MAAS op=power_off (only a
 * remediation power cycle powers a deployed machine off), op=power_on, op=release and op=deploy (a reimage's halves),
 * op=test (a gate run); Ironic states/power "rebooting" and "power on", states/provision "deleted" and "active", and
 * "service" (the gate's step). A power cycle of a host found off is only its power-on.
 */
export function backendActions(
  lab: Lab,
  backend: "maas" | "ironic",
  marks: BackendMarks,
  machines: readonly BackendMachine[],
): NodeAction[] {
  const byId = new Map(machines.flatMap((m) => [[m.id, m.name] as const, [m.name, m.name] as const]));
  const out: NodeAction[] = [];
  if (backend === "maas") {
    const ops: Record<string, BackendAction> = {
      power_off: "power-cycle",
      power_on: "power-on",
      release: "reimage",
      deploy: "deploy",
      test: "gate",
    };
    for (const q of lab.backends!.maas.requests.slice(marks.maas)) {
      const id = /\/machines\/([^/]+)\/?$/.exec(q.path)?.[1];
      const action = q.op ? ops[q.op] : undefined;
      const node = id ? byId.get(id) : undefined;
      if (q.method === "POST" && action && node && q.status < 300) out.push({ node, action });
    }
    return out;
  }
  const targets: Record<string, BackendAction> = {
    rebooting: "power-cycle",
    "power on": "power-on",
    deleted: "reimage",
    active: "deploy",
    service: "gate",
  };
  for (const q of lab.backends!.ironic.requests.slice(marks.ironic)) {
    const id = /^\/v1\/nodes\/([^/]+)\/states\/(power|provision)$/.exec(q.path)?.[1];
    const action = q.target ? targets[q.target] : undefined;
    const node = id ? byId.get(decodeURIComponent(id)) : undefined;
    if (q.method === "PUT" && action && node && q.status < 300) out.push({ node, action });
  }
  return out;
}

/** Requests every lab service has received so far (the runner's progress clock). */
export function labRequests(lab: Lab): number {
  const b = lab.backends!;
  return (
    lab.requests.last() +
    b.maas.requests.length +
    b.ironic.requests.length +
    b.slurm.requests.length +
    b.kubernetes.requests.length
  );
}

/** One error or warning the engine reported (`-json` stream). */
export interface Diagnostic {
  readonly severity: string;
  readonly summary: string;
  readonly detail: string;
  readonly address?: string;
}

/** What an apply's `-json` stream says: resources with planned changes, diagnostics, resources whose apply errored. */
export interface ApplyStream {
  readonly planned: ReadonlySet<string>;
  readonly diagnostics: readonly Diagnostic[];
  readonly errored: ReadonlySet<string>;
  /** Per resource address: its planned action, then each apply hook the engine reported (a trail for a replay). */
  readonly trail: ReadonlyMap<string, readonly string[]>;
}

/** Parses an engine's `-json` output (one JSON object a line; other lines ignored). */
export function parseStream(stdout: string): ApplyStream {
  const planned = new Set<string>();
  const errored = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const trail = new Map<string, string[]>();
  const note = (addr: string | undefined, what: string) => {
    if (addr) trail.set(addr, [...(trail.get(addr) ?? []), what]);
  };
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const res = (x: unknown) => (x as { resource?: { addr?: string } } | undefined)?.resource?.addr;
    if (m.type === "planned_change") {
      const c = m.change as { action?: string } | undefined;
      const addr = res(m.change);
      if (addr && c?.action !== "noop") planned.add(addr);
      note(addr, `planned ${c?.action ?? "?"}`);
    } else if (m.type === "apply_errored") {
      const addr = res(m.hook);
      if (addr) errored.add(addr);
      note(addr, "errored");
    } else if (m.type === "apply_start" || m.type === "apply_complete") {
      note(res(m.hook), m.type === "apply_start" ? "started" : "completed");
    } else if (m.type === "diagnostic") {
      const d = m.diagnostic as Record<string, unknown>;
      diagnostics.push({
        severity: String(d.severity ?? ""),
        summary: String(d.summary ?? ""),
        detail: String(d.detail ?? ""),
        address: typeof d.address === "string" ? d.address : undefined,
      });
    }
  }
  return { planned, diagnostics, errored, trail };
}

/** Pids of provider processes (`main` in their command line) whose parent is `ppid`. */
export async function providerChildren(main: string, ppid: number): Promise<number[]> {
  const out: number[] = [];
  for (const d of await readdir("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!(await readFile(`/proc/${d}/cmdline`, "utf8")).split("\0").includes(main)) continue;
      if (parentOf(await readFile(`/proc/${d}/stat`, "utf8")) === ppid) out.push(Number(d));
    } catch {
      // it ended while we looked
    }
  }
  return out;
}

function parentOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** CPU ticks (utime + stime) a process has used, or undefined once it has exited (or is a zombie). */
export async function cpuTicks(pid: number): Promise<number | undefined> {
  try {
    const f = (await readFile(`/proc/${pid}/stat`, "utf8")).slice(0).split(")").pop()!.trim().split(" ");
    if (f[0] === "Z") return undefined;
    return Number(f[11]) + Number(f[12]);
  } catch {
    return undefined;
  }
}

/** The pids of `pids` still running 10 s after a kill of their engine (polled every 100 ms; none once all exit). */
export async function leftAfterKill(pids: readonly number[]): Promise<number[]> {
  const end = Date.now() + 10_000;
  let alive = [...pids];
  while (alive.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    alive = (await Promise.all(alive.map(async (p) => ((await cpuTicks(p)) === undefined ? 0 : p)))).filter(Boolean);
  }
  return alive;
}
