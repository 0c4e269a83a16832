/**
 * ComponentIntegrity (DSP0268 ComponentIntegrity v1_2+): the components a BMC can attest (SPDM responders such as
 * GPUs, NICs, DPUs, the BMC itself; TPMs), the #ComponentIntegrity.SPDMGetSignedMeasurements action, and the
 * responder's Certificate. What the answer proves is judged by src/clients/attest, offline.
 */

import { splitPem } from "../attest/pem.js";
import { ClientConfigError, HttpStatusError, HttpTimeoutError, RedfishError } from "../errors.js";
import { expandLevels, getExpanded, Prefetched } from "./expand.js";
import { isObj, lastSegment, link, linkList, members, str } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson } from "./types.js";

/** One member of the ComponentIntegrity collection. */
export interface IntegrityComponent {
  readonly id: string;
  readonly uri: string;
  /** ComponentIntegrityType: "SPDM", "TPM", "TCM", "TPCM", "OEM"… */
  readonly type: string;
  /** ComponentIntegrityTypeVersion, e.g. "1.2.0"; "" when the BMC leaves it empty. */
  readonly typeVersion: string;
  readonly enabled: boolean;
  /** TargetComponentURI: the attested component (a Processor, a Manager, a NetworkAdapter…). */
  readonly targetUri?: string;
  /** Links.ComponentsProtected. */
  readonly protects: readonly string[];
  /** The responder's (or TPM's) ComponentCertificate. */
  readonly certificateUri?: string;
  /** Target of #ComponentIntegrity.SPDMGetSignedMeasurements, when advertised. */
  readonly measureUri?: string;
}

/** What to ask a responder for. */
export interface MeasureRequest {
  /** 32 random bytes as 64 hex digits: fresh for every request. */
  readonly nonceHex: string;
  /** Certificate slot. @default 0 */
  readonly slotId?: number;
  /** Measurement indices. @default all (the BMC sends GET_MEASUREMENTS with Param2 0xFF) */
  readonly indices?: readonly number[];
  /** How long the BMC may take (it relays to the component). @default the HTTP core's total timeout */
  readonly timeoutMs?: number;
}

/** A SPDMGetSignedMeasurementsResponse. */
export interface SpdmAnswer {
  /** SPDM version of the answer, e.g. "1.2". */
  readonly version: string;
  /** e.g. "TPM_ALG_SHA_384". */
  readonly hashingAlgorithm: string;
  /** e.g. "TPM_ALG_ECDSA_ECC_NIST_P384". */
  readonly signingAlgorithm: string;
  /** The transcript (VCA || GET_MEASUREMENTS || MEASUREMENTS for 1.2), base64, as the BMC sent it. */
  readonly signedMeasurementsB64: string;
  /** The Certificate holding the responder's chain, when the answer links one. */
  readonly certificateUri?: string;
  /** The responder's public key (PEM), where the BMC gives a key instead of a certificate. */
  readonly publicKeyPem?: string;
}

const MEASURE_ACTION = "#ComponentIntegrity.SPDMGetSignedMeasurements";

const at = (obj: unknown, ...keys: string[]): Record<string, unknown> | undefined => {
  let v: unknown = obj;
  for (const k of keys) v = isObj(v) ? v[k] : undefined;
  return isObj(v) ? v : undefined;
};

/** A ComponentIntegrity resource. */
export function parseComponentIntegrity(json: RedfishJson): IntegrityComponent {
  const uri = str(json["@odata.id"]) ?? "";
  const type = str(json.ComponentIntegrityType) ?? "";
  const certificateUri =
    link(at(json, "SPDM", "IdentityAuthentication", "ResponderAuthentication"), "ComponentCertificate") ??
    link(at(json, "TPM", "IdentityAuthentication"), "ComponentCertificate");
  const measureUri = str(at(json, "Actions", MEASURE_ACTION)?.target);
  const targetUri = str(json.TargetComponentURI);
  return {
    id: str(json.Id) ?? lastSegment(uri),
    uri,
    type,
    typeVersion: typeof json.ComponentIntegrityTypeVersion === "string" ? json.ComponentIntegrityTypeVersion : "",
    enabled: json.ComponentIntegrityEnabled === true,
    ...(targetUri ? { targetUri } : {}),
    protects: linkList(at(json, "Links")?.ComponentsProtected),
    ...(certificateUri ? { certificateUri } : {}),
    ...(measureUri ? { measureUri } : {}),
  };
}

/** The members of the ComponentIntegrity collection; [] when the service root links none. */
export async function readComponentIntegrity(t: RedfishTransport): Promise<IntegrityComponent[]> {
  const root = await t.root();
  const ref = link(root, "ComponentIntegrity");
  if (!ref) return [];
  const source = new Prefetched(t);
  const collection = expandLevels(root) > 0 ? (await getExpanded(t, ref, 1)).json : await t.getJson(ref);
  source.add(collection);
  const all = await Promise.all(members(collection).map((m) => source.getJson(m)));
  return all.map(parseComponentIntegrity).sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The Model of the resource a component's integrity protects (TargetComponentURI: a Processor, a Manager, a
 * NetworkAdapter), which picks its reference values; undefined when it names none.
 */
export async function readTargetModel(t: RedfishTransport, targetUri: string): Promise<string | undefined> {
  const json = await t.getJson(targetUri.split("#")[0]);
  return str(json.Model);
}

function checkRequest(req: MeasureRequest): void {
  if (!/^[0-9a-fA-F]{64}$/.test(req.nonceHex)) {
    throw new ClientConfigError("SPDM nonce: expected 64 hex digits (32 random bytes)");
  }
  const slot = req.slotId ?? 0;
  if (!Number.isInteger(slot) || slot < 0 || slot > 7) throw new ClientConfigError(`SPDM slot ${slot}: expected 0–7`);
  for (const i of req.indices ?? []) {
    if (!Number.isInteger(i) || i < 0 || i > 255)
      throw new ClientConfigError(`SPDM measurement index ${i}: expected 0–255`);
  }
}

/**
 * POSTs #ComponentIntegrity.SPDMGetSignedMeasurements. A 503 or a timeout (the BMC could not reach the component)
 * becomes RACKFORM_ERR_REDFISH_COMPONENT_SILENT; the request is never repeated here (a retry wants a fresh nonce).
 */
export async function requestSignedMeasurements(
  t: RedfishTransport,
  measureUri: string,
  req: MeasureRequest,
): Promise<SpdmAnswer> {
  checkRequest(req);
  const body = {
    Nonce: req.nonceHex.toLowerCase(),
    SlotId: req.slotId ?? 0,
    ...(req.indices ? { MeasurementIndices: [...req.indices] } : {}),
  };
  let text: string;
  let url: string;
  try {
    const res = await t.send("POST", measureUri, {
      json: body,
      ...(req.timeoutMs !== undefined ? { totalTimeoutMs: req.timeoutMs } : {}),
    });
    text = res.body;
    url = res.url;
  } catch (e) {
    const silent = (e instanceof HttpStatusError && e.status === 503) || e instanceof HttpTimeoutError;
    if (!silent) throw e;
    const how = e instanceof HttpTimeoutError ? "timed out" : "answered 503";
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_COMPONENT_SILENT",
      `the component behind ${measureUri} did not answer SPDMGetSignedMeasurements (the BMC ${how})`,
      { method: "POST", url: e.url, status: e.status, serverMessage: e.serverMessage, cause: e },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return parseSpdmAnswer(isObj(json) ? json : {}, url);
}

/** A SPDMGetSignedMeasurementsResponse; RACKFORM_ERR_REDFISH_BAD_PAYLOAD without SignedMeasurements. */
export function parseSpdmAnswer(json: RedfishJson, url: string): SpdmAnswer {
  const signed = str(json.SignedMeasurements);
  if (!signed) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_BAD_PAYLOAD",
      `POST ${url}: the SPDMGetSignedMeasurements answer has no SignedMeasurements`,
      { method: "POST", url },
    );
  }
  const certificateUri = link(json, "Certificate");
  const publicKeyPem = str(json.PublicKey);
  return {
    version: str(json.Version) ?? "",
    hashingAlgorithm: str(json.HashingAlgorithm) ?? "",
    signingAlgorithm: str(json.SigningAlgorithm) ?? "",
    signedMeasurementsB64: signed,
    ...(certificateUri ? { certificateUri } : {}),
    ...(publicKeyPem ? { publicKeyPem } : {}),
  };
}

/** A Certificate's CertificateString as PEM blocks (types PEM and PEMchain); BAD_PAYLOAD for other types or none. */
export function certificateBlocks(json: RedfishJson): string[] {
  const uri = str(json["@odata.id"]) ?? "the certificate";
  const type = str(json.CertificateType) ?? "PEM";
  if (type !== "PEM" && type !== "PEMchain") {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_BAD_PAYLOAD",
      `${uri}: CertificateType ${type} is not PEM or PEMchain`,
    );
  }
  const blocks = splitPem(str(json.CertificateString) ?? "");
  if (blocks.length === 0) {
    throw new RedfishError("RACKFORM_ERR_REDFISH_BAD_PAYLOAD", `${uri}: CertificateString holds no PEM certificate`);
  }
  return blocks;
}

/** Reads a Certificate resource and returns its PEM blocks. */
export async function readCertificateChain(t: RedfishTransport, uri: string): Promise<string[]> {
  return certificateBlocks(await t.getJson(uri));
}
