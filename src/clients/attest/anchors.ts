/**
 * Certificates from PEM text, and trust anchors: the CA certificates (vendor or lab roots) a responder's chain must
 * lead to. An anchor that is not a CA certificate (no basicConstraints with cA true) is refused as an input error
 * naming it: trusting a leaf as an anchor would accept whatever it signed.
 */
// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata polyfill first.
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { AttestError } from "../errors.js";
import { splitPem } from "./pem.js";

/** The WebCrypto @peculiar/x509 verifies with (passed explicitly: no global provider is set by the clients). */
export const CRYPTO = webcrypto as unknown as Crypto;

/** Parses each CERTIFICATE block of `text`; `what` names the input in errors ("trust anchor 2"). */
export function parseCertificates(text: string, what: string): x509.X509Certificate[] {
  const blocks = splitPem(text);
  if (blocks.length === 0) throw new AttestError("RACKFORM_ERR_ATTEST_INPUT", `${what} holds no PEM CERTIFICATE block`);
  return blocks.map((b, i) => {
    try {
      return new x509.X509Certificate(b);
    } catch (e) {
      const which = blocks.length > 1 ? ` (certificate ${i + 1})` : "";
      throw new AttestError(
        "RACKFORM_ERR_ATTEST_INPUT",
        `${what}${which} is not a readable X.509 certificate: ${(e as Error).message}`,
      );
    }
  });
}

/** True when the certificate says it is a CA (basicConstraints cA). */
export function isCa(cert: x509.X509Certificate): boolean {
  return cert.getExtension(x509.BasicConstraintsExtension)?.ca === true;
}

/** A trust anchor: a CA certificate the user gave. */
export interface TrustAnchor {
  readonly cert: x509.X509Certificate;
  readonly subject: string;
}

/**
 * Trust anchors from PEM texts (each may hold several certificates); every one must be a CA certificate, else
 * RACKFORM_ERR_ATTEST_INPUT naming which (its position and subject).
 */
export function parseTrustAnchors(pems: string | readonly string[]): TrustAnchor[] {
  const texts = typeof pems === "string" ? [pems] : pems;
  const anchors: TrustAnchor[] = [];
  texts.forEach((text, i) => {
    for (const cert of parseCertificates(text, `trust anchor ${i + 1}`)) {
      if (!isCa(cert)) {
        throw new AttestError(
          "RACKFORM_ERR_ATTEST_INPUT",
          `trust anchor ${i + 1} (${cert.subject}) is not a CA certificate (no basicConstraints cA=true); give the vendor's root or intermediate CA, not a device certificate`,
          { anchor: i + 1, subject: cert.subject },
        );
      }
      anchors.push({ cert, subject: cert.subject });
    }
  });
  if (anchors.length === 0) throw new AttestError("RACKFORM_ERR_ATTEST_INPUT", "no trust anchor given");
  return anchors;
}
