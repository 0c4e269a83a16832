/**
 * A stack's nodes as the watch shows them: the chain grouping of plan-summary (`../plan-summary/nodes.ts`) applied to
 * what state holds, plus the nodes the stack's configuration (cdk.tf.json) declares that state does not hold yet, so a
 * rack shows every node from the first second of its apply ("off" until its first resource is recorded).
 */
import { planNodes } from "../plan-summary/nodes.js";
import { recordedChain } from "../plan-summary/now.js";
import type { ConfigResource, PlanJson, ResourceChange } from "../plan-summary/plan-json.js";
import type { ChainLink, RecordedResource } from "../stages.js";
import type { StackRead } from "./sources.js";

/** One node of a stack: its name, its place in the rack, and its chain as state records it. */
export interface StackNode {
  readonly name: string;
  /** The PDU outlet the node is cabled to ("r01-pdu-a/3"), when known. */
  readonly slot: string | undefined;
  /** Which backend its machine is enrolled in, when known. */
  readonly backend: string | undefined;
  readonly chain: Partial<Record<ChainLink, RecordedResource>>;
  /** Its rackform_acceptance attests the node's components (`attestation` declared or recorded). */
  readonly attests: boolean;
}

const TOKEN = /\$\{([a-z0-9_]+)\.([A-Za-z0-9_-]+)(?:\.[^}]*)?\}/g;

function references(value: unknown, out: Set<string>): void {
  if (typeof value === "string") for (const m of value.matchAll(TOKEN)) out.add(`${m[1]}.${m[2]}`);
  else if (Array.isArray(value)) for (const v of value) references(v, out);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) references(v, out);
}

/** Literal values only: a `${…}` token is unknown until the engine resolves it. */
function literals(value: unknown): unknown {
  if (typeof value === "string") return value.includes("${") ? undefined : value;
  if (Array.isArray(value)) return value.map(literals);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literals(v)]));
  }
  return value;
}

/** The rackform resources of a cdk.tf.json, as configuration resources and as changes that create them. */
function fromConfig(config: Record<string, unknown> | undefined): {
  config: ConfigResource[];
  changes: ResourceChange[];
} {
  const out = { config: [] as ConfigResource[], changes: [] as ResourceChange[] };
  const resources = (config?.resource ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [type, byName] of Object.entries(resources)) {
    if (!type.startsWith("rackform_")) continue;
    for (const [name, body] of Object.entries(byName)) {
      const refs = new Set<string>();
      references(body, refs);
      const { depends_on, lifecycle: _l, provider: _p, timeouts: _t, ...attrs } = body;
      const address = `${type}.${name}`;
      const deps = Array.isArray(depends_on) ? depends_on.filter((d): d is string => typeof d === "string") : [];
      out.config.push({ address, type, name, expressions: { all: { references: [...refs] } }, depends_on: deps });
      out.changes.push({
        address,
        mode: "managed",
        type,
        name,
        change: { actions: ["create"], before: null, after: literals(attrs) },
      });
    }
  }
  return out;
}

/** The nodes of one read of a stack, sorted by name (numerically). */
export function stackNodes(read: StackRead): StackNode[] {
  const recorded = new Set<string>();
  const changes: ResourceChange[] = [];
  for (const r of read.resources) {
    if (r.mode !== "managed" || !r.type.startsWith("rackform_")) continue;
    recorded.add(r.address);
    changes.push({
      address: r.address,
      mode: "managed",
      type: r.type,
      name: r.name,
      change: { actions: ["no-op"], before: r.values ?? {}, after: r.values ?? {} },
      ...(r.tainted ? { action_reason: "replace_because_tainted" } : {}),
    });
  }
  const declared = fromConfig(read.config);
  for (const c of declared.changes) if (!recorded.has(c.address)) changes.push(c);
  const plan: PlanJson = {
    format_version: "1.2",
    resource_changes: changes,
    configuration: { root_module: { resources: declared.config } },
    prior_state: { values: { root_module: { resources: [...read.resources] } } },
  };
  const text = (c: ResourceChange | undefined, attr: string) => {
    const v = (c?.change.after as Record<string, unknown> | null)?.[attr];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const outletOf = (c: ResourceChange | undefined) => {
    const id = text(c, "outlet_id");
    const pdu = text(c, "pdu_id");
    return id === undefined ? undefined : pdu ? `${pdu}/${id}` : id;
  };
  const attests = (c: ResourceChange | undefined) => {
    const a = (c?.change.after as Record<string, unknown> | null)?.attestation;
    return typeof a === "object" && a !== null;
  };
  const nodes = planNodes(plan).nodes.map((n) => ({
    name: n.name,
    slot: outletOf(n.changes.get("rackform_pdu_outlet")?.[0]),
    backend: text(n.changes.get("rackform_machine")?.[0], "backend"),
    chain: recordedChain(n),
    attests: attests(n.changes.get("rackform_acceptance")?.[0]),
  }));
  // State holds no U position (Redfish reports none the provider records), so a rack lists its nodes by name.
  return nodes.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
}
