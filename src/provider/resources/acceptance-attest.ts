/**
 * rackform_acceptance's attestation step: every SPDM component the node's BMC lists under ComponentIntegrity is asked
 * for signed measurements over a fresh random nonce, and the answer is verified (signature, certificate chain to the
 * trust anchors, the nonce, the measurements against the pinned reference values). The verdict is one check of the
 * gate; the evidence keeps each signed answer as the BMC returned it, so it can be verified again offline.
 */
import { randomBytes } from "node:crypto";
import type { ReferenceValues } from "../../clients/attest/index.js";
import { isClientError } from "../../clients/errors.js";
import type { IntegrityComponent, RedfishClient } from "../../clients/redfish/index.js";
import type { Logger } from "../../framework/index.js";
import type { AcceptancePlan } from "./acceptance-schema.js";
import type { Check, Verdict } from "./acceptance-verdict.js";
import { sha256Hex } from "./attestation-schema.js";

/** The verifier, loaded when a gate attests (the X.509 library is not evaluated at every provider start). */
type AttestLib = typeof import("../../clients/attest/index.js");
const loadAttestLib = (): Promise<AttestLib> => import("../../clients/attest/index.js");

/** The part of a BMC's Redfish client attestation uses. */
export type AttestBmc = Pick<
  RedfishClient,
  "componentIntegrity" | "spdmSignedMeasurements" | "certificateChain" | "componentModel"
>;

/** What `attestation` configures. */
export interface AttestConfig {
  readonly origin: string;
  readonly anchors: readonly string[];
  readonly referenceText: string;
  /** Kinds that must be listed (COMPONENT_KINDS). */
  readonly kinds: readonly string[];
}

/** One component's record in the evidence. */
export interface ComponentRecord {
  readonly id: string;
  readonly kind: string;
  readonly target: string;
  readonly model?: string;
  readonly nonce: string;
  readonly answer?: {
    readonly version: string;
    readonly hashing_algorithm: string;
    readonly signing_algorithm: string;
    readonly signed_measurements: string;
  };
  readonly certificate_chain: readonly string[];
  readonly measurements: readonly { readonly index: number; readonly digest: string }[];
  readonly passed: boolean;
  readonly problems: readonly string[];
}

/** The outcome: the gate's check, its failure lines and the evidence document (JSON). */
export interface AttestOutcome {
  readonly check: Check;
  readonly lines: readonly string[];
  readonly evidence: string;
  readonly attested: number;
  readonly listed: number;
}

/** The kind of a component, from the resource its ComponentIntegrity targets. */
export function kindOf(c: Pick<IntegrityComponent, "targetUri" | "id">): string {
  const t = `${c.targetUri ?? ""}`;
  const last = t.split("/").pop() ?? "";
  if (/\/Managers\//.test(t)) return "BMC";
  if (/dpu|bluefield/i.test(last) || /dpu|bluefield/i.test(c.id)) return "DPU";
  if (/\/NetworkAdapters\//.test(t)) return "NIC";
  if (/\/Switches\//.test(t)) return "Switch";
  if (/\/PCIeDevices\//.test(t)) return "PCIe";
  if (/\/Processors\//.test(t)) return /gpu/i.test(last) || /gpu/i.test(c.id) ? "GPU" : "CPU";
  return "PCIe";
}

/** Attests one component: nonce, signed answer, chain, verification, references. */
async function attestOne(
  bmc: AttestBmc,
  c: IntegrityComponent,
  cfg: AttestConfig,
  refs: ReferenceValues,
  lib: AttestLib,
): Promise<ComponentRecord> {
  const nonce = randomBytes(32).toString("hex");
  const base = { id: c.id, kind: kindOf(c), target: c.targetUri ?? "", nonce };
  if (!c.measureUri) {
    return {
      ...base,
      certificate_chain: [],
      measurements: [],
      passed: false,
      problems: ["the BMC offers no SPDMGetSignedMeasurements action for it"],
    };
  }
  let answer: Awaited<ReturnType<AttestBmc["spdmSignedMeasurements"]>>;
  try {
    answer = await bmc.spdmSignedMeasurements(c.measureUri, { nonceHex: nonce });
  } catch (e) {
    if (!isClientError(e)) throw e;
    return { ...base, certificate_chain: [], measurements: [], passed: false, problems: [`no answer: ${e.message}`] };
  }
  const certUri = answer.certificateUri ?? c.certificateUri;
  const chain = certUri ? await bmc.certificateChain(certUri) : [];
  // The model of the device picks its reference entry where the document names models.
  const model = c.targetUri ? await bmc.componentModel(c.targetUri) : undefined;
  const v = await lib.judgeAnswer({
    transcriptB64: answer.signedMeasurementsB64,
    nonceHex: nonce,
    chainPem: chain.join("\n"),
    trustAnchorsPem: cfg.anchors,
    component: c.id,
    hashingAlgorithm: answer.hashingAlgorithm,
    refs,
    ...(model ? { model } : {}),
  });
  return {
    ...base,
    ...(model ? { model } : {}),
    answer: {
      version: answer.version,
      hashing_algorithm: answer.hashingAlgorithm,
      signing_algorithm: answer.signingAlgorithm,
      signed_measurements: answer.signedMeasurementsB64,
    },
    certificate_chain: chain,
    measurements: v.measurements.map((m) => ({ index: m.index, digest: m.text ?? m.valueHex })),
    passed: v.ok,
    problems: v.problems.map(lib.problemText),
  };
}

/** Lists the node's SPDM components and attests each; the gate's check and the evidence. */
export async function attest(bmc: AttestBmc, cfg: AttestConfig): Promise<AttestOutcome> {
  const lib = await loadAttestLib();
  const refs = lib.parseReferenceValues(JSON.parse(cfg.referenceText));
  const listed = (await bmc.componentIntegrity()).filter((c) => c.type === "SPDM" && c.enabled !== false);
  const records: ComponentRecord[] = [];
  // One component at a time: a BMC relays each request to its device over a slow management bus.
  for (const c of listed) records.push(await attestOne(bmc, c, cfg, refs, lib));
  const missingKinds = cfg.kinds.filter((k) => !records.some((r) => r.kind === k));
  const lines = [
    ...missingKinds.map(
      (k) => `attestation: no ${k} listed under the BMC's ComponentIntegrity (components requires it)`,
    ),
    ...records.flatMap((r) => r.problems.map((p) => `attestation: ${r.id} (${r.kind}) ${p}`)),
  ];
  const attested = records.filter((r) => r.passed).length;
  const passed = lines.length === 0 && records.length > 0;
  if (records.length === 0 && missingKinds.length === 0)
    lines.push("attestation: the BMC lists no SPDM component to attest");
  const evidence = {
    format: "rackform-attestation/v1",
    bmc: cfg.origin,
    measured_at: new Date().toISOString(),
    reference_sha256: sha256Hex(cfg.referenceText),
    trust_anchors: cfg.anchors,
    required_kinds: cfg.kinds,
    passed,
    components: records,
  };
  const check: Check = {
    attribute: "attestation",
    measured: `${attested} of ${records.length} components attested${missingKinds.length ? `; no ${missingKinds.join(", ")} listed` : ""}`,
    threshold: "every component's signed measurements verify and match the reference values",
    passed,
  };
  return { check, lines, evidence: JSON.stringify(evidence), attested, listed: records.length };
}

/** The gate's attestation, when `attestation` is set. */
export async function attestGate(
  plan: AcceptancePlan,
  bmc: (origin: string) => AttestBmc,
  log: Logger,
): Promise<AttestOutcome | undefined> {
  const a = plan.attestation;
  if (!a) return undefined;
  const origin = new URL(a.bmc_endpoint).origin;
  log.info("attesting the node's components", { bmc: origin });
  const kinds = a.components ?? [];
  const out = await attest(bmc(origin), { origin, anchors: a.trust_anchors, referenceText: a.reference_values, kinds });
  log.info("attestation", { bmc: origin, attested: out.attested, listed: out.listed, passed: out.check.passed });
  return out;
}

/** The verdict with the attestation's check. */
export function withAttestation(v: Verdict | undefined, att: AttestOutcome | undefined): Verdict | undefined {
  if (!v || !att) return v;
  return { ...v, checks: [...v.checks, att.check], passed: v.passed && att.check.passed };
}
