/** TLS settings of the HTTP core: which CAs to trust, and whether verification is (explicitly) off. */
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext, rootCertificates, type SecureContext } from "node:tls";
import { ClientConfigError } from "../errors.js";
import { errorCode } from "./retry.js";

/** TLS options of a client. */
export interface TlsOptions {
  /** CA bundle: PEM text, or the path of a PEM file. @default the Node.js root store */
  readonly ca?: string;
  /** Skip certificate verification. Only when a user asks; never a fallback. @default false */
  readonly insecure?: boolean;
}

/**
 * Connect options for undici derived from TlsOptions. The secure context is built once per CA bundle and shared by
 * every connection: handing `ca` to each connect would parse the bundle into a new context per connection, the
 * largest part of a TLS connection's CPU on a fleet's BMCs.
 */
export interface ResolvedTls {
  readonly secureContext: SecureContext;
  readonly rejectUnauthorized: boolean;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[^-]*-----END CERTIFICATE-----/g;
const contexts = new Map<string, SecureContext>();

/** One secure context per CA bundle text ("" is the Node.js root store), kept for the process. */
function contextFor(pem: string): SecureContext {
  let ctx = contexts.get(pem);
  if (!ctx) {
    // OpenSSL skips a damaged certificate in `ca` without a word; parse each one so a damaged bundle is named now.
    for (const block of pem.match(PEM_CERT) ?? []) new X509Certificate(block);
    ctx = pem === "" ? defaultContext() : createSecureContext({ ca: pem });
    contexts.set(pem, ctx);
  }
  return ctx;
}

/**
 * The default trust: Node's root store, and the certificates of NODE_EXTRA_CA_CERTS, which the provider's launcher
 * passes on as RACKFORM_EXTRA_CA_CERTS so that Node does not load them at every process start (src/cli/install.ts).
 * A file that cannot be read is skipped, as Node itself skips it (with a warning on stderr).
 */
function defaultContext(): SecureContext {
  const file = process.env.RACKFORM_EXTRA_CA_CERTS;
  if (!file) return createSecureContext();
  let extra: string;
  try {
    extra = readFileSync(file, "utf8");
  } catch (e) {
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${errorCode(e) ?? "unreadable"}`);
    return createSecureContext();
  }
  return createSecureContext({ ca: [...rootCertificates, ...(extra.match(PEM_CERT) ?? [])] });
}

/** Reads the CA bundle (PEM text or a file path) and checks it holds at least one certificate. */
export function resolveTls(opts: TlsOptions = {}): ResolvedTls {
  if (opts.ca === undefined || opts.ca === "")
    return { secureContext: contextFor(""), rejectUnauthorized: !opts.insecure };
  let pem = opts.ca;
  if (!pem.includes("-----BEGIN")) {
    try {
      pem = readFileSync(pem, "utf8");
    } catch (e) {
      throw new ClientConfigError(
        `ca: cannot read CA bundle file ${JSON.stringify(opts.ca)} (${errorCode(e) ?? "unreadable"}); pass PEM text or a readable file path`,
      );
    }
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new ClientConfigError("ca: the CA bundle contains no PEM certificate (expected -----BEGIN CERTIFICATE-----)");
  }
  try {
    return { secureContext: contextFor(pem), rejectUnauthorized: !opts.insecure };
  } catch (e) {
    throw new ClientConfigError(
      `ca: the CA bundle is not valid PEM (${errorCode(e) ?? "unparsable"}); pass the PEM text of the CA certificates`,
    );
  }
}

const TLS_CODES: ReadonlySet<string> = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "HOSTNAME_MISMATCH",
  "EPROTO",
]);

/** True when a transport error is a TLS verification or handshake failure (never worth retrying). */
export function isTlsError(err: unknown): boolean {
  const code = errorCode(err);
  if (code && (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_"))) return true;
  return err instanceof Error && /certificate|ssl routines|tls handshake/i.test(err.message);
}
