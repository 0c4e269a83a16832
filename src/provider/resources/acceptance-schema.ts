/** rackform_acceptance's schema and the thresholds it reads from a plan or state. */
import {
  attr,
  BigNumber,
  isUnknownValue,
  type ModelOf,
  numberBetween,
  parseDuration,
  requiresReplaceIf,
  stringMatches,
  timeoutsBlock,
  type Unknowable,
  useStateForUnknown,
  ValueTypeError,
  validator,
} from "../../framework/index.js";
import type { AcceptanceParams } from "../backends/backend.js";
import { findingsIn, ladderActs } from "../shared/remediation.js";
import type { Thresholds } from "./acceptance-verdict.js";
import { attestationAttributes } from "./attestation-schema.js";
import { MACHINE_ID } from "./deployment-schema.js";
import { acceptanceRecheckAttributes } from "./remediation-schema.js";

// Another machine is a new gate run; right after an import the state knows no machine_id yet, and recording the
// configuration then must not re-run a 72-hour burn-in.
const rerunUnlessImported = () =>
  requiresReplaceIf(
    (req) => req.stateValue !== null,
    "re-runs the gate when changed (not when first recorded after an import)",
  );

/**
 * A changed BMC GPU count re-runs the gate (a value first set — state null: an import, or a gate recorded before the
 * attribute existed — is recorded in place), but not while the remediation ladder takes a step on the node, or holds
 * it for repair: the step's gate runs in place inside the member's update, after its remedy. A replaced gate would run
 * on its own first, fail on the missing GPU, and leave the member that carries the remedy unapplied, apply after
 * apply (chaos seed 6403).
 */
const rerunWhenGpusChange = () =>
  requiresReplaceIf((req) => {
    if (req.stateValue === null || req.stateValue === undefined) return false;
    return !ladderActs(((req.plan ?? {}) as { remediation?: unknown }).remediation);
  }, "re-runs the gate when the value changes (not when first recorded, nor while the remediation ladder acts)");

/** A (uri, health) pair of a BMC finding, as bmc_health lists it. */
const findingKeys = (v: unknown): Set<string> =>
  new Set(
    (Array.isArray(v) ? v : []).map((f) => {
      const o = (f ?? {}) as { uri?: unknown; health?: unknown };
      return `${String(o.uri)}|${String(o.health)}`;
    }),
  );

/** Re-runs the gate when the BMC reports a component newly not OK (not when findings clear, nor when first recorded). */
const rerunOnNewFinding = () =>
  requiresReplaceIf((req) => {
    if (req.stateValue === null || req.stateValue === undefined || !Array.isArray(req.planValue)) return false;
    // Following a remediation ladder: the ladder re-runs the gate, in place (remediation).
    if (((req.plan ?? {}) as { remediation?: unknown }).remediation != null) return false;
    const before = findingKeys(req.stateValue);
    return [...findingKeys(req.planValue)].some((k) => !before.has(k));
  }, "re-runs the gate when the BMC reports a component newly not OK");

const wholeNumber = validator("a whole number", (req, resp) => {
  const n = req.value instanceof BigNumber ? Number(req.value.text) : req.value;
  if (typeof n !== "number") return;
  if (!Number.isInteger(n)) {
    resp.diagnostics.error("Invalid attribute value", `Expected a whole number, got ${String(req.value)}.`, req.path);
  }
});

const burnInDuration = validator("a duration such as 72h or 1h30m", (req, resp) => {
  if (typeof req.value !== "string") return;
  let ms = -1;
  try {
    ms = parseDuration(req.value);
  } catch (e) {
    resp.diagnostics.error("Invalid burn-in duration", (e as Error).message, req.path);
    return;
  }
  if (ms < 1000) resp.diagnostics.error("Invalid burn-in duration", "burn_in must be at least 1s.", req.path);
});

/** The rackform_acceptance schema. */
export const acceptanceSchema = {
  version: 0,
  description:
    "The acceptance gate of a deployed machine, run through its backend (MAAS testing script `rackform-acceptance`, " +
    "Ironic service step `deploy.rackform_acceptance`, Warewulf runtime overlay `rackform-acceptance` with request " +
    "and result node tags, a convention of rackform's that the site imports): DCGM diagnostics, NCCL all_reduce bus bandwidth, burn-in, " +
    "GPU count, XID events and firmware versions. A pass records the measured values as evidence. A failure reports " +
    "measured against threshold for every failed check, quarantines the machine in the backend (MAAS Broken with a " +
    "comment, Ironic maintenance with a reason) so it never joins a scheduler, and is recorded as tainted: the next " +
    "apply runs the gate again (after lifting rackform's own quarantine). A machine taken out of service by hand " +
    "(MAAS Broken, Ironic maintenance) reads as not passed; the next apply returns it to service and runs the gate, " +
    "which decides whether it rejoins. With bmc_gpu_count following the BMC, a GPU lost on a running node re-runs " +
    "the gate too, which fails on the missing GPU and quarantines the node. Refresh re-reads the backend's status and " +
    "latest gate result, so a degraded or quarantined node shows `passed` changing and a planned re-run. An edit of " +
    "the policy (dcgm_level, nccl_min_busbw_gbps, burn_in, expected_gpu_count, allow_xid, firmware) is judged at plan " +
    "against the evidence in state: a node whose evidence still passes the new policy is updated in place (verdict " +
    "and evidence kept, nothing built on its id touched, no drain); a node the evidence no longer covers (a threshold " +
    "raised above what it measured, a longer burn-in or a higher DCGM level than it ran, evidence that does not " +
    "record the burn-in length it ran) re-runs the gate, and the plan warns naming the node, the measured value and " +
    "the new threshold. A value first recorded (after an import) re-runs nothing. Destroy forgets the result and lifts a quarantine rackform set (Ironic maintenance, MAAS Broken or its description note; MAAS's own Failed testing stays, and release handles it), so nothing rackform set blocks the machine's teardown or outlives its gate; a machine taken out of service by hand stays as it is. Import with the machine id.",
  attributes: {
    id: attr.string({
      computed: true,
      description: 'The machine id, e.g. "maas:4y3h7n".',
      planModifiers: [useStateForUnknown()],
    }),
    machine_id: attr.string({
      required: true,
      description:
        'The rackform_machine id, e.g. "maas:4y3h7n" (usually rackform_deployment.x.id, so the gate runs after the deploy).',
      validators: [stringMatches(MACHINE_ID, 'a rackform_machine id such as "maas:4y3h7n" or "ironic:<uuid>"')],
      planModifiers: [rerunUnlessImported()],
    }),
    dcgm_level: attr.number({
      optional: true,
      computed: true,
      default: 3,
      description:
        "dcgmi diag level, 1 (quick) to 4 (extended). Levels are cumulative: lowered, the evidence of the level " +
        "that ran covers it (in place); raised above it, the gate re-runs on that node. @default 3",
      validators: [numberBetween(1, 4), wholeNumber],
    }),
    nccl_min_busbw_gbps: attr.number({
      optional: true,
      description:
        "Minimum NCCL all_reduce bus bandwidth in GB/s, e.g. 370 on 400 Gb/s fabric. Changed, it is judged against " +
        "the bandwidth the evidence measured: at or below it, in place; above it, the gate re-runs on that node. @default the gate's: 92 % of the fabric line rate rounded to 10 GB/s (370 on 8 × 400 Gb/s)",
      validators: [numberBetween(1, 10_000)],
    }),
    burn_in: attr.string({
      optional: true,
      computed: true,
      default: "1h",
      description:
        'Burn-in duration, e.g. "72h". Set timeouts.create above it. Changed, it is judged against the burn-in the ' +
        "evidence ran (`burn_in.requested_s`): as long or shorter, in place; longer, or evidence that does not record " +
        'its length, the gate re-runs on that node. @default "1h"',
      validators: [burnInDuration],
    }),
    expected_gpu_count: attr.number({
      optional: true,
      description:
        "GPUs that must be visible; changed, judged against the GPUs the evidence saw. @default the count the " +
        "hardware reports it should have",
      validators: [numberBetween(1, 64), wholeNumber],
    }),
    bmc_gpu_count: attr.number({
      optional: true,
      description:
        "The GPUs the node's BMC reports, usually rackform_bmc.x.gpu_count. When it changes on a running node (a GPU " +
        "lost, or back after a repair) the gate runs again: a node that lost a GPU fails it, is quarantined and leaves " +
        "its scheduler (a cluster member whose gate_id is this id drains); the repaired node passes and rejoins. " +
        "While the remediation ladder takes a step on the node (remediation), the gate runs in place inside that " +
        "step, after its remedy, instead. First recorded (after an import, or on a gate created before this " +
        "attribute), it re-runs nothing. @default not followed",
      validators: [numberBetween(0, 64), wholeNumber],
      planModifiers: [rerunWhenGpusChange()],
    }),
    bmc_health: attr.list(
      ["object", { component: "string", kind: "string", health: "string", uri: "string", since: "string" }],
      {
        optional: true,
        description:
          "The components the node's BMC reports as not healthy, usually rackform_bmc.x.health. When it names a " +
          "component newly Warning or Critical on a running node, the gate runs again (a cluster member whose gate_id " +
          "is this id drains first, within its disruption budget); a component Critical fails the gate, which " +
          "quarantines the node with the finding as evidence, and a Warning is recorded in the evidence only. Findings " +
          "that clear re-run nothing. First recorded, it re-runs nothing. @default not followed",
        planModifiers: [rerunOnNewFinding()],
      },
    ),
    allow_xid: attr.bool({
      optional: true,
      computed: true,
      default: false,
      description:
        "Accept XID errors (during burn-in too) instead of failing the gate. Turned off, the gate re-runs only on " +
        "nodes whose evidence has XID events. @default false",
    }),
    firmware: attr.map("string", {
      optional: true,
      description:
        'Required firmware versions by component, e.g. { bmc = "1.2.3", gpu = "96.00.99" }; changed, judged ' +
        "against the versions the evidence recorded.",
    }),
    image_ref: attr.string({
      optional: true,
      description:
        "The image the gate judges, usually rackform_deployment.x.image_ref of a rolling deployment. When it changes " +
        "on a recorded gate, the gate runs again inside the rolling reimage that the node's rackform_cluster_member " +
        "(whose image_ref is the same) carries out after the new image is deployed: this resource records the change " +
        "in place with passed unknown, and the next refresh reads the new run's verdict and evidence. First recorded, " +
        "it re-runs nothing. @default not followed (an image change reaches the gate as a replacement of machine_id)",
    }),
    remediation: attr.string({
      optional: true,
      description:
        "The node's place on its health remediation ladder: rackform_deployment.x.remediation of the node. When it " +
        "plans a step (a power cycle or a reimage), the gate runs again inside that step, which the node's " +
        "rackform_cluster_member carries out; this resource records it in place with passed unknown, and the next " +
        "refresh reads the new run's verdict. While followed, the BMC's findings (bmc_health) are the ladder's to " +
        "act on: they re-run nothing by replacement and a Critical one no longer fails the verdict by itself (the " +
        'ladder takes that node to "repair" instead, where it stays quarantined with its evidence). @default not followed',
    }),
    ...acceptanceRecheckAttributes,
    ...attestationAttributes,
    firmware_ref: attr.string({
      optional: true,
      description:
        "The firmware baseline the gate judges: rackform_firmware.x.ref of the node. When it changes, the gate runs " +
        "again inside the node's rolling update that its rackform_cluster_member (firmware_ref the same) carries " +
        "out once the new firmware runs, as for image_ref. @default not followed",
    }),
    passed: attr.bool({
      computed: true,
      description:
        "Whether the machine meets the gate, as of the last refresh: false after a failure, and when the backend " +
        "later reports the machine quarantined, failed or failing its latest gate run (the plan then re-runs it); " +
        "null while a rolling reimage's gate run is still to come (see image_ref).",
    }),
    gpu_count: attr.number({ computed: true, description: "GPUs visible in the latest run." }),
    busbw_gbps: attr.number({ computed: true, description: "Measured NCCL all_reduce bus bandwidth in GB/s." }),
    evidence: attr.string({
      computed: true,
      description: "The latest `rackform-acceptance/v1` document (JSON): every measured value, test and firmware hash.",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update", "delete"]) },
} as const;

/** The recorded gate. */
export type AcceptanceState = ModelOf<typeof acceptanceSchema>;
/** The planned gate at apply: computed attributes may be unknown. */
export type AcceptancePlan = ModelOf<typeof acceptanceSchema, "plan">;
/** The planned gate at plan time: any attribute may be unknown. */
export type AcceptanceConfig = ModelOf<typeof acceptanceSchema, "config">;

/** A value the caller needs known; unknown is a provider bug (the server reports it as such). */
function known<T>(v: Unknowable<T>, name: string): T {
  if (isUnknownValue(v)) throw new ValueTypeError(`"${name}" is unknown here; check isKnown() first`);
  return v;
}

/** The thresholds of a plan or state (defaults filled); the thresholds it reads must be known. */
export function thresholdsOf(v: AcceptanceConfig): Thresholds {
  const fw = v.firmware;
  return {
    dcgmLevel: known(v.dcgm_level, "dcgm_level") ?? 3,
    ncclMinBusbwGBps: known(v.nccl_min_busbw_gbps, "nccl_min_busbw_gbps") ?? undefined,
    expectedGpuCount: known(v.expected_gpu_count, "expected_gpu_count") ?? undefined,
    allowXid: known(v.allow_xid, "allow_xid") ?? false,
    // Following a remediation ladder, the BMC's findings are the ladder's business, not the verdict's.
    ...(Array.isArray(v.bmc_health) && v.remediation === null ? { bmcHealth: findingsIn(v.bmc_health) } : {}),
    firmware:
      fw !== null && !isUnknownValue(fw) ? Object.fromEntries(Object.entries(fw).map(([k, x]) => [k, String(x)])) : {},
  };
}

/** What the backend's gate runs with; the values it reads must be known. */
export function paramsOf(v: AcceptanceConfig): AcceptanceParams {
  return {
    dcgmLevel: known(v.dcgm_level, "dcgm_level") ?? 3,
    burnIn: known(v.burn_in, "burn_in") ?? "1h",
    ncclMinBusbwGBps: known(v.nccl_min_busbw_gbps, "nccl_min_busbw_gbps") ?? undefined,
  };
}

/** The burn-in of a plan or state; it must be known. */
export function burnInOf(v: AcceptanceConfig): string | null {
  return known(v.burn_in, "burn_in");
}
