/**
 * An edited acceptance policy as a reviewer reads it: which thresholds change ("nccl_min_busbw_gbps 370 → 360") and,
 * for a gate that must run again, what its recorded evidence measured against the new value. The provider judges the
 * evidence at plan (a covered edit is an in-place update that keeps `passed`; an uncovered one a replacement); this
 * only reads what the plan JSON shows of it.
 */
import type { ResourceChange } from "./plan-json.js";
import { attr, display, knownText } from "./values.js";

/** rackform_acceptance's policy attributes, in the order a reviewer reads them. */
const POLICY = ["nccl_min_busbw_gbps", "burn_in", "dcgm_level", "expected_gpu_count", "allow_xid", "firmware"];

type Obj = Readonly<Record<string, unknown>>;
const obj = (v: unknown): Obj => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

function evidenceOf(c: ResourceChange): Obj | undefined {
  const text = knownText(attr(c.change, "before", "evidence"));
  if (!text) return undefined;
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** What the evidence recorded for one policy attribute, e.g. "measured 371 GB/s"; undefined when it does not say. */
function measured(e: Obj | undefined, attribute: string): string | undefined {
  if (!e) return undefined;
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  switch (attribute) {
    case "nccl_min_busbw_gbps": {
      const v = num(obj(e.nccl).busbw_gbps);
      return v === undefined ? undefined : `measured ${v} GB/s`;
    }
    case "burn_in": {
      const s = num(obj(e.burn_in).requested_s);
      return s === undefined ? "burn-in length not recorded" : `ran ${s % 3600 === 0 ? `${s / 3600}h` : `${s} s`}`;
    }
    case "dcgm_level": {
      const v = num(obj(e.dcgm).level);
      return v === undefined ? undefined : `ran level ${v}`;
    }
    case "expected_gpu_count": {
      const v = num(e.gpu_count);
      return v === undefined ? undefined : `${v} GPUs seen`;
    }
    case "allow_xid":
      return Array.isArray(e.xid_events) && e.xid_events.length > 0 ? "XID events recorded" : undefined;
    default:
      return undefined;
  }
}

/** The policy attributes whose value the change edits, as "nccl_min_busbw_gbps 370 → 360". */
function edits(c: ResourceChange, withEvidence: boolean): string[] {
  const e = withEvidence ? evidenceOf(c) : undefined;
  return POLICY.filter((a) => {
    const before = attr(c.change, "before", a);
    const after = attr(c.change, "after", a);
    return before.kind !== "absent" && JSON.stringify(before) !== JSON.stringify(after);
  }).map((a) => {
    const from = attr(c.change, "before", a);
    const to = attr(c.change, "after", a);
    const what = a === "firmware" ? "firmware" : `${a} ${display(from)} → ${display(to)}`;
    const m = measured(e, a);
    return m ? `${what}: ${m}` : what;
  });
}

/**
 * An in-place update that records an edited policy the evidence covers (the plan keeps `passed` known): the cell,
 * e.g. "policy recorded, evidence covers it (nccl_min_busbw_gbps 370 → 360)"; undefined for any other update.
 */
export function coveredPolicy(c: ResourceChange): string | undefined {
  if (attr(c.change, "after", "passed").kind !== "known") return undefined;
  const changed = edits(c, false);
  return changed.length > 0 ? `policy recorded, evidence covers it (${changed.join(", ")})` : undefined;
}

/** A replacement because the edited policy is not covered by the evidence: why, e.g. "nccl_min_busbw_gbps 370 → 372: measured 371 GB/s". */
export function uncoveredPolicy(c: ResourceChange): string | undefined {
  const forced = new Set((c.change.replace_paths ?? []).map((p) => String(p[0])));
  if (!POLICY.some((a) => forced.has(a))) return undefined;
  const changed = edits(c, true).filter((t) => forced.has(t.split(" ")[0].replace(/:$/, "")));
  return changed.length > 0 ? changed.join(", ") : undefined;
}
