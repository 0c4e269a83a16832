/**
 * An acceptance gate: what a deployed node must prove before it joins the scheduler. Defaults are the usual bar for
 * a GPU node entering production: DCGM diagnostics level 3, NCCL all_reduce bus bandwidth at 92 % of the fabric line
 * rate, a 72 h burn-in, every GPU of the flavor visible and no XID error.
 */
import { Construct } from "constructs";
import type { AcceptanceConfig } from "../gen/providers/rackform/acceptance/index.js";
import type { AttestationPolicy } from "./attestation-policy.js";
import { type DurationLike, durationText } from "./duration.js";
import type { ValidationProblem } from "./errors.js";
import type { Flavor } from "./flavor.js";
import { throwInvalid } from "./private/invalid.js";
import { type PropsSchema, validateProps } from "./private/validate.js";

/** Share of the fabric line rate the NCCL bus bandwidth must reach by default. */
export const DEFAULT_NCCL_LINE_RATE_SHARE = 0.92;

/** The default NCCL threshold: 92 % of `lineRateGBps` rounded to 10 GB/s (370 GB/s on 8 × 400 Gb/s). */
export function defaultNcclThresholdGBps(lineRateGBps: number): number {
  return Math.round((lineRateGBps * DEFAULT_NCCL_LINE_RATE_SHARE) / 10) * 10;
}

/** Properties of an AcceptancePolicy. */
export interface AcceptancePolicyProps {
  /** dcgmi diag level, 1 (quick) to 4 (extended). @default 3 */
  readonly dcgmLevel?: number;
  /** Least NCCL all_reduce bus bandwidth in GB/s. @default 92 % of the flavor's fabric line rate, rounded to 10 GB/s (370 GB/s on 8 × 400 Gb/s) */
  readonly ncclBusbwMinGBps?: number;
  /** Burn-in duration: `Duration.hours(72)`, or text such as "72h" or "1h30m" (at least 1s). @default "72h" */
  readonly burnIn?: DurationLike;
  /** GPUs that must be visible. @default the flavor's GPU count */
  readonly expectedGpuCount?: number;
  /** Accept XID errors instead of failing the gate. @default false */
  readonly allowXid?: boolean;
  /** Firmware versions the gate attests, component → version. @default none (rackform_bmc already checks the flavor's baseline before enrollment) */
  readonly firmware?: Readonly<Record<string, string>>;
  /** Attest each node's components (signed SPDM measurements) before it joins. @default not attested */
  readonly attestation?: AttestationPolicy;
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    dcgmLevel: {
      type: "integer",
      minimum: 1,
      maximum: 4,
      expect: "a DCGM diag level in 1..4",
      fix: "use 1 (quick), 2 (medium), 3 (long, the usual gate) or 4 (extended)",
    },
    ncclBusbwMinGBps: {
      type: "number",
      exclusiveMinimum: 0,
      expect: "a bandwidth above 0 GB/s",
      fix: "give the least all_reduce bus bandwidth in GB/s, e.g. 370 on 8 × 400 Gb/s, or leave it out for 92 % of line rate rounded to 10 GB/s",
    },
    burnIn: {
      type: "string",
      format: "duration",
      expect: "a duration of at least 1s",
      fix: 'write a duration such as "72h" or "1h30m"',
    },
    expectedGpuCount: {
      type: "integer",
      minimum: 1,
      maximum: 64,
      expect: "a GPU count in 1..64",
      fix: "leave it out to use the flavor's GPU count",
    },
    allowXid: { type: "boolean" },
    attestation: { type: "object" },
    firmware: {
      type: "object",
      additionalProperties: {
        type: "string",
        minLength: 1,
        expect: "a firmware version",
        fix: "give the exact version",
      },
    },
  },
};

/** Thresholds of the acceptance gate, validated at synth; it creates no resource (a Rack applies it per node). */
export class AcceptancePolicy extends Construct {
  /** dcgmi diag level. */
  readonly dcgmLevel: number;
  /** Explicit NCCL threshold in GB/s, if given (else derived from the flavor by `ncclThresholdGBps`). */
  readonly ncclBusbwMinGBps: number | undefined;
  /** Burn-in duration. */
  readonly burnIn: string;
  /** Explicit GPU count, if given (else the flavor's). */
  readonly expectedGpuCount: number | undefined;
  /** Whether XID errors are accepted. */
  readonly allowXid: boolean;
  /** Firmware versions the gate attests (may be empty). */
  readonly firmware: Readonly<Record<string, string>>;
  /** The attestation each node's gate runs, if any. */
  readonly attestation: AttestationPolicy | undefined;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: AcceptancePolicyProps = {}) {
    super(scope, id);
    validateProps(this, SCHEMA, { ...props, burnIn: durationText(props.burnIn) });
    this.dcgmLevel = props.dcgmLevel ?? 3;
    this.ncclBusbwMinGBps = props.ncclBusbwMinGBps;
    this.burnIn = durationText(props.burnIn) ?? "72h";
    this.expectedGpuCount = props.expectedGpuCount;
    this.allowXid = props.allowXid ?? false;
    this.firmware = { ...(props.firmware ?? {}) };
    this.attestation = props.attestation;
  }

  /** The NCCL threshold for `flavor`: the explicit one, else the default (`defaultNcclThresholdGBps`). */
  ncclThresholdGBps(flavor: Flavor): number {
    return this.ncclBusbwMinGBps ?? defaultNcclThresholdGBps(flavor.fabricLineRateGBps);
  }

  /** Problems using this policy with `flavor` (a threshold above the line rate, more GPUs than the flavor has). */
  problemsWith(flavor: Flavor): ValidationProblem[] {
    const at = this.node.path;
    const problems: ValidationProblem[] = [];
    const threshold = this.ncclThresholdGBps(flavor);
    const line = flavor.fabricLineRateGBps;
    if (threshold > line) {
      problems.push({
        path: `${at}/ncclBusbwMinGBps`,
        problem: `${threshold} GB/s is above the line rate of flavor ${flavor.node.id} (${line} GB/s), so no node could pass`,
        fix: `use at most ${line} GB/s, or leave it out for the default ${defaultNcclThresholdGBps(line)} GB/s (92 % of line rate)`,
      });
    }
    if (this.expectedGpuCount !== undefined && this.expectedGpuCount !== flavor.gpus.count) {
      problems.push({
        path: `${at}/expectedGpuCount`,
        problem: `${this.expectedGpuCount} differs from flavor ${flavor.node.id}'s ${flavor.gpus.count} GPUs, so every node would fail one check`,
        fix: "leave expectedGpuCount out to use the flavor's GPU count",
      });
    }
    return problems;
  }

  /** Throws a RackformValidationError scoped at this policy when it cannot be used with `flavor` (a Rack calls it). */
  validateFor(flavor: Flavor): void {
    const problems = this.problemsWith(flavor);
    if (problems.length > 0) throwInvalid(this.node.path, problems);
  }

  /** The rackform_acceptance thresholds for a node of `flavor` (machineId is the caller's). */
  toAcceptanceConfig(flavor: Flavor): Omit<AcceptanceConfig, "machineId"> {
    return {
      dcgmLevel: this.dcgmLevel,
      ncclMinBusbwGbps: this.ncclThresholdGBps(flavor),
      burnIn: this.burnIn,
      expectedGpuCount: this.expectedGpuCount ?? flavor.gpus.count,
      allowXid: this.allowXid,
      ...(Object.keys(this.firmware).length > 0 ? { firmware: { ...this.firmware } } : {}),
    };
  }
}
