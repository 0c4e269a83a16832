/**
 * An attestation policy: what a node's components must prove before it joins — signed SPDM measurements whose
 * certificate chains end at the trust anchors and whose digests equal the pinned reference values. Given to an
 * AcceptancePolicy (`attestation`), it becomes each node's rackform_acceptance `attestation` (a Rack wires the node's
 * BMC address).
 */
import { Construct } from "constructs";
import type { AcceptanceAttestation } from "../gen/providers/rackform/acceptance/index.js";
import { certificateProblems, pinProblem } from "./private/trust-spec.js";
import { type PropsSchema, validateProps } from "./private/validate.js";

/** The component kinds a BMC lists under ComponentIntegrity. */
export type ComponentKind = "GPU" | "BMC" | "NIC" | "DPU" | "CPU" | "Switch" | "PCIe";

/** Properties of an AttestationPolicy. */
export interface AttestationPolicyProps {
  /** CA certificates (PEM) the components' certificate chains must end at: the device vendors' identity roots. */
  readonly trustAnchors: readonly string[];
  /**
   * The reference measurements (the JSON text of a `rackform_reference_values` document, e.g.
   * `readFileSync("reference.json", "utf8")`): the firmware version each component reports picks the entry whose
   * digests its measurements must equal.
   */
  readonly referenceValues: string;
  /** sha256 of referenceValues (64 hex digits): the document a reviewer approved. */
  readonly referenceSha256: string;
  /** Component kinds that must be listed and attest. @default every SPDM component the BMC lists */
  readonly components?: readonly ComponentKind[];
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["trustAnchors", "referenceValues", "referenceSha256"],
  properties: {
    trustAnchors: {
      type: "array",
      minItems: 1,
      items: { type: "string" },
      expect: "a list of at least one CA certificate",
      fix: "give the vendors' root CA certificates as PEM text",
    },
    referenceValues: {
      type: "string",
      minLength: 1,
      expect: "the reference-values document",
      fix: "read it from a file",
    },
    referenceSha256: {
      type: "string",
      pattern: "^[0-9a-fA-F]{64}$",
      expect: "a sha256 digest",
      fix: "give 64 hex digits (sha256sum reference.json)",
    },
    components: {
      type: "array",
      items: {
        enum: ["GPU", "BMC", "NIC", "DPU", "CPU", "Switch", "PCIe"],
        expect: "a component kind",
        fix: "use GPU, BMC, NIC, DPU, CPU, Switch or PCIe",
      },
    },
  },
};

/** Trust anchors and reference values, validated at synth; it creates no resource. */
export class AttestationPolicy extends Construct {
  /** The trust anchors (PEM). */
  readonly trustAnchors: readonly string[];
  /** The reference-values document. */
  readonly referenceValues: string;
  /** Its pinned sha256. */
  readonly referenceSha256: string;
  /** The kinds that must attest (empty: every listed component, none required by kind). */
  readonly components: readonly ComponentKind[];

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: AttestationPolicyProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) => [
      ...certificateProblems(
        `${base}/trustAnchors`,
        props.trustAnchors,
        true,
        "give the CA certificate the chains end at (PEM)",
      ),
      ...(typeof props.referenceValues === "string" && typeof props.referenceSha256 === "string"
        ? pinProblem(`${base}/referenceSha256`, props.referenceValues, props.referenceSha256)
        : []),
    ]);
    this.trustAnchors = [...props.trustAnchors];
    this.referenceValues = props.referenceValues;
    this.referenceSha256 = props.referenceSha256.toLowerCase();
    this.components = [...(props.components ?? [])];
  }

  /** rackform_acceptance's `attestation` for the node whose BMC answers at `bmcEndpoint`. */
  toAttestation(bmcEndpoint: string): AcceptanceAttestation {
    return {
      bmcEndpoint,
      trustAnchors: [...this.trustAnchors],
      referenceValues: this.referenceValues,
      referenceSha256: this.referenceSha256,
      ...(this.components.length > 0 ? { components: [...this.components] } : {}),
    };
  }
}
