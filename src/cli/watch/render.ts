/** The watch in a terminal: `--once` prints a table; the default prints one summary line per rack per change. */
import { PATH, STAGE_LABEL, STAGES, type Stage } from "../stages.js";
import { formatDuration } from "./eta.js";
import { countsText, type WatchRack, type WatchSnapshot } from "./model.js";

/** Table cells padded to their column. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ")
      .trimEnd(),
  );
}

const eta = (r: WatchRack) =>
  r.etaMs === undefined ? "ETA unknown" : r.etaMs === 0 ? "settled" : `ETA ${formatDuration(r.etaMs)}`;

/** `--once`: per rack the count of nodes in each stage (every stage of the path, and trouble when present). */
export function renderTable(s: WatchSnapshot): string {
  const present = new Set<Stage>(s.racks.flatMap((r) => Object.keys(r.counts) as Stage[]));
  const shown = STAGES.filter((st) => PATH.includes(st) || present.has(st));
  const rows = [
    ["rack", "nodes", ...shown.map((st) => STAGE_LABEL[st])],
    ...s.racks.map((r) => [r.label, String(r.nodes.length), ...shown.map((st) => String(r.counts[st] ?? 0))]),
  ];
  const out = columns(rows);
  for (const r of s.racks) if (r.error) out.push(`${r.label}: not read: ${r.error}`);
  if (s.failures.length > 0) {
    out.push("", "failures:");
    for (const f of s.failures)
      out.push(`  ${f.rack}/${f.node}  ${STAGE_LABEL[f.stage]}: ${f.detail || "(no detail)"}`);
  }
  for (const e of s.liveErrors) out.push(`live read failed: ${e}`);
  return `${out.join("\n")}\n`;
}

/** One line per rack: "[12:01:03] r01: 3 deploying · 5 joined (8 nodes) — ETA 1m20s". */
export function renderLines(s: WatchSnapshot): string[] {
  const clock = s.time.slice(11, 19);
  return s.racks.map((r) => {
    const counts = countsText(r.counts) || "no nodes yet";
    const err = r.error ? ` — not read: ${r.error}` : "";
    return `[${clock}] ${r.label}: ${counts} (${r.nodes.length} nodes) — ${eta(r)}${err}`;
  });
}
