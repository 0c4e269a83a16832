/**
 * Which planned changes belong to which node. Resource names cannot tell (HCL says `rackform_machine.r12_u07`, CDKTF
 * says `rackform_machine.Rack_r12_u07_machine_1A2B3C4D`), so the chain is rebuilt from the plan itself: references in
 * `configuration` (deployment.machine_id → machine, member.gate_id → acceptance, bmc depends_on outlet, machine
 * depends_on its DPUs, …) and equal
 * attribute values (firmware.endpoint = bmc.endpoint, deployment.machine_id = machine.id, machine.name = member.node, …), and for resources removed from
 * the configuration by the dependencies the engine recorded in state (a removed node's BMC `depends_on` its outlet),
 * so that a removed node's outlet is part of that node, not a node of its own.
 */
import type { ConfigModule, PlanJson, ResourceChange, StateModule } from "./plan-json.js";
import { attr, current, knownText } from "./values.js";

/** The resource types of a node's chain, in the order a node walks them. */
export const CHAIN_TYPES = [
  "rackform_pdu_outlet",
  "rackform_bmc",
  "rackform_dpu",
  "rackform_firmware",
  "rackform_machine",
  "rackform_deployment",
  "rackform_acceptance",
  "rackform_cluster_member",
] as const;

/** One type of the chain. */
export type ChainType = (typeof CHAIN_TYPES)[number];

/** One node: its name, its PDU (when the plan has its outlet) and its chain's changes by type. */
export interface PlanNode {
  readonly name: string;
  readonly pdu: string | undefined;
  readonly changes: ReadonlyMap<ChainType, readonly ResourceChange[]>;
}

const isChain = (t: string): t is ChainType => (CHAIN_TYPES as readonly string[]).includes(t);

/** Equal values that tie two resources of a node: [type, attribute] on one side, [type, attribute] on the other. */
const VALUE_LINKS: readonly (readonly [ChainType, string, ChainType, string])[] = [
  ["rackform_bmc", "endpoint", "rackform_machine", "bmc_endpoint"],
  ["rackform_bmc", "endpoint", "rackform_dpu", "host_endpoint"],
  ["rackform_bmc", "endpoint", "rackform_firmware", "endpoint"],
  ["rackform_machine", "id", "rackform_deployment", "machine_id"],
  ["rackform_deployment", "id", "rackform_acceptance", "machine_id"],
  ["rackform_acceptance", "id", "rackform_cluster_member", "gate_id"],
  ["rackform_machine", "name", "rackform_cluster_member", "node"],
];

class UnionFind {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]];
      i = this.parent[i];
    }
    return i;
  }
  union(a: number, b: number): void {
    this.parent[this.find(a)] = this.find(b);
  }
}

/** `module.a["x"].rackform_b.c[0]` → `module.a.rackform_b.c`: the configuration's address of an instance. */
const configAddress = (address: string): string => address.replace(/\[[^\]]*\]/g, "");

/** `module.a["x"].rackform_b.c["n1"]` → `["x"]["n1"]`: which instance of its block an address is. */
const instanceKey = (address: string): string => (address.match(/\[[^\]]*\]/g) ?? []).join("");

function collectReferences(expr: unknown, out: string[]): void {
  if (Array.isArray(expr)) for (const e of expr) collectReferences(e, out);
  else if (typeof expr === "object" && expr !== null) {
    for (const [k, v] of Object.entries(expr)) {
      if (k === "references" && Array.isArray(v)) out.push(...v.filter((r): r is string => typeof r === "string"));
      else collectReferences(v, out);
    }
  }
}

/** Edges between configuration addresses: each resource to every resource it references or depends on. */
function configEdges(mod: ConfigModule | undefined, prefix: string, out: [string, string][]): void {
  for (const r of mod?.resources ?? []) {
    const refs: string[] = [...(r.depends_on ?? [])];
    collectReferences(r.expressions, refs);
    for (const ref of refs) {
      const [type, name] = ref.split(".");
      if (type && name && isChain(type)) out.push([`${prefix}${r.address}`, `${prefix}${type}.${name}`]);
    }
  }
  for (const [name, call] of Object.entries(mod?.module_calls ?? {})) {
    configEdges(call.module, `${prefix}module.${name}.`, out);
  }
}

/** `module.a.rackform_b.c` → is its resource type one of the chain's. */
const chainAddress = (address: string): boolean => {
  const parts = address.split(".");
  return parts.length >= 2 && isChain(parts[parts.length - 2]);
};

/** Edges from the state's recorded dependencies (absolute addresses; instance keys dropped as in configuration). */
function stateEdges(mod: StateModule | undefined, out: [string, string][]): void {
  for (const r of mod?.resources ?? []) {
    for (const dep of r.depends_on ?? []) {
      if (chainAddress(configAddress(dep))) out.push([configAddress(r.address), configAddress(dep)]);
    }
  }
  for (const child of mod?.child_modules ?? []) stateEdges(child, out);
}

function nodeName(changes: ReadonlyMap<ChainType, readonly ResourceChange[]>): string {
  const first = (t: ChainType) => changes.get(t)?.[0];
  const text = (t: ChainType, attr: string) => {
    const c = first(t);
    return c ? knownText(current(c.change, attr)) : undefined;
  };
  const outlet = first("rackform_pdu_outlet");
  const outletLabel = outlet
    ? [text("rackform_pdu_outlet", "pdu_id"), text("rackform_pdu_outlet", "outlet_id")].filter(Boolean).join(" outlet ")
    : undefined;
  const any = CHAIN_TYPES.map(first).find((c) => c !== undefined);
  return (
    text("rackform_machine", "name") ??
    text("rackform_cluster_member", "node") ??
    text("rackform_bmc", "endpoint") ??
    (outletLabel || undefined) ??
    any?.address ??
    "(unnamed)"
  );
}

function pduOf(changes: ReadonlyMap<ChainType, readonly ResourceChange[]>): string | undefined {
  const outlet = changes.get("rackform_pdu_outlet")?.[0];
  if (!outlet) return undefined;
  return knownText(current(outlet.change, "pdu_id")) ?? knownText(current(outlet.change, "endpoint"));
}

/** An endpoint as one address however it is spelled (trailing slash, default port, host case); other text as is. */
function sameAddress(v: string): string {
  if (!/^https?:\/\//i.test(v)) return v;
  try {
    return new URL(v).origin;
  } catch {
    return v;
  }
}

/** Groups the plan's managed chain resources into nodes; anything else is returned apart as `others`. */
export function planNodes(plan: PlanJson): { nodes: PlanNode[]; others: ResourceChange[] } {
  const all = plan.resource_changes ?? [];
  const chain = all.filter((c) => c.mode === "managed" && isChain(c.type));
  const others = all.filter((c) => !(c.mode === "managed" && isChain(c.type)));
  const uf = new UnionFind(chain.length);

  // With count or for_each a reference names every instance at once: it ties only the instances of equal keys
  // (the usual `for_each = var.nodes` on every resource of the chain), or two single instances.
  const byConfig = new Map<string, Map<string, number>>();
  chain.forEach((c, i) => {
    const key = configAddress(c.address);
    const instances = byConfig.get(key) ?? new Map<string, number>();
    byConfig.set(key, instances.set(instanceKey(c.address), i));
  });
  const edges: [string, string][] = [];
  configEdges(plan.configuration?.root_module, "", edges);
  stateEdges(plan.prior_state?.values?.root_module, edges);
  for (const [from, to] of edges) {
    const a = byConfig.get(from);
    const b = byConfig.get(to);
    if (!a || !b) continue;
    if (a.size === 1 && b.size === 1) uf.union([...a.values()][0], [...b.values()][0]);
    else for (const [k, i] of a) if (b.has(k)) uf.union(i, b.get(k)!);
  }

  for (const [typeA, attrA, typeB, attrB] of VALUE_LINKS) {
    const seen = new Map<string, number>();
    const values = (c: ResourceChange, name: string) =>
      [current(c.change, name), attr(c.change, "before", name)]
        .map(knownText)
        .filter((v): v is string => v !== undefined && v !== "")
        .map(sameAddress);
    chain.forEach((c, i) => {
      if (c.type === typeA) for (const v of values(c, attrA)) seen.set(v, i);
    });
    chain.forEach((c, i) => {
      if (c.type !== typeB) return;
      for (const v of values(c, attrB)) {
        const j = seen.get(v);
        if (j !== undefined) uf.union(i, j);
      }
    });
  }

  const groups = new Map<number, Map<ChainType, ResourceChange[]>>();
  chain.forEach((c, i) => {
    const root = uf.find(i);
    const g = groups.get(root) ?? new Map<ChainType, ResourceChange[]>();
    groups.set(root, g);
    const type = c.type as ChainType;
    g.set(type, [...(g.get(type) ?? []), c]);
  });
  const nodes = [...groups.values()].map((changes) => ({ name: nodeName(changes), pdu: pduOf(changes), changes }));
  nodes.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  return { nodes, others };
}
