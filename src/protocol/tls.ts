/**
 * AutoMTLS certificates. go-plugin's client dials with ServerName "localhost", trusts only the certificate printed in
 * the handshake, and presents the one it passed in PLUGIN_CLIENT_CERT. Like go-plugin, the server makes a fresh
 * self-signed certificate per process (ECDSA; P-256 here, which WebCrypto and Go both accept).
 */
// @peculiar/x509 resolves its ASN.1 classes through tsyringe, which needs the Reflect metadata polyfill loaded first.
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

const crypto = webcrypto as unknown as Crypto;
const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/** A certificate with its private key, in the forms grpc-js and the handshake need. */
export interface GeneratedCertificate {
  /** Certificate, PEM. */
  readonly certPem: string;
  /** Certificate, DER. */
  readonly certDer: Buffer;
  /** Private key, PKCS#8 PEM. */
  readonly keyPem: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString("base64");
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}

/** A self-signed certificate for CN=localhost with DNS SAN localhost, usable for both server and client auth. */
export async function generateCertificate(commonName = "localhost"): Promise<GeneratedCertificate> {
  const keys = (await crypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
        .toString("hex")
        .replace(/^[89a-f]/, "1"),
      name: `CN=${commonName}, O=HashiCorp`,
      notBefore: new Date(now - 30_000),
      notAfter: new Date(now + 30 * 365 * 24 * 3600_000),
      signingAlgorithm: ALG,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyCertSign,
          true,
        ),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
        new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
      ],
    },
    crypto,
  );
  const der = Buffer.from(cert.rawData);
  return {
    certPem: pem("CERTIFICATE", cert.rawData),
    certDer: der,
    keyPem: pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", keys.privateKey)),
  };
}

/** The handshake's certificate field: DER in standard base64 without padding (Go's RawStdEncoding). */
export function handshakeCertField(der: Uint8Array): string {
  return Buffer.from(der).toString("base64").replace(/=+$/, "");
}
