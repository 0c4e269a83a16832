/**
 * "Changed outside rackform": the plan's `resource_drift` (what the refresh found changed since the last apply) as the
 * causes a reviewer reads beside the planned fix — an outlet switched off, a BMC no longer conformant, a GPU gone, a
 * host powered off, a node drained by hand. Values the engine marks sensitive never show; complex values (GPU and MAC
 * lists) are named, not printed.
 */
import { CHAIN_TYPES, type ChainType } from "./nodes.js";
import type { PlanJson, ResourceChange } from "./plan-json.js";
import { attr, display, knownText, type Shown } from "./values.js";

/** One node's (or an unnamed resource's) changes made outside rackform, as "outlet power_state On → Off". */
export interface DriftNode {
  readonly name: string;
  readonly causes: readonly string[];
}

/** How a cause names the resource it was found on. */
const OWNER: Readonly<Record<ChainType, string>> = {
  rackform_pdu_outlet: "outlet",
  rackform_bmc: "BMC",
  rackform_dpu: "DPU",
  rackform_firmware: "firmware",
  rackform_machine: "machine",
  rackform_deployment: "host",
  rackform_acceptance: "acceptance",
  rackform_cluster_member: "cluster",
};

/**
 * The attributes whose drift is a cause, per type. Left out: what rackform's own steps change and the record keeps
 * from an earlier step (the BMC's power_state read before the deployment powered the host on; the machine's status
 * read at enrollment, before the deployment), which would bury the changes that matter.
 */
const CAUSES: Readonly<Record<ChainType, readonly string[]>> = {
  rackform_pdu_outlet: ["power_state"],
  rackform_bmc: [
    "conformant",
    "gpu_count",
    "gpus",
    "macs",
    "firmware",
    "serial",
    "model",
    "memory_gib",
    "cpu_count",
    "boot_source_override_target",
    "boot_source_override_enabled",
  ],
  rackform_dpu: ["mode", "bfb"],
  rackform_firmware: ["versions", "bios_settings", "secure_boot_status"],
  rackform_machine: ["state"],
  rackform_deployment: ["power_state", "deployed_image", "status"],
  rackform_acceptance: ["passed"],
  rackform_cluster_member: ["joined", "state"],
};

/** Maps whose drift reads entry by entry: a BMC's firmware, a firmware baseline's versions and BIOS settings. */
const MAPS = new Set(["firmware", "versions", "bios_settings"]);

/** Machine and deployment states a deployment of this configuration moves to itself: not a hand change. */
const OWN_STATES = new Set(["deployed", "Deployed", "active"]);

const isChainType = (t: string): t is ChainType => (CHAIN_TYPES as readonly string[]).includes(t);

/** Top-level attributes whose values differ between before and after, in the order the change lists them. */
function differing(c: ResourceChange): string[] {
  const before = (c.change.before ?? {}) as Record<string, unknown>;
  const after = (c.change.after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

/** "firmware HostBIOS_0 1.6.7 → 1.7.0" for each component of a map that changed; sensitive ones stay hidden. */
function mapCauses(c: ResourceChange, owner: string, name: string, installed: ReadonlySet<string>): string[] {
  const side = (v: unknown) => ((v as Record<string, unknown> | null)?.[name] ?? {}) as Record<string, unknown>;
  const [before, after] = [side(c.change.before), side(c.change.after)];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  // A BMC's firmware moved to a version the node's own baseline installs: rackform_firmware did it, not a hand.
  const ours = (k: string) => c.type === "rackform_bmc" && installed.has(String(after[k]));
  return [...keys]
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) && !ours(k))
    .sort()
    .map(
      (k) =>
        `${owner} ${name} ${k} ${display(attr(c.change, "before", name, k))} → ${display(attr(c.change, "after", name, k))}`,
    );
}

/** "firmware Secure Boot enforced → off", "firmware Secure Boot entries missing: 1" as the refresh found them. */
function secureBootDrift(c: ResourceChange, owner: string): string[] {
  type S = { enabled?: unknown; current_boot?: unknown; missing?: unknown } | null | undefined;
  const side = (v: unknown) => (v as Record<string, S> | null)?.secure_boot_status;
  const [a, b] = [side(c.change.before), side(c.change.after)];
  const word = (x: S) => (x?.enabled === true ? (x.current_boot === "Enabled" ? "on" : "on at next boot") : "off");
  const out = word(a) !== word(b) ? [`${owner} Secure Boot ${word(a)} → ${word(b)}`] : [];
  const n = (x: S) => (Array.isArray(x?.missing) ? x.missing.length : 0);
  if (n(b) > n(a)) out.push(`${owner} Secure Boot entries missing: ${n(b)}`);
  return out.length > 0 ? out : [`${owner} Secure Boot status changed`];
}

/** The causes one drifted resource shows; `retried`: its node retries a step that failed in the last apply. */
function causesOf(
  c: ResourceChange,
  relevant: ReadonlySet<string>,
  retried: boolean,
  installed: ReadonlySet<string>,
): string[] {
  if (!isChainType(c.type)) return [];
  const owner = OWNER[c.type];
  if (c.change.after === null || c.change.after === undefined) return [`${owner} deleted outside rackform`];
  const out: string[] = [];
  const changed = differing(c);
  for (const name of changed) {
    if (!CAUSES[c.type].includes(name) && !relevant.has(name)) continue;
    if (name === "gpus" && changed.includes("gpu_count")) continue; // the count says it
    const to = attr(c.change, "after", name);
    if ((c.type === "rackform_machine" || c.type === "rackform_deployment") && name !== "power_state") {
      // deployed by this configuration, or failed in the last apply's own step (its retry says so): not by hand
      if (OWN_STATES.has(knownText(to) ?? "") || retried) continue;
    }
    const from = attr(c.change, "before", name);
    const scalar = (s: Shown) => s.kind !== "known" || knownText(s) !== undefined;
    if (name === "secure_boot_status") {
      out.push(...secureBootDrift(c, owner));
    } else if (name === "bfb") {
      // the url and sha256 are the configuration's; what the DPU reports is the version it runs
      const v = (side: "before" | "after") => display(attr(c.change, side, "bfb", "version"));
      out.push(v("before") === v("after") ? `${owner} BFB changed` : `${owner} BFB ${v("before")} → ${v("after")}`);
    } else if (display(from) === display(to)) out.push(`${owner} ${name} changed`);
    else if (scalar(from) && scalar(to)) out.push(`${owner} ${name} ${display(from)} → ${display(to)}`);
    else if (MAPS.has(name)) out.push(...mapCauses(c, owner, name, installed));
    else {
      const len = (s: Shown) => (s.kind === "known" && Array.isArray(s.value) ? s.value.length : undefined);
      const [a, b] = [len(from), len(to)];
      out.push(
        a !== b && a !== undefined && b !== undefined ? `${owner} ${name}: ${a} → ${b}` : `${owner} ${name} changed`,
      );
    }
  }
  return out;
}

/** The versions each node's rackform_firmware installs (its configured components), by node name. */
function baselineVersions(plan: PlanJson, nameOf: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of plan.resource_changes ?? []) {
    if (c.type !== "rackform_firmware") continue;
    const name = nameOf.get(c.address) ?? c.address;
    const components = ((c.change.after ?? {}) as { components?: Record<string, { version?: unknown }> }).components;
    const versions = Object.values(components ?? {}).map((t) => String(t?.version));
    out.set(name, new Set([...(out.get(name) ?? []), ...versions]));
  }
  return out;
}

/**
 * The drift of a plan by node, nodes in name order, causes in chain order. A cause is an attribute of CAUSES, or one the engine itself calls
 * relevant (`relevant_attributes`: the planned changes depend on it), or a resource deleted outside rackform.
 */
export function driftByNode(
  plan: PlanJson,
  nameOf: ReadonlyMap<string, string>,
  retried: ReadonlySet<string> = new Set(),
): DriftNode[] {
  const relevant = new Map<string, Set<string>>();
  for (const r of plan.relevant_attributes ?? []) {
    const attrs = relevant.get(r.resource) ?? new Set<string>();
    relevant.set(r.resource, attrs);
    if (r.attribute.length > 0) attrs.add(String(r.attribute[0]));
  }
  const installed = baselineVersions(plan, nameOf);
  const byNode = new Map<string, string[]>();
  const rank = (c: ResourceChange) => (CHAIN_TYPES as readonly string[]).indexOf(c.type);
  // the chain's order: an outlet switched off reads before the BMC it silenced
  const drift = [...(plan.resource_drift ?? [])].sort((a, b) => rank(a) - rank(b));
  for (const c of drift) {
    if (c.mode !== "managed" || c.change.actions.every((a) => a === "no-op" || a === "read")) continue;
    const name = nameOf.get(c.address) ?? c.address;
    const causes = causesOf(
      c,
      relevant.get(c.address) ?? new Set(),
      retried.has(name),
      installed.get(name) ?? new Set(),
    );
    if (causes.length === 0) continue;
    byNode.set(name, [...(byNode.get(name) ?? []), ...causes]);
  }
  return [...byNode.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([name, causes]) => ({ name, causes }));
}
