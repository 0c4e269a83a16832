/**
 * The chaos invariants as pure checks: each takes what was observed and returns one line per violation (empty when it
 * holds). A line never contains a secret: leaks are reported by the secret's name and where it was found.
 */
import type { BackendMachine, Diagnostic, NodeWrite } from "./observe.js";

/** Names, MACs or BMC addresses held by more than one backend machine (never two machines for one node). */
export function duplicateMachines(machines: readonly BackendMachine[]): string[] {
  const seen = new Map<string, number>();
  for (const m of machines)
    for (const k of [`name ${m.name}`, ...m.macs.map((x) => `MAC ${x}`), ...(m.bmc ? [`BMC ${m.bmc}`] : [])]) {
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `two backend machines for one node: ${k} ×${n}`);
}

/** Backend objects no state tracks: a machine without a rackform_machine, a taken one without a rackform_deployment. */
export function orphans(
  machines: readonly BackendMachine[],
  tracked: { readonly machines: ReadonlySet<string>; readonly deployments: ReadonlySet<string> },
  allocations = 0,
): string[] {
  const out = machines
    .filter((m) => !tracked.machines.has(m.id))
    .map((m) => `orphan: backend machine ${m.name} (${m.id}) is tracked by no rackform_machine`);
  for (const m of machines)
    if (m.taken && !tracked.deployments.has(m.id))
      out.push(
        `orphan: backend machine ${m.name} (${m.id}) is deployed/allocated but no rackform_deployment tracks it`,
      );
  if (allocations > 0) out.push(`orphan: ${allocations} Ironic allocation(s) left (rackform deploys without them)`);
  return out;
}

/** Writes that reached a node none of whose resources the plan changes. */
export function writesOutsidePlan(writes: readonly NodeWrite[], plannedNodes: ReadonlySet<string>): string[] {
  const out = new Map<string, string>();
  for (const w of writes) if (!plannedNodes.has(w.node) && !out.has(w.node)) out.set(w.node, `${w.method} ${w.path}`);
  return [...out].map(([node, first]) => `write to ${node}, which the plan does not touch: ${first}`);
}

/** A secret the engine must never show, by a name that can be printed. */
export interface Secret {
  readonly name: string;
  readonly value: string;
}

/** Secrets found in `text` (by name), e.g. "leak: the MAAS API key in the TF_LOG=trace log". */
export function leaks(text: string, where: string, secrets: readonly Secret[]): string[] {
  return secrets.filter((s) => s.value.length >= 8 && text.includes(s.value)).map((s) => `leak: ${s.name} in ${where}`);
}

/** The engine's view of one node after an apply that ran to its end. */
export interface NodeOutcome {
  readonly node: string;
  /** Its cluster member is in state and joined. */
  readonly joined: boolean;
  /** One of its resources failed in this apply (the engine's apply_errored), whatever state still says. */
  readonly errored?: boolean;
}

/** Error diagnostics that name `node` (its name in the summary or detail, or one of its resources' addresses). */
export function diagnosticsFor(node: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const rn = node.replaceAll("-", "_");
  return diagnostics.filter(
    (d) =>
      d.severity === "error" &&
      (d.summary.includes(node) || d.detail.includes(node) || (d.address ?? "").split(".").includes(rn)),
  );
}

/** Whether a diagnostic shows a backend storm (the status the lab answered) as its cause. */
export const stormEvidence = (d: Diagnostic): boolean =>
  /\b(503|429)\b|Service Unavailable|Too Many Requests/i.test(`${d.summary} ${d.detail}`);

/** A diagnostic whose evidence is a fault the schedule injected into a backend operation, in the lab's own words. */
export const injectedEvidence = (d: Diagnostic): boolean =>
  /lab fault injected into|lab fault injection/.test(`${d.summary} ${d.detail}`);

/**
 * After an apply that ran to its end: every node not disturbed in it converged (a fault never blocks a healthy
 * neighbour; a failure from a backend storm in the same apply is excused when its diagnostic shows the storm, and one
 * from a backend-operation fault of an earlier step when its diagnostic shows the injected fault), and
 * every node that did not converge has an error diagnostic naming it (its name, or an alias: its BMC's host:port, its
 * backend machine's id), with a detail (the evidence).
 */
export function convergence(
  outcomes: readonly NodeOutcome[],
  disturbed: ReadonlySet<string>,
  diagnostics: readonly Diagnostic[],
  storm: boolean,
  aliases: ReadonlyMap<string, readonly string[]> = new Map(),
  backendFaulted: ReadonlySet<string> = new Set(),
): string[] {
  const out: string[] = [];
  for (const o of outcomes) {
    if (o.joined && !o.errored) continue;
    const named = diagnosticsFor(o.node, diagnostics);
    if (named.length === 0) {
      out.push(`${o.node} ${o.joined ? "failed" : "did not converge"} and no error diagnostic names it`);
      continue;
    }
    // A rackform_bmc knows its node only by its endpoint: the BMC's address names the node as well as its name does.
    const names = [o.node, ...(aliases.get(o.node) ?? [])];
    if (!named.some((d) => names.some((n) => d.summary.includes(n) || d.detail.includes(n)))) {
      out.push(`${o.node} failed, but its diagnostics name it only by resource address: "${named[0].summary}"`);
    }
    if (named.every((d) => d.detail.trim() === ""))
      out.push(`${o.node} failed with no evidence: "${named[0].summary}"`);
    // A backend operation a fault broke in an earlier, killed apply may fail in this one: its evidence says so.
    const earlierFault = backendFaulted.has(o.node) && named.some(injectedEvidence);
    if (!disturbed.has(o.node) && !earlierFault && !(storm && named.some(stormEvidence))) {
      out.push(`healthy ${o.node} did not converge in this apply: ${named[0].summary} — ${firstLine(named[0].detail)}`);
    }
  }
  return out;
}

function firstLine(s: string): string {
  return s.split("\n").find((l) => l.trim() !== "") ?? "";
}
