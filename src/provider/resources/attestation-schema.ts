/**
 * rackform_acceptance's attestation attributes: the trust anchors, the pinned reference values and the components
 * that must attest (`attestation`), and the signed answers kept as evidence (`attestation_evidence`). Every input is
 * checked when the configuration is validated — a trust anchor that is not a CA, a reference document whose sha256
 * is not the pinned one or that does not parse, a component kind no BMC lists — before any request to a BMC.
 */
import { createHash, X509Certificate } from "node:crypto";
// pem.js itself, not the attest index: validation must not load the X.509 library at every provider start.
import { splitPem } from "../../clients/attest/pem.js";
import { attr, isUnknownValue, planModifier, stringMatches, validator } from "../../framework/index.js";
import { redfishEndpoint } from "../shared/endpoint.js";
import { SHA256 } from "./deployment-schema.js";

/** The component kinds a node's ComponentIntegrity can list, as `components` names them. */
export const COMPONENT_KINDS = ["GPU", "BMC", "NIC", "DPU", "CPU", "Switch", "PCIe"] as const;

/** Why a trust anchor cannot be one, or undefined. */
export function anchorProblem(pem: string): string | undefined {
  const blocks = splitPem(pem);
  if (blocks.length !== 1) return `holds ${blocks.length} certificates; give one CA certificate per entry`;
  try {
    const c = new X509Certificate(blocks[0]);
    if (!c.ca) return `(${c.subject.replaceAll("\n", ", ")}) is not a CA certificate (basicConstraints cA is not set)`;
  } catch (e) {
    return `is not a readable X.509 certificate (${(e as Error).message})`;
  }
  return undefined;
}

const trustAnchors = validator("PEM CA certificates", (req, resp) => {
  if (!Array.isArray(req.value)) return;
  if (req.value.length === 0) {
    resp.diagnostics.error(
      "No trust anchor",
      "Give at least one CA certificate (PEM), e.g. the GPU vendor's root CA.",
      req.path,
    );
  }
  for (const [i, pem] of req.value.entries()) {
    const p = typeof pem === "string" ? anchorProblem(pem) : undefined;
    if (p) {
      resp.diagnostics.error(
        "Invalid trust anchor",
        `trust_anchors[${i}] ${p}. A trust anchor is the root (or intermediate) CA the components' certificate chains end at. Nothing was sent to any BMC.`,
        req.path,
      );
    }
  }
});

/** The reference document must hash to the pinned sha256 and parse. */
const referenceDocument = validator("a reference-values document matching reference_sha256", (req, resp) => {
  if (typeof req.value !== "string") return;
  const pinned = req.parent.reference_sha256;
  const got = createHash("sha256").update(req.value).digest("hex");
  if (typeof pinned === "string" && pinned.toLowerCase() !== got) {
    resp.diagnostics.error(
      "Reference values do not match their pinned sha256",
      `The reference-values document hashes to sha256 ${got}, not the ${pinned} reference_sha256 pins. Check the file you meant to pin (a changed document must be reviewed and its digest pinned again). Nothing was sent to any BMC.`,
      req.path,
    );
    return;
  }
  try {
    const doc = JSON.parse(req.value) as { rackform_reference_values?: unknown; references?: unknown };
    if (doc.rackform_reference_values !== 1 || !Array.isArray(doc.references)) throw new Error("not version 1");
  } catch (e) {
    resp.diagnostics.error(
      "Invalid reference values",
      `The document is not a rackform reference-values document (JSON with "rackform_reference_values": 1 and "references"): ${(e as Error).message}.`,
      req.path,
    );
  }
});

const componentKinds = validator(`component kinds (${COMPONENT_KINDS.join(", ")})`, (req, resp) => {
  if (!Array.isArray(req.value)) return;
  for (const k of req.value) {
    if (typeof k === "string" && !(COMPONENT_KINDS as readonly string[]).includes(k)) {
      resp.diagnostics.error(
        "Unknown component kind",
        `${JSON.stringify(k)} is not a component kind a BMC lists under ComponentIntegrity; use one of ${COMPONENT_KINDS.join(", ")}.`,
        req.path,
      );
    }
  }
});

/** An in-place update keeps the recorded evidence, none included: only a gate run replaces it. */
const keepRecorded = planModifier("kept as recorded until the next gate run", (req, resp) => {
  if (req.state === null || !isUnknownValue(resp.planValue)) return;
  resp.planValue = req.stateValue ?? null;
});

/** The attestation attributes of rackform_acceptance. */
export const attestationAttributes = {
  attestation: attr.single(
    {
      bmc_endpoint: attr.string({
        required: true,
        description: "Address of the node's BMC, usually rackform_bmc.x.endpoint.",
        validators: [redfishEndpoint],
      }),
      trust_anchors: attr.list("string", {
        required: true,
        description:
          "CA certificates (PEM) the components' certificate chains must end at, e.g. the GPU and NIC vendors' " +
          "device-identity root CAs.",
        validators: [trustAnchors],
      }),
      reference_values: attr.string({
        required: true,
        description:
          'The reference measurements to compare with (JSON, usually file("reference.json")): ' +
          '`{"rackform_reference_values": 1, "references": [{"vendor", "model", "version", "measurements": ' +
          '[{"index", "alg", "digest"}]}]}` — a subset of a CoRIM reference-value triple: the firmware version ' +
          "the component reports (measurement index 5) picks the entry, whose digests indices 1–4 must equal.",
        validators: [referenceDocument],
      }),
      reference_sha256: attr.string({
        required: true,
        description: "sha256 of reference_values (64 hex digits): the document a reviewer approved.",
        validators: [stringMatches(SHA256, "a sha256 digest of 64 hex digits")],
      }),
      components: attr.list("string", {
        optional: true,
        description:
          `Component kinds that must attest (${COMPONENT_KINDS.join(", ")}): a node whose BMC lists none of a kind ` +
          "fails its gate. Every SPDM component the BMC lists is attested either way. @default every listed component",
        validators: [componentKinds],
      }),
    },
    {
      optional: true,
      description:
        "Attest the node's components before it is admitted: for each SPDM component its BMC lists under " +
        "ComponentIntegrity, a fresh random nonce goes to SPDMGetSignedMeasurements; the answer's signature is " +
        "verified with the component's certificate, the certificate chain up to `trust_anchors`, the nonce in the " +
        "answer against the one sent, and each measurement against `reference_values`. A mismatch, an unverifiable " +
        "chain, a replayed answer or a missing component fails the gate (the node is quarantined with the evidence, " +
        "the other nodes go on). Runs with every gate run. @default not attested",
    },
  ),
  attestation_evidence: attr.string({
    computed: true,
    description:
      "The last attestation (JSON, `rackform-attestation/v1`): per component the nonce sent, the signed answer as " +
      "the BMC returned it (SPDM transcript, base64), its certificate chain, the measurements and the verdict — an " +
      "auditor re-verifies it offline with `rackform attest verify`. After a gate the node's cluster member re-ran " +
      "in a rolling update, the attestation made by the refresh that records that run (the run's own answers stay " +
      "in its apply). Null when not attested.",
    planModifiers: [keepRecorded],
  }),
} as const;

/** The pinned sha256 of a reference document, as the evidence records it. */
export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");
