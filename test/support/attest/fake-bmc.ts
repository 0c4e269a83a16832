/**
 * A node's BMC for attestation tests: GPU_0, GPU_1 and the BMC itself listed under ComponentIntegrity, answering with
 * SPDM transcripts built from DSP0274's layouts (spdm-builder.ts) and signed by a per-test PKI, with faults per
 * component: a tampered measurement, a chain from an unknown CA, a replayed answer, a component that does not answer.
 */
import { RedfishError } from "../../../src/clients/errors.js";
import type { IntegrityComponent, MeasureRequest, SpdmAnswer } from "../../../src/clients/redfish/index.js";
import type { AttestBmc } from "../../../src/provider/resources/acceptance-attest.js";
import { buildTranscript, labBlocks, makePki } from "./spdm-builder.js";

/** The components' PKI (its root is the trust anchor). */
export const pki = await makePki();
/** A PKI nobody trusts. */
export const stranger = await makePki({ rootName: "Somebody Else's Root" });
/** The firmware version every component measures (index 5). */
export const VERSION = "96.00.89.00.01";
/** The measurement blocks of an untampered component. */
const blocks = labBlocks(VERSION);
/** The reference-values document matching an untampered component. */
export const reference = JSON.stringify({
  rackform_reference_values: 1,
  references: [
    {
      version: VERSION,
      measurements: blocks
        .filter((b) => b.index <= 4)
        .map((b) => ({ index: b.index, alg: "sha-384", digest: b.value.toString("hex") })),
    },
  ],
});

/** A component's fault. */
export type Fault = "tamper" | "unknown-ca" | "replay" | "silent";

/** A BMC listing GPU_0, GPU_1 and the BMC itself, with faults per component id. */
export function fakeBmc(faults: Readonly<Record<string, Fault>> = {}): AttestBmc & { posts: number } {
  const components: IntegrityComponent[] = [
    ["GPU_0", "/redfish/v1/Systems/HGX/Processors/GPU_0"],
    ["GPU_1", "/redfish/v1/Systems/HGX/Processors/GPU_1"],
    ["HGX_BMC_0", "/redfish/v1/Managers/HGX_BMC_0"],
  ].map(([id, target]) => ({
    id,
    uri: `/redfish/v1/ComponentIntegrity/${id}`,
    type: "SPDM",
    typeVersion: "1.2.0",
    enabled: true,
    targetUri: target,
    protects: [target],
    certificateUri: `/redfish/v1/Chassis/${id}/Certificates/CertChain`,
    measureUri: `/redfish/v1/ComponentIntegrity/${id}/Actions/ComponentIntegrity.SPDMGetSignedMeasurements`,
  }));
  const bmc = {
    posts: 0,
    componentIntegrity: async () => components,
    componentModel: async (uri: string) => (uri.includes("Managers") ? "HGX BMC" : "H100 80GB HBM3"),
    certificateChain: async (uri: string) => {
      const id = uri.split("/")[4];
      return (faults[id] === "unknown-ca" ? stranger : pki).chainPem.match(
        /-----BEGIN[\s\S]+?-----END CERTIFICATE-----\n?/g,
      )!;
    },
    spdmSignedMeasurements: async (uri: string, req: MeasureRequest): Promise<SpdmAnswer> => {
      bmc.posts++;
      const id = uri.split("/")[4];
      const f = faults[id];
      if (f === "silent") throw new RedfishError("RACKFORM_ERR_REDFISH_COMPONENT_SILENT", `${id} did not answer`);
      const nonceHex = f === "replay" ? "ab".repeat(32) : req.nonceHex;
      const own =
        f === "tamper" ? blocks.map((b) => (b.index === 2 ? { ...b, value: Buffer.alloc(48, 7) } : b)) : blocks;
      const signer = (f === "unknown-ca" ? stranger : pki).leaf.privateKey;
      return {
        version: "1.2",
        hashingAlgorithm: "TPM_ALG_SHA_384",
        signingAlgorithm: "TPM_ALG_ECDSA_ECC_NIST_P384",
        signedMeasurementsB64: buildTranscript({ signer, nonceHex, blocks: own }).b64,
        certificateUri: `/redfish/v1/Chassis/${id}/Certificates/CertChain`,
      };
    },
  };
  return bmc;
}
