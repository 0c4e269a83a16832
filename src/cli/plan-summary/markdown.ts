/**
 * The summary as Markdown for a pull request comment: a warning banner for disruptive changes, one line per plan
 * condition (errored, incomplete, drift, no changes), and per rack the counts and a table of the nodes that change.
 * Renders on GitHub and GitLab alike (plain tables and blockquotes, no HTML beyond <sub>).
 */

import { stageCounts } from "../stages.js";
import { type Column, DISRUPTIVE, type NodeEffects, type NodeEvent } from "./effects.js";
import type { PlanStatus, PlanSummary, RackSummary } from "./model.js";
import { imageText, type WholeBudget } from "./order.js";
import type { OutBy, Rollout } from "./rollout.js";

/** The first line of every summary; pipelines find their sticky comment by it. */
export const SUMMARY_HEADING = "## rackform plan summary";

const EVENT_ORDER: readonly NodeEvent[] = [
  "power-on",
  "power-off",
  "power-cycle",
  "dpu-setup",
  "dpu-mode",
  "bfb-install",
  "firmware-baseline",
  "firmware",
  "enroll",
  "re-enroll",
  "rename",
  "release",
  "deploy",
  "reimage",
  "undeploy",
  "repair",
  "acceptance",
  "join",
  "rejoin",
  "leave",
];

const COUNTED: Readonly<Record<NodeEvent, string>> = {
  "power-on": "power on",
  "power-off": "power off",
  "power-cycle": "power-cycle",
  "dpu-setup": "DPU set up",
  "dpu-mode": "DPU mode change (host power-cycle)",
  "bfb-install": "BFB install",
  "firmware-baseline": "firmware baseline",
  firmware: "firmware update (host reset)",
  enroll: "enroll",
  "re-enroll": "re-enroll",
  rename: "rename (reimage)",
  release: "release",
  deploy: "deploy",
  reimage: "reimage",
  undeploy: "undeploy (disks erased)",
  repair: "quarantine for repair",
  acceptance: "run acceptance",
  join: "join the cluster",
  rejoin: "drain and rejoin",
  leave: "leave the cluster",
};

const WILL: Partial<Record<NodeEvent, string>> = {
  reimage: "be reimaged",
  "power-cycle": "be power-cycled",
  "power-off": "be powered off",
  "dpu-mode": "be power-cycled for a DPU mode change",
  firmware: "be reset for a firmware update",
  undeploy: "be undeployed (disks erased)",
  repair: "be quarantined for repair (out of service until repaired)",
  "re-enroll": "be re-enrolled",
  release: "be released from the backend",
  rejoin: "be drained and rejoin the cluster",
  leave: "leave the cluster",
};
const BANNER_ORDER: readonly NodeEvent[] = [
  "reimage",
  "power-cycle",
  "power-off",
  "dpu-mode",
  "firmware",
  "undeploy",
  "re-enroll",
  "release",
  "repair",
  "rejoin",
  "leave",
];

const COLUMNS: readonly [Column, string][] = [
  ["power", "Power"],
  ["bmc", "BMC"],
  ["dpu", "DPU"],
  ["firmware", "Firmware"],
  ["machine", "Machine"],
  ["image", "Image"],
  ["acceptance", "Acceptance"],
  ["cluster", "Cluster"],
];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Table-cell and inline text from plan values: no pipes, newlines or HTML can break the comment's layout. */
export function escapeCell(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "'");
}

/** A table padded as Markdown formatters (biome, prettier) print it, so a stored summary stays as written. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const width = (t: string) => [...t].length;
  const widths = header.map((h, i) => Math.max(3, width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: readonly string[]) =>
    `| ${widths.map((w, i) => (cells[i] ?? "") + " ".repeat(w - width(cells[i] ?? ""))).join(" | ")} |`;
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)];
}

function total(racks: readonly RackSummary[], ev: NodeEvent): number {
  return racks.reduce((n, r) => n + (r.counts.get(ev) ?? 0), 0);
}

/** How many renamed nodes the banner names before "and N more". */
const RENAMES_SHOWN = 5;

/** "⚠ rename → reimage: node r01-n02 → gpu-r01-02 …", or undefined when no node is renamed. */
function renameBanner(racks: readonly RackSummary[]): string | undefined {
  const renames = racks.flatMap((r) => r.changed.flatMap((e) => (e.renamed ? [e.renamed] : [])));
  if (renames.length === 0) return undefined;
  const shown = renames.slice(0, RENAMES_SHOWN).map((r) => `${escapeCell(r.from)} → ${escapeCell(r.to)}`);
  const more = renames.length > RENAMES_SHOWN ? ` and ${renames.length - RENAMES_SHOWN} more` : "";
  const one = renames.length === 1;
  return (
    `> **⚠ rename → reimage: ${one ? "node" : "nodes"} ${shown.join(", ")}${more} — ${one ? "it is" : "each is"} ` +
    "released, erased, enrolled and deployed again under the new name (the hostname is set at deploy and names " +
    "the node in its scheduler).**"
  );
}

/**
 * "⚠ 4 nodes will be reimaged, 1 will leave the cluster." or undefined when nothing disruptive is planned; renamed
 * nodes follow on a line of their own, "rename → reimage" with their old and new names (a rename is a replacement).
 */
export function banner(racks: readonly RackSummary[]): string | undefined {
  const parts = BANNER_ORDER.filter((ev) => DISRUPTIVE.has(ev) && total(racks, ev) > 0).map((ev, i) => {
    const n = total(racks, ev);
    return i === 0 ? `${plural(n, "node")} will ${WILL[ev]}` : `${n} will ${WILL[ev]}`;
  });
  const lines = [parts.length > 0 ? `> **⚠ ${parts.join(", ")}.**` : undefined, renameBanner(racks)];
  const shown = lines.filter((l): l is string => l !== undefined);
  return shown.length > 0 ? shown.join("\n>\n") : undefined;
}

const OUT_BY: readonly OutBy[] = [
  "reimaged",
  "re-enrolled",
  "reset for a firmware update",
  "drained and rejoined",
  "removed",
];

/** "7 nodes reimaged and 1 removed". */
function outText(drained: ReadonlyMap<OutBy, number>, undrained: number): string {
  const parts: [number, string][] = OUT_BY.filter((by) => (drained.get(by) ?? 0) > 0).map((by) => [
    drained.get(by) ?? 0,
    by,
  ]);
  if (undrained > 0) parts.push([undrained, "out without a drain"]);
  const words = parts.map(([n, by], i) => `${i === 0 ? plural(n, "node") : n} ${by}`);
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * One plan's share of a budget: "Rollout, slurm partition gpu: 16 nodes reimaged, under max_unavailable = 2." The
 * budget is the partition's, not the plan's: how many are out at once is said for the whole change (wholeChange).
 */
export function rolloutLine(r: Rollout): string {
  const free = r.unbudgeted.length;
  const shape =
    r.limits.length === 0
      ? `no max_unavailable${r.atOnce > 1 ? `: all ${r.atOnce} may be out of service at once` : ""}`
      : `under max_unavailable = ${r.limits.join(", ")}${free > 0 ? `, and ${free} that no budget holds back` : ""}`;
  return `Rollout, ${escapeCell(r.budget)}: ${outText(r.drained, r.undrained)}, ${shape}.`;
}

/** "Budget, slurm partition gpu: 12 nodes reimaged in fleet-r01, fleet-r02, fleet-r03; at most 1 …". */
export function budgetLine(b: WholeBudget): string {
  const where =
    b.stacks.length === 1 ? `in ${b.stacks[0]}` : `across ${b.stacks.length} stacks (${b.stacks.join(", ")})`;
  const what = `${outText(b.drained, b.undrained)} ${where}`;
  if (b.limits.length === 0) {
    return `Budget, ${b.budget}: ${what}; no max_unavailable, so all ${b.atOnce} may be out of service at once.`;
  }
  const limit =
    b.limits.length === 1
      ? `max_unavailable = ${b.limits[0]}`
      : `max_unavailable = ${b.limits.join(", ")} (members differ)`;
  const free = b.unbudgeted > 0 ? `, ${b.unbudgeted} of them held back by no budget` : "";
  const shared =
    b.stacks.length > 1
      ? "the budget is the partition's, shared by these stacks and every runner that applies them at the same time"
      : "the budget is the partition's, shared with any other stack that applies it at the same time";
  return `Budget, ${b.budget}: ${what}; at most ${b.atOnce} of its nodes out of service at once for the whole change (${limit}${free}): ${shared}.`;
}

/** The "Rollout order and budget" section: the waves (from the manifest) and one line per budget. */
function wholeChange(s: PlanSummary): string[] {
  if (s.budgets.length === 0 && !(s.waves && s.waves.length > 1)) return [];
  const out = ["### Rollout order and budget", ""];
  if (s.waves && s.waves.length > 0) {
    const waves = s.waves.map((w, i) => {
      const canary = i === 0 && s.waves!.length > 1 ? " (canary)" : "";
      return `wave ${i + 1}${canary}: ${w.stacks.map(escapeCell).join(", ")}`;
    });
    out.push(`Order: ${waves.join(" → ")}.`);
    if (s.waves.length > 1) {
      out.push(
        "Each wave starts only after every stack of the wave before has applied: a node failing its gate stops the rollout there. The stacks of one wave apply at the same time.",
      );
    }
    out.push("");
  } else if (s.plans.length > 1) {
    out.push(
      "Order: not in the plans (pass `--manifest cdktf.out/manifest.json` for the waves); stacks applied at the same time share each partition's budget.",
      "",
    );
  }
  for (const b of s.budgets) out.push(escapeCell(budgetLine(b)), "");
  return out;
}

/** Warnings of the rollouts: every node of a partition out at once, or more than the budget. */
function rolloutWarnings(s: PlanSummary): string[] {
  const several = s.plans.length > 1;
  return s.plans.flatMap((p) =>
    p.rollouts
      .filter((r) => r.warning !== undefined)
      .map((r) => `> **⚠ ${several ? `${escapeCell(p.name)}, ` : ""}${escapeCell(r.warning ?? "")}.**`),
  );
}

/** "Power: Off → On; BMC: re-check (not conformant)": what the plan does to a node, as one cell. */
function fixOf(e: NodeEffects | undefined): string {
  if (!e || e.cells.size === 0) return "nothing planned";
  return COLUMNS.filter(([c]) => e.cells.has(c))
    .map(([c, h]) => `${h}: ${e.cells.get(c)}`)
    .join("; ");
}

/** The "Changed outside rackform" section of each plan with drift: the causes beside the planned fix. */
function driftSections(s: PlanSummary): string[] {
  const out: string[] = [];
  const several = s.plans.length > 1;
  for (const p of s.plans.filter((x: PlanStatus) => x.drift.length > 0)) {
    const which = several ? ` · ${escapeCell(p.name)}` : "";
    const rows = p.drift.map((d) => [
      escapeCell(d.name),
      escapeCell(d.causes.join("; ")),
      escapeCell(fixOf(p.effects.get(d.name))),
    ]);
    out.push(
      `### Changed outside rackform${which}`,
      "",
      ...table(["Node", "Changed outside rackform", "Planned fix"], rows),
      "",
    );
  }
  return out;
}

/** The "Node health" section of each plan whose refresh found components not OK: node, component, since. */
function healthSections(s: PlanSummary): string[] {
  const out: string[] = [];
  const several = s.plans.length > 1;
  for (const p of s.plans.filter((x: PlanStatus) => x.health.length > 0)) {
    const which = several ? ` · ${escapeCell(p.name)}` : "";
    const ladder = p.health.some((n) => n.step !== undefined);
    const rows = p.health.flatMap((n) =>
      n.findings.map((f, i) => [
        escapeCell(n.name),
        escapeCell(`${f.component} (${f.kind})`),
        f.health,
        escapeCell(f.since),
        ...(ladder ? [i === 0 ? escapeCell(n.step ?? "—") : ""] : []),
      ]),
    );
    const head = ["Node", "Component", "Health", "Since", ...(ladder ? ["Ladder step"] : [])];
    out.push(`### Node health${which}`, "", ...table(head, rows), "");
    if (p.unhealthy) out.push(`⚠ ${escapeCell(p.unhealthy)}`, "");
  }
  return out;
}

function countsLine(r: RackSummary): string {
  return EVENT_ORDER.filter((ev) => (r.counts.get(ev) ?? 0) > 0)
    .map((ev) => `${r.counts.get(ev)} ${COUNTED[ev]}`)
    .join(" · ");
}

function rackSection(r: RackSummary): string[] {
  const out = [`### ${escapeCell(r.label)} · ${r.changed.length} of ${plural(r.nodeCount, "node")} change`, ""];
  if (r.now.length > 0) out.push(`Now: ${stageCounts(r.now)}`, "");
  if (r.changed.length === 0) return [...out, "No changes to this rack's nodes.", ""];
  const counts = countsLine(r);
  if (counts) out.push(counts, "");
  for (const roll of r.rollouts) out.push(rolloutLine(roll), "");
  const cols = COLUMNS.filter(([c]) => r.changed.some((n) => n.cells.has(c)));
  const rows = r.changed.map((n) => [escapeCell(n.name), ...cols.map(([c]) => escapeCell(n.cells.get(c) ?? "·"))]);
  out.push(...table(["Node", ...cols.map(([, h]) => h)], rows), "");
  return out;
}

function overview(racks: readonly RackSummary[]): string[] {
  const rows = racks.map((r) => {
    const disruptive = r.changed.filter((e) => [...e.events].some((ev) => DISRUPTIVE.has(ev))).length;
    const other = EVENT_ORDER.filter((ev) => !DISRUPTIVE.has(ev) && (r.counts.get(ev) ?? 0) > 0)
      .map((ev) => `${r.counts.get(ev)} ${COUNTED[ev]}`)
      .join(", ");
    return [escapeCell(r.label), `${r.changed.length} of ${r.nodeCount}`, String(disruptive), other || "·"];
  });
  return [...table(["Rack", "Nodes changing", "Disrupted nodes", "Non-disruptive"], rows), ""];
}

function statusLines(s: PlanSummary): string[] {
  const out: string[] = [];
  for (const p of s.plans) {
    const name = `\`${escapeCell(p.name)}\``;
    if (p.errored) {
      out.push(
        `✖ ${name}: **the plan errored** — the changes below are only those planned before the error; fix it and plan again.`,
      );
    }
    if (p.incomplete)
      out.push(`ℹ ${name}: the plan is incomplete — some changes are deferred to a later plan and apply.`);
    if (p.label === undefined) for (const roll of p.rollouts) out.push(`ℹ ${name}: ${rolloutLine(roll)}`);
    if (p.images.length > 0) out.push(`ℹ ${name}: ${p.images.map((i) => escapeCell(imageText(i))).join(", ")}.`);
    if (p.others.length > 0) {
      const list = p.others.map((c) => `\`${escapeCell(c.address)}\` (${c.change.actions.join(", then ")})`);
      out.push(`ℹ ${name}: changes outside the node chain: ${list.join(", ")}.`);
    }
  }
  const retried = s.racks.flatMap((r) => r.changed.filter((n) => n.retried).map((n) => n.name));
  if (retried.length > 0) {
    out.push(
      `ℹ ${plural(retried.length, "node")} will retry a step that failed in the last apply: ${retried.map(escapeCell).join(", ")}.`,
    );
  }
  const changes = s.plans.reduce((n, p) => n + p.changes, 0);
  if (changes === 0 && !s.plans.some((p) => p.errored)) {
    out.push(`✓ No changes: ${s.plans.length === 1 ? "the plan leaves" : "the plans leave"} every node as it is.`);
  }
  return out.length > 0 ? [...out, ""] : [];
}

function footer(s: PlanSummary): string {
  const parts = s.plans.map((p) => {
    const version = p.engineVersion ? `, engine ${p.engineVersion}` : "";
    return `${escapeCell(p.name)} (${plural(p.changes, "resource change")}${version})`;
  });
  return `<sub>Plans: ${parts.join("; ")}. Sensitive values are never shown.</sub>`;
}

/** The Markdown of a summary, ending with a newline. */
export function renderMarkdown(s: PlanSummary): string {
  const out = [SUMMARY_HEADING, ""];
  const warnings = [banner(s.racks), ...rolloutWarnings(s)].filter((w): w is string => w !== undefined);
  if (warnings.length > 0) out.push(warnings.join("\n>\n"), "");
  out.push(...statusLines(s));
  out.push(...driftSections(s));
  out.push(...healthSections(s));
  out.push(...wholeChange(s));
  if (s.racks.length > 1) out.push(...overview(s.racks));
  for (const r of s.racks) out.push(...rackSection(r));
  out.push(footer(s));
  return `${out.join("\n")}\n`;
}
