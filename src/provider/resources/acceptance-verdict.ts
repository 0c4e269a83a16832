/**
 * The verdict of rackform_acceptance: the thresholds of the configuration checked against the measured values of a
 * `rackform-acceptance/v1` document (src/lab/acceptance/README.md describes the format). Pure: no backend calls.
 */
import type { AcceptanceEvidence } from "../backends/backend.js";

/** The thresholds a user sets. */
export interface Thresholds {
  readonly dcgmLevel: number;
  /** undefined: the gate's own minimum (the document's nccl.min_busbw_gbps). */
  readonly ncclMinBusbwGBps?: number;
  /** undefined: the count the hardware spec expects (gpu_count_expected). */
  readonly expectedGpuCount?: number;
  readonly allowXid: boolean;
  /** What the node's BMC reports not OK (bmc_health), when followed: a Critical component fails the gate. */
  readonly bmcHealth?: readonly { readonly component: string; readonly health: string }[];
  /** component → required version. */
  readonly firmware: Readonly<Record<string, string>>;
}

/** One check: its attribute, what was measured, what was required, and whether it passed. */
export interface Check {
  readonly attribute: string;
  readonly measured: string;
  readonly threshold: string;
  readonly passed: boolean;
}

/** The verdict and the figures rackform records. */
export interface Verdict {
  readonly passed: boolean;
  readonly checks: readonly Check[];
  readonly gpuCount?: number;
  readonly busbwGBps?: number;
}

type Obj = Readonly<Record<string, unknown>>;
const obj = (v: unknown): Obj => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** Checks `t` against the evidence `e`. */
export function judge(e: AcceptanceEvidence, t: Thresholds): Verdict {
  const checks: Check[] = [];
  const gpuCount = num(e.gpu_count);
  const expected = t.expectedGpuCount ?? num(e.gpu_count_expected);
  if (expected !== undefined) {
    checks.push({
      attribute: "expected_gpu_count",
      measured: `${gpuCount ?? "no"} GPUs visible`,
      threshold: `${expected} GPUs`,
      passed: gpuCount !== undefined && gpuCount >= expected,
    });
  }
  const dcgm = obj(e.dcgm);
  const failedTests = list(dcgm.tests)
    .map(obj)
    .filter((x) => x.result === "Fail")
    .map((x) => String(x.name));
  const level = num(dcgm.level);
  checks.push({
    attribute: "dcgm_level",
    measured: `level ${level ?? "?"}: ${failedTests.length ? `${failedTests.join(", ")} failed` : dcgm.passed === true ? "all tests passed" : "no result"}`,
    threshold: `level ${t.dcgmLevel} passes`,
    passed: dcgm.passed === true && (level ?? 0) >= t.dcgmLevel,
  });
  const nccl = obj(e.nccl);
  const busbwGBps = num(nccl.busbw_gbps);
  const min = t.ncclMinBusbwGBps ?? num(nccl.min_busbw_gbps);
  checks.push({
    attribute: "nccl_min_busbw_gbps",
    measured: `all_reduce busbw ${busbwGBps ?? "not measured"} GB/s`,
    threshold: `≥ ${min ?? "?"} GB/s`,
    passed: busbwGBps !== undefined && min !== undefined && busbwGBps >= min,
  });
  const xids = list(e.xid_events).map(obj);
  const burn = obj(e.burn_in);
  const burnXid = (num(burn.xid_errors) ?? 0) > 0;
  checks.push({
    attribute: "burn_in",
    measured: burn.passed === true ? "passed" : `failed${burnXid ? " (XID errors)" : ""}`,
    threshold: `${num(burn.requested_s) ?? "?"} s without failure`,
    // An XID during burn-in is the XID check's business when XIDs are allowed.
    passed: burn.passed === true || (t.allowXid && burnXid),
  });
  checks.push({
    attribute: "allow_xid",
    measured: xids.length
      ? xids.map((x) => `XID ${x.xid ?? "?"} on GPU ${x.gpu_index ?? "?"}`).join(", ")
      : "no XID events",
    threshold: t.allowXid ? "XIDs allowed" : "no XID events",
    passed: t.allowXid || xids.length === 0,
  });
  if (t.bmcHealth) checks.push(bmcHealthCheck(t.bmcHealth));
  const fw = new Map(list(e.firmware).map((f) => [String(obj(f).component), String(obj(f).version)]));
  for (const [component, version] of Object.entries(t.firmware)) {
    const got = fw.get(component);
    checks.push({
      attribute: `firmware["${component}"]`,
      measured: got === undefined ? "not reported" : got,
      threshold: version,
      passed: got === version,
    });
  }
  return { passed: checks.every((c) => c.passed), checks, gpuCount, busbwGBps };
}

/** "attribute: measured …, threshold …" lines of the failed checks. */
export function failureLines(v: Verdict): string[] {
  return v.checks
    .filter((c) => !c.passed)
    .map((c) => `${c.attribute}: measured ${c.measured}; threshold ${c.threshold}`);
}

/** The BMC's report beside the run's evidence: a component it calls Critical fails the gate whatever the tests saw. */
function bmcHealthCheck(findings: readonly { readonly component: string; readonly health: string }[]): Check {
  const critical = findings.filter((f) => f.health === "Critical");
  return {
    attribute: "bmc_health",
    measured: findings.length ? findings.map((f) => `${f.component} ${f.health}`).join(", ") : "every component OK",
    threshold: "no component Critical per the BMC",
    passed: critical.length === 0,
  };
}
