/**
 * rackform_acceptance's config checks (attribute paths, before any backend call) and its verdict: measured values of
 * a rackform-acceptance/v1 document against the configured thresholds.
 */
import { describe, expect, it } from "vitest";
import { type Diagnostic, formatPath, type Value } from "../../../src/framework/index.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { acceptanceSchema } from "../../../src/provider/resources/acceptance-schema.js";
import { failureLines, judge } from "../../../src/provider/resources/acceptance-verdict.js";
import { createServer } from "../../../src/server/create-server.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";

const T = "rackform_acceptance";
const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);
// An unconfigured provider: any backend call would fail, so a clean validation proves none was made.
const srv = createServer(rackformProvider());
const validate = async (set: Record<string, Value>) =>
  (
    await srv.validateResourceConfig({
      typeName: T,
      config: configOf(acceptanceSchema, { machine_id: "maas:abc", ...set }),
    })
  ).diagnostics;

describe("rackform_acceptance validation", () => {
  it("fails dcgm_level out of 1–4 at dcgm_level", async () => {
    expect(lines(await validate({ dcgm_level: 5 }))).toEqual(["error Invalid attribute value @ dcgm_level"]);
    expect(lines(await validate({ dcgm_level: 0 }))).toEqual(["error Invalid attribute value @ dcgm_level"]);
  });

  it("fails a fractional dcgm_level and a GPU count out of range", async () => {
    expect(lines(await validate({ dcgm_level: 2.5 }))).toEqual(["error Invalid attribute value @ dcgm_level"]);
    expect(lines(await validate({ expected_gpu_count: 0 }))).toEqual([
      "error Invalid attribute value @ expected_gpu_count",
    ]);
  });

  it("fails a bus bandwidth threshold below 1 GB/s", async () => {
    expect(lines(await validate({ nccl_min_busbw_gbps: 0 }))).toEqual([
      "error Invalid attribute value @ nccl_min_busbw_gbps",
    ]);
  });

  it("fails a burn-in that is not a duration, naming the fix", async () => {
    const d = await validate({ burn_in: "three days" });
    expect(lines(d)).toEqual(["error Invalid burn-in duration @ burn_in"]);
    expect(d[0].detail).toContain("1h30m");
  });

  it("fails a machine_id that is not a rackform_machine id", async () => {
    expect(lines(await validate({ machine_id: "abc" }))).toEqual(["error Invalid attribute value @ machine_id"]);
  });

  it("accepts a full gate", async () => {
    const d = await validate({
      dcgm_level: 3,
      nccl_min_busbw_gbps: 370,
      burn_in: "72h",
      expected_gpu_count: 8,
      allow_xid: false,
      firmware: { bmc: "1.2.3" },
    });
    expect(d).toEqual([]);
  });
});

const doc = (over: Record<string, unknown> = {}) => ({
  format: "rackform-acceptance/v1",
  passed: true,
  gpu_count: 8,
  gpu_count_expected: 8,
  dcgm: { level: 3, passed: true, tests: [{ name: "PCIe", result: "Pass" }] },
  nccl: { busbw_gbps: 375, min_busbw_gbps: 370, passed: true },
  burn_in: { requested_s: 3600, passed: true, xid_errors: 0 },
  xid_events: [],
  firmware: [{ component: "bmc", version: "1.2.3", sha256: "x" }],
  ...over,
});
const thresholds = { dcgmLevel: 3, allowXid: false, firmware: {} };

describe("acceptance verdict", () => {
  it("passes a healthy node and reports its figures", () => {
    const v = judge(doc(), { ...thresholds, ncclMinBusbwGBps: 370, expectedGpuCount: 8, firmware: { bmc: "1.2.3" } });
    expect(v).toMatchObject({ passed: true, gpuCount: 8, busbwGBps: 375 });
  });

  it("fails a stricter threshold than the gate's own, measured vs threshold", () => {
    const v = judge(doc(), { ...thresholds, ncclMinBusbwGBps: 380 });
    expect(failureLines(v)).toEqual(["nccl_min_busbw_gbps: measured all_reduce busbw 375 GB/s; threshold ≥ 380 GB/s"]);
  });

  it("fails an XID unless allow_xid, also when it failed the burn-in", () => {
    const xid = doc({
      xid_events: [{ xid: 79, gpu_index: 3 }],
      burn_in: { requested_s: 3600, passed: false, xid_errors: 1 },
    });
    expect(failureLines(judge(xid, thresholds))).toEqual([
      "burn_in: measured failed (XID errors); threshold 3600 s without failure",
      "allow_xid: measured XID 79 on GPU 3; threshold no XID events",
    ]);
    expect(judge(xid, { ...thresholds, allowXid: true }).passed).toBe(true);
  });

  it("fails firmware that differs or is not reported", () => {
    const v = judge(doc(), { ...thresholds, firmware: { bmc: "1.2.4", gpu: "96.00" } });
    expect(failureLines(v)).toEqual([
      'firmware["bmc"]: measured 1.2.3; threshold 1.2.4',
      'firmware["gpu"]: measured not reported; threshold 96.00',
    ]);
  });

  it("fails a node whose BMC reports a component Critical (bmc_health), whatever the run measured; a Warning passes", () => {
    const critical = { component: "GPU 1", health: "Critical" };
    const warning = { component: "DIMM3", health: "Warning" };
    expect(failureLines(judge(doc(), { ...thresholds, bmcHealth: [critical, warning] }))).toEqual([
      "bmc_health: measured GPU 1 Critical, DIMM3 Warning; threshold no component Critical per the BMC",
    ]);
    const ok = judge(doc(), { ...thresholds, bmcHealth: [warning] });
    expect(ok.passed).toBe(true);
    expect(ok.checks.find((c) => c.attribute === "bmc_health")?.measured).toBe("DIMM3 Warning");
    // Not followed (no bmc_health): no check at all.
    expect(judge(doc(), thresholds).checks.some((c) => c.attribute === "bmc_health")).toBe(false);
  });

  it("fails a DCGM level below the one asked for", () => {
    const v = judge(doc(), { ...thresholds, dcgmLevel: 4 });
    expect(failureLines(v)).toEqual(["dcgm_level: measured level 3: all tests passed; threshold level 4 passes"]);
  });
});
