/**
 * `POST machines/?op=allocate` constraints, as MAAS's AcquireNodeForm (src/maasserver/node_constraint_filter_forms.py)
 * cleans and applies them and MachinesHandler.allocate (src/maasserver/api/machines.py) reports a miss.
 */
import { invalid, MaasHttpError, type Params } from "./http-io.js";
import { listParam, parseArchitecture } from "./machine-forms.js";
import type { MaasStore, MachineRecord } from "./store.js";

/** Constraints the lab matches machines against. */
export interface AllocateConstraints {
  readonly systemId?: string;
  readonly name?: string;
  readonly arch?: readonly string[];
  readonly cpuCount?: number;
  readonly memMiB?: number;
  readonly tags: readonly string[];
  readonly notTags: readonly string[];
  readonly zone?: string;
  readonly notInZone: readonly string[];
  readonly pool?: string;
  readonly notInPool: readonly string[];
}

/**
 * Constraints of real MAAS the lab has no model for (networking, storage, pods, devices): the lab refuses them with a
 * field error rather than ignoring them, since ignoring would hand out a machine real MAAS might not.
 */
const UNMODELLED = [
  "subnets",
  "not_subnets",
  "storage",
  "interfaces",
  "fabrics",
  "not_fabrics",
  "fabric_classes",
  "not_fabric_classes",
  "pod",
  "not_pod",
  "pod_type",
  "not_pod_type",
  "devices",
];

function number(p: Params, field: string, message: string, errors: Record<string, string[]>): number | undefined {
  const v = p.get(field);
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) errors[field] = [message];
  return n;
}

function cleanArch(value: string): string {
  try {
    return parseArchitecture(value);
  } catch {
    throw invalid({ arch: ["Architecture not recognised."] });
  }
}

/** Cleans the form as AcquireNodeForm does: numbers, known tags, zones and pools; 400 with its field errors. */
export function parseConstraints(store: MaasStore, p: Params): AllocateConstraints {
  const errors: Record<string, string[]> = {};
  for (const f of UNMODELLED) if (p.get(f)) errors[f] = ["The lab does not model this constraint."];
  const cpuCount = number(p, "cpu_count", "Invalid CPU count: number required.", errors);
  const memMiB = number(p, "mem", "Invalid memory: number of MiB required.", errors);
  const tags = listParam(p, "tags") ?? [];
  const unknownTags = tags.filter((t) => !store.tags.has(t));
  if (unknownTags.length > 0) errors.tags = [`No such tag(s): ${unknownTags.map((t) => `'${t}'`).join(", ")}.`];
  const zone = p.get("zone") || undefined;
  if (zone && !store.zones.has(zone)) errors.zone = [`No such zone: '${zone}'.`];
  const notInZone = p.all("not_in_zone");
  const badZones = notInZone.filter((z) => !store.zones.has(z)).sort();
  if (badZones.length > 0) errors.not_in_zone = [`No such zone(s): ${badZones.join(", ")}.`];
  const pool = p.get("pool") || undefined;
  if (pool && !store.pools.has(pool)) errors.pool = [`No such pool: '${pool}'.`];
  const notInPool = p.all("not_in_pool");
  const badPools = notInPool.filter((x) => !store.pools.has(x)).sort();
  if (badPools.length > 0) errors.not_in_pool = [`No such pool(s): ${badPools.join(", ")}.`];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const arch = p.all("arch").filter((a) => a !== "");
  return {
    systemId: p.get("system_id") || undefined,
    name: p.get("name") || undefined,
    arch: arch.length > 0 ? arch.map(cleanArch) : undefined,
    cpuCount,
    memMiB,
    tags,
    notTags: listParam(p, "not_tags") ?? [],
    zone,
    notInZone,
    pool,
    notInPool,
  };
}

/** Whether a Ready machine meets every constraint (AND, as MAAS combines them). */
export function matches(m: MachineRecord, c: AllocateConstraints): boolean {
  const [host, domain] = (c.name ?? "").split(/\.(.*)/s);
  return (
    (c.systemId === undefined || m.systemId === c.systemId) &&
    (c.name === undefined || (m.hostname === host && (domain === undefined || domain === "maas"))) &&
    (c.arch === undefined || c.arch.includes(m.architecture)) &&
    (!c.cpuCount || m.cpuCount >= c.cpuCount) &&
    (!c.memMiB || m.memoryMiB >= c.memMiB) &&
    c.tags.every((t) => m.tags.includes(t)) &&
    !c.notTags.some((t) => m.tags.includes(t)) &&
    (c.zone === undefined || m.zone.name === c.zone) &&
    !c.notInZone.includes(m.zone.name) &&
    (c.pool === undefined || m.pool.name === c.pool) &&
    !c.notInPool.includes(m.pool.name)
  );
}

/** MAAS picks the cheapest match: cost = cpu_count + memory / 1024 (then the oldest machine). */
export function cheapestFirst(a: MachineRecord, b: MachineRecord): number {
  return a.cpuCount + a.memoryMiB / 1024 - (b.cpuCount + b.memoryMiB / 1024) || a.id - b.id;
}

const float = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

/** The Juju-like `name=value` description of the constraints, sorted by field name (describe_constraints). */
function describe(c: AllocateConstraints): string {
  const parts: [string, string | undefined][] = [
    ["arch", c.arch?.join(",")],
    ["cpu_count", c.cpuCount ? float(c.cpuCount) : undefined],
    ["mem", c.memMiB ? float(c.memMiB) : undefined],
    ["name", c.name],
    ["not_in_pool", c.notInPool.join(",") || undefined],
    ["not_in_zone", c.notInZone.join(",") || undefined],
    ["not_tags", c.notTags.join(",") || undefined],
    ["pool", c.pool],
    ["system_id", c.systemId],
    ["tags", c.tags.join(",") || undefined],
    ["zone", c.zone],
  ];
  return parts
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

// Python's repr of request.data.lists() without op: [('cpu_count', ['64']), ('zone', ['z1'])].
function inputRepr(p: Params): string {
  const items = p
    .names()
    .filter((n, i, all) => n !== "op" && all.indexOf(n) === i)
    .map(
      (n) =>
        `('${n}', [${p
          .all(n)
          .map((v) => `'${v}'`)
          .join(", ")}])`,
    );
  return `[${items.join(", ")}]`;
}

/** The 409 NodesNotAvailable MAAS answers when nothing matches. */
export function noMatch(c: AllocateConstraints, p: Params): MaasHttpError {
  const constraints = describe(c);
  const message =
    constraints === ""
      ? "No machine available."
      : c.systemId !== undefined
        ? `No machine with system ID ${c.systemId} available.`
        : `No available machine matches constraints: ${inputRepr(p)} (resolved to "${constraints}")`;
  return new MaasHttpError(409, message);
}
