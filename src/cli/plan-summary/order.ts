/**
 * The rollout of the whole change, across every plan given: the order the stacks apply in (waves from cdktf's
 * manifest, the first of several a canary every later wave waits for) and, per disruption budget, how many nodes go
 * out of service in which stacks and how many at most at once. The budget is the partition's (or the Kubernetes
 * cluster's), not a stack's: stacks of one partition applied at the same time share it.
 */
import type { ResourceChange } from "./plan-json.js";
import type { OutBy, Rollout } from "./rollout.js";

/** One wave of the rollout: the stacks it applies, in name order. */
export interface Wave {
  readonly stacks: readonly string[];
}

/** One disruption budget over the whole change. */
export interface WholeBudget {
  /** "slurm partition gpu". */
  readonly budget: string;
  /** The stacks (plan labels or file names) with nodes of this budget going out of service, in the order given. */
  readonly stacks: readonly string[];
  readonly drained: ReadonlyMap<OutBy, number>;
  readonly undrained: number;
  /** Every max_unavailable set by the members drained, smallest first. */
  readonly limits: readonly number[];
  /** Nodes no budget holds back (drains without max_unavailable, disruptions without a drain), across stacks. */
  readonly unbudgeted: number;
  /** The most nodes of the budget out of service at once in the whole change. */
  readonly atOnce: number;
}

/** A cdktf manifest (cdktf.out/manifest.json) that is not one; the message names the file and the fix. */
export class ManifestError extends Error {
  override readonly name = "ManifestError";
}

/**
 * The waves of a cdktf manifest: a stack applies after every stack it depends on, so wave k holds the stacks whose
 * longest dependency chain is k long. Only the stacks in `planned` are kept (others are not part of this change).
 */
export function wavesOf(manifestJson: string, source: string, planned?: ReadonlySet<string>): Wave[] {
  let doc: { stacks?: Record<string, { dependencies?: unknown; constructPath?: unknown }> };
  try {
    doc = JSON.parse(manifestJson) as typeof doc;
  } catch {
    throw new ManifestError(`${source}: not JSON; pass cdktf.out/manifest.json (written by cdktf synth)`);
  }
  if (typeof doc !== "object" || doc === null || typeof doc.stacks !== "object" || doc.stacks === null)
    throw new ManifestError(`${source}: no stacks; pass cdktf.out/manifest.json (written by cdktf synth)`);
  // cdktf names a dependency by its construct path ("app/fleet-r01" when the stack is nested), a stack by its id
  const byPath = new Map<string, string>();
  for (const [name, s] of Object.entries(doc.stacks)) {
    byPath.set(name, name);
    if (typeof s?.constructPath === "string") byPath.set(s.constructPath, name);
  }
  const deps = new Map<string, string[]>();
  for (const [name, s] of Object.entries(doc.stacks)) {
    const d = Array.isArray(s?.dependencies) ? s.dependencies.filter((x): x is string => typeof x === "string") : [];
    deps.set(
      name,
      d.map((x) => byPath.get(x) ?? x),
    );
  }
  const depth = new Map<string, number>();
  const visit = (name: string, seen: Set<string>): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    if (seen.has(name)) throw new ManifestError(`${source}: stack ${name} depends on itself through others`);
    seen.add(name);
    const d = Math.max(-1, ...(deps.get(name) ?? []).filter((x) => deps.has(x)).map((x) => visit(x, seen))) + 1;
    depth.set(name, d);
    return d;
  };
  const waves: string[][] = [];
  for (const name of deps.keys()) {
    if (planned && !planned.has(name)) continue;
    const d = visit(name, new Set());
    (waves[d] ??= []).push(name);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
  return waves.filter((w) => w !== undefined).map((w) => ({ stacks: w.sort(byName) }));
}

/** The budgets of the whole change: each plan's rollouts merged by budget, in budget name order. */
export function wholeBudgets(plans: readonly { readonly name: string; readonly rollouts: readonly Rollout[] }[]) {
  const merged = new Map<
    string,
    { stacks: string[]; drained: Map<OutBy, number>; undrained: number; limits: Set<number>; unbudgeted: number }
  >();
  for (const p of plans) {
    for (const r of p.rollouts) {
      const m = merged.get(r.budget) ?? {
        stacks: [],
        drained: new Map<OutBy, number>(),
        undrained: 0,
        limits: new Set<number>(),
        unbudgeted: 0,
      };
      merged.set(r.budget, m);
      if (!m.stacks.includes(p.name)) m.stacks.push(p.name);
      for (const [by, n] of r.drained) m.drained.set(by, (m.drained.get(by) ?? 0) + n);
      m.undrained += r.undrained;
      for (const l of r.limits) m.limits.add(l);
      m.unbudgeted += r.unbudgeted.length;
    }
  }
  const out: WholeBudget[] = [];
  for (const [budget, m] of [...merged.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const limits = [...m.limits].sort((a, b) => a - b);
    const drainedTotal = [...m.drained.values()].reduce((a, b) => a + b, 0);
    const limited = drainedTotal - (m.unbudgeted - m.undrained);
    const atOnce = Math.min(Math.max(0, limited), limits.at(-1) ?? 0) + m.unbudgeted;
    out.push({
      budget,
      stacks: m.stacks,
      drained: m.drained,
      undrained: m.undrained,
      limits,
      unbudgeted: m.unbudgeted,
      atOnce,
    });
  }
  return out;
}

/** What a plan does to one golden image (`rackform_image`), as "image ubuntu-gpu 2026.06.2 → 2026.07.1". */
export interface ImageChange {
  readonly name: string;
  readonly from?: string;
  readonly to?: string;
  /** What else changes when the version does not: "sha256, url". */
  readonly detail?: string;
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * The image changes of a plan, one per image name: a version updated in place, or a new image resource beside the
 * old one it replaces (created and destroyed in the same plan), read as one version change.
 */
export function imageChanges(changes: readonly ResourceChange[]): ImageChange[] {
  const byName = new Map<string, { from?: string; to?: string; detail?: string }>();
  for (const c of changes) {
    if (c.type !== "rackform_image" || c.mode !== "managed") continue;
    const a = c.change.actions;
    if (a.every((x) => x === "no-op" || x === "read")) continue;
    const before = (c.change.before ?? {}) as Record<string, unknown>;
    const after = (c.change.after ?? {}) as Record<string, unknown>;
    const name = text(after.name) ?? text(before.name) ?? c.address;
    const e = byName.get(name) ?? {};
    byName.set(name, e);
    if (a.includes("delete")) e.from ??= text(before.version) ?? "?";
    if (a.includes("create") || a.includes("update")) {
      e.to = text(after.version) ?? "(known after apply)";
      if (a.includes("update")) e.from ??= text(before.version);
    }
    if (e.from === e.to) {
      const keys = ["url", "sha256", "source_file", "architecture", "filetype"];
      const differ = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) && k in after);
      e.detail = differ.length > 0 ? differ.join(", ") : "replaced";
    }
  }
  return [...byName.entries()].map(([name, e]) => ({ name, ...e }));
}

/** "image ubuntu-gpu 2026.06.2 → 2026.07.1", "image ubuntu-gpu 2026.07.1 (new)", "image ubuntu-gpu 2026.06.2 (removed)". */
export function imageText(i: ImageChange): string {
  if (i.from && i.to && i.from !== i.to) return `image ${i.name} ${i.from} → ${i.to}`;
  if (i.from && i.to) return `image ${i.name} ${i.to} (new ${i.detail ?? "content"})`;
  if (i.to) return `image ${i.name} ${i.to} (new)`;
  return `image ${i.name} ${i.from ?? ""} (removed)`.replace("  ", " ");
}
