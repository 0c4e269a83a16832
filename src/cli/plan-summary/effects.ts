/**
 * What each planned change means for the node, in the words an operator reviews a pull request with: a table cell
 * ("reimage 2026.06.2 → 2026.07.1") and the events it counts ("reimage", "leave", …).
 */

import { changedAttrs, kindOf, tainted, updated } from "./change-kind.js";
import { firmware } from "./firmware.js";
import type { ChainType, PlanNode } from "./nodes.js";
import type { ResourceChange } from "./plan-json.js";
import { deploymentRung } from "./remediation.js";
import { acceptance, cluster } from "./service.js";
import { attr, current, display, knownText } from "./values.js";

/** An event counted per rack; the disruptive ones raise the warning banner. */
export type NodeEvent =
  | "power-cycle"
  | "power-off"
  | "power-on"
  | "dpu-setup"
  | "dpu-mode"
  | "bfb-install"
  | "firmware-baseline"
  | "firmware"
  | "enroll"
  | "re-enroll"
  | "rename"
  | "release"
  | "deploy"
  | "reimage"
  | "undeploy"
  | "repair"
  | "acceptance"
  | "join"
  | "rejoin"
  | "leave";

/** Events that take a running node out of service or wipe it. */
export const DISRUPTIVE: ReadonlySet<NodeEvent> = new Set<NodeEvent>([
  "power-cycle",
  "power-off",
  "dpu-mode",
  "firmware",
  "re-enroll",
  "rename",
  "release",
  "reimage",
  "undeploy",
  "repair",
  "rejoin",
  "leave",
]);

/** The table columns, one per step of the chain. */
export type Column = "power" | "bmc" | "dpu" | "firmware" | "machine" | "image" | "acceptance" | "cluster";

/** What the plan does to one node. */
export interface NodeEffects {
  readonly name: string;
  readonly pdu: string | undefined;
  readonly cells: ReadonlyMap<Column, string>;
  readonly events: ReadonlySet<NodeEvent>;
  /** Some change re-runs a step because the last apply failed there (the engine tainted the resource). */
  readonly retried: boolean;
  /** The node's old and new name when the plan renames its machine (a replacement: re-enrolled and reimaged). */
  readonly renamed?: { readonly from: string; readonly to: string };
}

/**
 * "BMC address https://10.0.1.7 → https://10.2.1.7" when an update moves the device to another address (the
 * provider plans nothing for another spelling of the same one), else undefined. A re-address is an in-place update:
 * nothing is power-cycled, reimaged or drained, so it raises no event.
 */
function readdress(c: ResourceChange, attribute: string, device: string): string | undefined {
  const from = attr(c.change, "before", attribute);
  const to = attr(c.change, "after", attribute);
  if (from.kind !== "known" || JSON.stringify(from) === JSON.stringify(to)) return undefined;
  return `${device} address ${display(from)} → ${display(to)}`;
}

/** An update's cell: the re-address first, then the other changed attributes (`ignored` left out). */
function withReaddress(c: ResourceChange, moved: string | undefined, ...ignored: string[]): string {
  if (!moved) return updated(c);
  const rest = changedAttrs(c).filter((a) => !ignored.includes(a));
  return rest.length > 0 ? `${moved}; update (${rest.join(", ")})` : moved;
}

function power(c: ResourceChange, ev: Set<NodeEvent>): string {
  const k = kindOf(c);
  const to = attr(c.change, "after", "power_state");
  if (k === "create") {
    const state = knownText(to);
    if (state === "On" || state === "Off") {
      ev.add(state === "On" ? "power-on" : "power-off");
      return state.toLowerCase();
    }
    // Not known before apply: the outlet may switch either way, so the reviewer is warned as for a cycle.
    ev.add("power-cycle");
    return `power ${display(to)}`;
  }
  if (k === "replace") {
    ev.add("power-cycle");
    return `power-cycle (outlet replaced${tainted(c) ? ", tainted" : ""})`;
  }
  if (k === "delete") {
    const onDestroy = knownText(attr(c.change, "before", "power_state_on_destroy"));
    if (onDestroy === "Off") {
      ev.add("power-off");
      return "off (outlet released)";
    }
    return "unmanaged (power left as is)";
  }
  if (k === "update") {
    const from = attr(c.change, "before", "power_state");
    const moved = readdress(c, "endpoint", "PDU");
    if (JSON.stringify(from) === JSON.stringify(to)) return withReaddress(c, moved, "endpoint");
    if (knownText(to) === "Off") ev.add("power-off");
    else if (knownText(to) === "On") ev.add("power-on");
    else ev.add("power-cycle");
    return `${display(from)} → ${display(to)}`;
  }
  return "";
}

function bmc(c: ResourceChange): string {
  switch (kindOf(c)) {
    case "create":
      return "discover";
    case "replace":
      return "re-discover";
    case "delete":
      return "forget";
    case "update": {
      const recheck =
        attr(c.change, "before", "conformant").kind === "known" &&
        knownText(attr(c.change, "before", "conformant")) === "false";
      const moved = readdress(c, "endpoint", "BMC");
      if (recheck) return moved ? `${moved}; re-check (not conformant)` : "re-check (not conformant)";
      // The re-address re-reads the node at its new address: its power state is left to the apply.
      return withReaddress(c, moved, "endpoint", "power_state", "conformant");
    }
    default:
      return "";
  }
}

const bfbVersion = (c: ResourceChange, side: "before" | "after") => display(attr(c.change, side, "bfb", "version"));

/**
 * A DPU: "set up DpuMode, BFB X" on create (the mode is changed, with a host power cycle, only if the DPU runs
 * another); "mode NicMode → DpuMode (host power-cycle)" and "BFB X → Y" on update. The provider installs only when
 * the version differs, so a new url or sha256 under the same version says so.
 */
function dpu(c: ResourceChange, ev: Set<NodeEvent>): string {
  const mode = display(current(c.change, "mode"));
  switch (kindOf(c)) {
    case "create":
    case "replace":
      ev.add("dpu-setup");
      return `${kindOf(c) === "create" ? "set up" : `set up again (${tainted(c) ? "failed last apply" : "new DPU BMC"})`} ${mode}, BFB ${bfbVersion(c, "after")}`;
    case "delete":
      return "forget (mode and BFB left as they are)";
    case "update": {
      const parts: string[] = [];
      const from = attr(c.change, "before", "mode");
      const to = attr(c.change, "after", "mode");
      if (display(from) !== display(to)) {
        ev.add("dpu-mode");
        parts.push(`mode ${display(from)} → ${display(to)} (host power-cycle)`);
      }
      const [v1, v2] = [bfbVersion(c, "before"), bfbVersion(c, "after")];
      if (v1 !== v2) {
        ev.add("bfb-install");
        parts.push(`BFB ${v1} → ${v2}`);
      }
      const rest = changedAttrs(c).filter((a) => a !== "mode" && a !== "bfb" && a !== "last_install_messages");
      if (parts.length === 0 && changedAttrs(c).includes("bfb"))
        parts.push(`BFB ${v2} kept (new url or sha256: no install)`);
      if (rest.length > 0) parts.push(`update (${rest.join(", ")})`);
      return parts.length > 0 ? parts.join(", ") : updated(c);
    }
    default:
      return "";
  }
}

/**
 * The machine's old and new name when a change gives it another one. The name is the OS hostname set at deploy and
 * the scheduler's key for the node, so the backend cannot rename a deployed node in place: it is a replacement.
 */
function renameOf(c: ResourceChange): { from: string; to: string } | undefined {
  const from = knownText(attr(c.change, "before", "name"));
  const to = knownText(attr(c.change, "after", "name"));
  return from !== undefined && to !== undefined && from !== to ? { from, to } : undefined;
}

function machine(c: ResourceChange, ev: Set<NodeEvent>): string {
  const backend = knownText(current(c.change, "backend"));
  const where = backend ? ` (${backend})` : "";
  switch (kindOf(c)) {
    case "create":
      ev.add("enroll");
      return `enroll${where}`;
    case "replace": {
      ev.add("re-enroll");
      const r = renameOf(c);
      if (r) ev.add("rename");
      const renamed = r ? `rename ${r.from} → ${r.to}: ` : "";
      return `${renamed}re-enroll${where}${tainted(c) ? " (failed last apply)" : ""}`;
    }
    case "delete":
      ev.add("release");
      return `release${where}`;
    case "update": {
      // The fingerprint's change means "the backend gets the rotated BMC password"; its value means nothing to a reader.
      // A new bmc_endpoint is the backend told the BMC's new address (the BMC column shows both addresses).
      const words: Record<string, string> = {
        bmc_credentials_fingerprint: "new BMC credentials",
        bmc_endpoint: "new BMC address for the backend",
      };
      const attrs = changedAttrs(c)
        .filter((a) => a !== "status" && a !== "state")
        .map((a) => words[a] ?? a);
      return attrs.length > 0 ? `update (${attrs.join(", ")})` : "update";
    }
    default:
      return "";
  }
}

const version = (c: ResourceChange, side: "before" | "after") => display(attr(c.change, side, "image", "version"));

/** What forces a replacement, by attribute name: `image.sha256` → "sha256", `machine_id` → "machine". */
function replacedBy(c: ResourceChange): string[] {
  const paths = c.change.replace_paths ?? [];
  const names = paths.map((p) => {
    const leaf = String(p[0] === "image" && p.length > 1 ? p[1] : p[0]);
    return leaf === "machine_id" ? "machine" : leaf;
  });
  return [...new Set(names.length > 0 ? names : changedAttrs(c).filter((a) => !["status", "power_state"].includes(a)))];
}

/**
 * "reimage 2026.06.2 → 2026.07.1"; when the version reads the same on both sides (same version, new sha256 or URL; a
 * new machine under it; both sensitive) the cell says what does change instead of "reimage X → X".
 */
function reimage(c: ResourceChange): string {
  const from = version(c, "before");
  const to = version(c, "after");
  if (from !== to) return `reimage ${from} → ${to}`;
  const known = attr(c.change, "before", "image", "version").kind === "known";
  const why = replacedBy(c).filter((a) => a !== "version" || !known);
  const what = why.length > 0 ? ` (new ${why.join(", ")})` : "";
  return known ? `reimage ${from}${what}` : `reimage${what}`;
}

function image(c: ResourceChange, ev: Set<NodeEvent>): string {
  switch (kindOf(c)) {
    case "create":
      ev.add("deploy");
      return `deploy ${version(c, "after")}`;
    case "replace":
      if (tainted(c)) {
        ev.add("reimage");
        return `redeploy ${version(c, "after")} (failed last apply)`;
      }
      ev.add("reimage");
      return reimage(c);
    case "delete": {
      ev.add("undeploy");
      const erase = knownText(attr(c.change, "before", "erase_on_destroy"));
      return erase === "false" ? `undeploy ${version(c, "before")}` : `undeploy ${version(c, "before")}, erase disks`;
    }
    case "update": {
      const health = deploymentRung(c, ev);
      if (health) return health;
      const before = knownText(attr(c.change, "before", "power_state"));
      const after = knownText(attr(c.change, "after", "power_state"));
      if (after === "on" && (before === "off" || before === "unknown")) {
        return before === "off" ? "power on (host found off)" : "power on (host power unknown: BMC did not answer)";
      }
      // A rolling deployment: the node's cluster member carries the reimage out, one node at a time.
      if (
        version(c, "before") !== version(c, "after") ||
        attr(c.change, "after", "deployed_image").kind === "unknown"
      ) {
        ev.add("reimage");
        return `${reimage(c)} (rolling, in place)`;
      }
      return updated(c);
    }
    default:
      return "";
  }
}

const COLUMN_OF: Readonly<Record<ChainType, Column>> = {
  rackform_pdu_outlet: "power",
  rackform_bmc: "bmc",
  rackform_dpu: "dpu",
  rackform_firmware: "firmware",
  rackform_machine: "machine",
  rackform_deployment: "image",
  rackform_acceptance: "acceptance",
  rackform_cluster_member: "cluster",
};

function cell(type: ChainType, c: ResourceChange, ev: Set<NodeEvent>): string {
  switch (type) {
    case "rackform_pdu_outlet":
      return power(c, ev);
    case "rackform_bmc":
      return bmc(c);
    case "rackform_dpu":
      return dpu(c, ev);
    case "rackform_firmware":
      return firmware(c, ev);
    case "rackform_machine":
      return machine(c, ev);
    case "rackform_deployment":
      return image(c, ev);
    case "rackform_acceptance":
      return acceptance(c, ev);
    case "rackform_cluster_member":
      return cluster(c, ev);
  }
}

/** Whether the node's reimage and firmware change are one rolling roll (in-place updates, the firmware rolling). */
function oneBoot(node: PlanNode, events: ReadonlySet<NodeEvent>): boolean {
  if (!events.has("reimage") || !events.has("firmware")) return false;
  const fw = node.changes.get("rackform_firmware") ?? [];
  const dep = node.changes.get("rackform_deployment") ?? [];
  const rolling = (c: ResourceChange) => {
    const v = attr(c.change, "after", "rolling");
    return v.kind === "known" && v.value === true;
  };
  const rollingFw = fw.some((c) => kindOf(c) === "update" && rolling(c));
  return rollingFw && dep.some((c) => kindOf(c) === "update");
}

/** The effects of a node's planned changes; a node whose changes are all no-op has no cells and no events. */
export function nodeEffects(node: PlanNode): NodeEffects {
  const cells = new Map<Column, string>();
  const events = new Set<NodeEvent>();
  let retried = false;
  let renamed: NodeEffects["renamed"];
  for (const [type, changes] of node.changes) {
    if (type === "rackform_machine") {
      renamed =
        changes
          .filter((c) => kindOf(c) === "replace")
          .map(renameOf)
          .find((r) => r !== undefined) ?? renamed;
    }
    const texts = changes.map((c) => cell(type, c, events)).filter((t) => t !== "");
    if (changes.some(tainted)) retried = true;
    if (texts.length > 0) cells.set(COLUMN_OF[type], texts.join("; "));
  }
  if (oneBoot(node, events)) {
    // A rolling reimage and a rolling firmware change of one node: the reimage's boot activates the staged firmware,
    // so the node is out once and reset once — one event, not a reimage and a firmware reset.
    events.delete("firmware");
    cells.set("firmware", `${cells.get("firmware")} (activated by the reimage's boot)`);
  }
  return { name: node.name, pdu: node.pdu, cells, events, retried, ...(renamed ? { renamed } : {}) };
}
