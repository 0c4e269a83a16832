/**
 * Control endpoints of attestation and Secure Boot: what a vendor publishes (the lab's attestation root CA, reference
 * values for every firmware its catalog has) and how a test says an image is signed. No endpoint serves a private key.
 */
import { X509Certificate } from "node:crypto";
import { catalogFirmware } from "../attest/components.js";
import { referenceDocument } from "../attest/measurements.js";
import type { World } from "../world/model.js";

/** A control reply: JSON `body`, or `text` with its content type. */
export interface TrustReply {
  readonly status: number;
  readonly body?: unknown;
  readonly text?: string;
  readonly type?: string;
}

/** A control API error (the server turns it into `{"error":{code,message}}`). */
export type Fail = (status: number, code: string, message: string) => Error;

const PEM = "application/x-pem-file";
const SHA256_HEX = /^[0-9A-Fa-f]{64}$/;

function signerPem(v: unknown, fail: Fail): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw fail(400, "RACKFORM_ERR_LAB_BAD_JSON", "signerPem: must be a PEM certificate");
  try {
    return new X509Certificate(v).toString();
  } catch {
    throw fail(400, "RACKFORM_ERR_LAB_BAD_JSON", "signerPem: not a PEM X.509 certificate");
  }
}

function imageReply(world: World, image: string) {
  const s = world.secureBoot.imageSigning(image);
  return {
    image,
    signer: new X509Certificate(s.signerPem).subject,
    signerPem: s.signerPem,
    bootloaderSha256: s.bootloaderSha256,
  };
}

/** Registers how an image is signed: `{image, signerPem?, bootloaderSha256?}`. */
function registerImage(world: World, body: unknown, fail: Fail): TrustReply {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (!["image", "signerPem", "bootloaderSha256"].includes(k))
      throw fail(400, "RACKFORM_ERR_LAB_BAD_JSON", `${k}: unknown field (image, signerPem, bootloaderSha256)`);
  if (typeof b.image !== "string" || b.image === "")
    throw fail(
      400,
      "RACKFORM_ERR_LAB_BAD_JSON",
      "image: required (a MAAS distro_series, an Ironic image_source URL or its file name)",
    );
  const hash = b.bootloaderSha256;
  if (hash !== undefined && (typeof hash !== "string" || !SHA256_HEX.test(hash)))
    throw fail(400, "RACKFORM_ERR_LAB_BAD_JSON", "bootloaderSha256: must be 64 hex characters");
  world.secureBoot.registerImage(b.image, {
    signerPem: signerPem(b.signerPem, fail),
    bootloaderSha256: hash as string | undefined,
  });
  return { status: 201, body: imageReply(world, b.image) };
}

/**
 * Routes under /attestation and /secure-boot, or undefined when the path is not one of them. `parts` are the path's
 * decoded segments; `body` reads the request body.
 */
export async function trustRoute(
  world: World,
  method: string,
  parts: readonly string[],
  query: URLSearchParams,
  body: () => Promise<unknown>,
  fail: Fail,
): Promise<TrustReply | undefined> {
  const path = parts.join("/");
  if (method === "GET" && path === "attestation/root-ca")
    return { status: 200, text: world.attestation.pki.rootPem(), type: PEM };
  if (method === "GET" && path === "attestation/reference-values") {
    const extra = { bmc: query.getAll("bmc"), gpu: query.getAll("gpu"), dpu: query.getAll("dpu") };
    return { status: 200, body: referenceDocument(catalogFirmware(world, extra)) };
  }
  if (method === "GET" && path === "secure-boot/distribution-ca")
    return { status: 200, text: world.secureBoot.distributionCaPem(), type: PEM };
  if (method === "POST" && path === "secure-boot/images") return registerImage(world, await body(), fail);
  if (method === "GET" && parts.length === 3 && parts[0] === "secure-boot" && parts[1] === "images")
    return { status: 200, body: imageReply(world, parts[2]) };
  return undefined;
}
