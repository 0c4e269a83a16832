/**
 * A rollout halt the rolling chaos run expects. When an engine is killed mid-roll, its provider closing removes its
 * reservations while the node it drained stays out; until that stack's re-apply adopts the node, another stack that
 * needs a slot finds the budget used up by a node nothing is bringing back, and halts instead of waiting — the
 * product's rule (no rollout waits forever). A pipeline's job then fails and is run again; the harness re-applies the
 * same way. Any other failure, or a halt naming a node no killed run left out, stays a violation.
 */

/** The nodes a "Rollout halted" diagnostic names as out with nothing bringing them back; undefined for any other. */
export function haltedOn(detail: string): string[] | undefined {
  const m = /nothing is bringing them back: (.*?)\. The node stays/.exec(detail.replace(/\s+/g, " "));
  if (!m) return undefined;
  // "r01-n06 (DOWN+DRAIN (reason: rackform: leaving)), r02-n01 (…)": the names before each state.
  return [...m[1].matchAll(/(?:^|, )([^\s(,]+) \(/g)].map((x) => x[1]);
}

/**
 * Whether every error of a failed apply is a halt on nodes in `leftByKills` (nodes of stacks whose engine was killed
 * in this rollout), so the stack is re-applied rather than judged.
 */
export function haltOnKilledRun(
  errors: readonly { readonly summary: string; readonly detail: string }[],
  leftByKills: ReadonlySet<string>,
): boolean {
  if (errors.length === 0) return false;
  return errors.every((e) => {
    const nodes = e.summary.startsWith("Rollout halted") ? haltedOn(e.detail) : undefined;
    return nodes !== undefined && nodes.length > 0 && nodes.every((n) => leftByKills.has(n));
  });
}
