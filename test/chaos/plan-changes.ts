/** The chaos harness's account of a plan that is not empty. */

/** One resource the plan changes: its address, actions and the top-level attributes that differ. */
export interface PlannedChange {
  readonly address: string;
  readonly actions: readonly string[];
  /** Each differing attribute as "name: before → after". */
  readonly attributes: readonly string[];
  readonly names: readonly string[];
}

/** What a plan (show -json) changes; undefined when the JSON cannot be read. */
export function plannedChanges(json: string): PlannedChange[] | undefined {
  type Change = { address: string; change: { actions: string[]; before?: unknown; after?: unknown } };
  let changes: Change[];
  try {
    changes = (JSON.parse(json) as { resource_changes?: Change[] }).resource_changes ?? [];
  } catch {
    return undefined;
  }
  const short = (v: unknown) => (JSON.stringify(v) ?? "unknown").slice(0, 80);
  return changes
    .filter((c) => !c.change.actions.every((a) => a === "no-op" || a === "read"))
    .map((c) => {
      const before = (c.change.before ?? {}) as Record<string, unknown>;
      const after = (c.change.after ?? {}) as Record<string, unknown>;
      const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
      );
      const attributes = names.map((k) => `${k}: ${short(before[k])} → ${short(after[k])}`);
      return { address: c.address, actions: c.change.actions, attributes, names };
    });
}

/**
 * Whether a change is the re-check rackform_bmc plans on every plan while its node reads non-conformant (drift stays
 * visible until the node conforms): an in-place update of conformant and power_state only.
 */
export function isBmcRecheck(c: PlannedChange): boolean {
  return (
    c.address.startsWith("rackform_bmc.") &&
    c.actions.join() === "update" &&
    c.names.every((n) => n === "conformant" || n === "power_state")
  );
}

/** The changes as one line. */
export function describeChanges(cs: readonly PlannedChange[]): string {
  return cs
    .slice(0, 6)
    .map((c) => `${c.address} ${c.actions.join("+")} (${c.attributes.join(", ")})`)
    .join("; ");
}
