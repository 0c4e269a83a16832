/**
 * Trust at join in the plan summary: a node's Secure Boot change (rackform_firmware `secure_boot`, which the node's
 * one reset activates — flagged ⚠ because it needs a reboot) and its attestation (rackform_acceptance
 * `attestation`: which components each gate run attests).
 */
import type { ResourceChange } from "./plan-json.js";
import { attr, knownText } from "./values.js";

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The Secure Boot words of a firmware change: "⚠ Secure Boot off → on (reboot)", "enrol 2 Secure Boot entries". */
export function secureBootMoves(c: ResourceChange): string[] {
  const after = attr(c.change, "after", "secure_boot");
  if (after.kind !== "known") return [];
  const want = (after.value as { enabled?: unknown }).enabled === true;
  const before = attr(c.change, "before", "secure_boot_status");
  if (before.kind !== "known") return [`⚠ Secure Boot ${want ? "on" : "off"} (reboot)`];
  const s = before.value as { enabled?: unknown; current_boot?: unknown; missing?: unknown };
  const out: string[] = [];
  const missing = listOf(s.missing).length;
  if (missing > 0) out.push(`enrol ${missing} Secure Boot ${missing === 1 ? "entry" : "entries"}`);
  const enforced = s.current_boot === "Enabled";
  if (enforced !== want || (s.enabled === true) !== want) {
    out.push(`⚠ Secure Boot ${enforced ? "on" : "off"} → ${want ? "on" : "off"} (reboot)`);
  }
  return out;
}

/** "Secure Boot on" for a new baseline that enforces it. */
export function secureBootBaseline(c: ResourceChange, side: "before" | "after"): string[] {
  const sb = attr(c.change, side, "secure_boot");
  if (sb.kind !== "known") return [];
  return [`Secure Boot ${(sb.value as { enabled?: unknown }).enabled === true ? "on" : "off"}`];
}

/** The components the last attestation of a recorded gate listed, and how many passed; undefined without one. */
function lastAttested(c: ResourceChange): { readonly listed: number; readonly passed: number } | undefined {
  const text = knownText(attr(c.change, "before", "attestation_evidence"));
  if (!text) return undefined;
  try {
    const list = listOf((JSON.parse(text) as { components?: unknown }).components) as { passed?: unknown }[];
    return { listed: list.length, passed: list.filter((x) => x.passed === true).length };
  } catch {
    return undefined;
  }
}

/**
 * " + attest 9 components" when the gate attests and its last run listed them, else " + attest GPU, BMC" (the
 * kinds required) or " + attest every SPDM component": what the BMC lists is known only when it is asked.
 */
export function attestNote(c: ResourceChange): string {
  const a = attr(c.change, "after", "attestation");
  if (a.kind !== "known") return "";
  const n = lastAttested(c)?.listed;
  if (n !== undefined && n > 0) return ` + attest ${n} ${n === 1 ? "component" : "components"}`;
  const kinds = listOf((a.value as { components?: unknown }).components).filter((k) => typeof k === "string");
  return kinds.length > 0 ? ` + attest ${kinds.join(", ")}` : " + attest every SPDM component";
}

/** What the last attestation of a recorded gate found, for a re-run's reason: "; attested 4 of 5". */
export function lastAttestation(c: ResourceChange): string {
  const a = lastAttested(c);
  return a && a.passed < a.listed ? `; attested ${a.passed} of ${a.listed}` : "";
}
