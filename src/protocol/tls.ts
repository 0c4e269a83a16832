/**
 * AutoMTLS certificates. go-plugin's client dials with ServerName "localhost", trusts only the certificate printed in
 * the handshake, and presents the one it passed in PLUGIN_CLIENT_CERT. Like go-plugin, the server makes a fresh
 * self-signed certificate per process (ECDSA P-256, which Go accepts), built with node:crypto and a small DER writer.
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { bits, bool, explicit, octets, oid, seq, set, time, uint, utf8 } from "./der.js";

/** A certificate with its private key, in the forms grpc-js and the handshake need. */
export interface GeneratedCertificate {
  /** Certificate, PEM. */
  readonly certPem: string;
  /** Certificate, DER. */
  readonly certDer: Buffer;
  /** Private key, PKCS#8 PEM. */
  readonly keyPem: string;
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64");
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}

const ECDSA_WITH_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

function name(commonName: string): Buffer {
  return seq(set(seq(oid("2.5.4.10"), utf8("HashiCorp"))), set(seq(oid("2.5.4.3"), utf8(commonName))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

/** A self-signed certificate for CN=localhost with DNS SAN localhost, usable for both server and client auth. */
export async function generateCertificate(commonName = "localhost"): Promise<GeneratedCertificate> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const extensions = seq(
    // basicConstraints CA:TRUE (go-plugin marks its certificate as a CA, so the client can use it as its own root)
    extension("2.5.29.19", true, seq(bool(true))),
    // keyUsage digitalSignature | keyEncipherment | keyCertSign
    extension("2.5.29.15", true, Buffer.from([0x03, 0x02, 0x01, 0xa4])),
    // extKeyUsage serverAuth, clientAuth
    extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2"))),
    // subjectAltName dNSName localhost
    extension("2.5.29.17", false, seq(Buffer.concat([Buffer.from([0x82, 9]), Buffer.from("localhost")]))),
  );
  const tbs = seq(
    explicit(0, uint(Buffer.from([2]))),
    uint(serial),
    ECDSA_WITH_SHA256,
    name(commonName),
    seq(time(new Date(now - 30_000)), time(new Date(now + 30 * 365 * 24 * 3600_000))),
    name(commonName),
    spki,
    explicit(3, extensions),
  );
  const signature = sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  const der = seq(tbs, ECDSA_WITH_SHA256, bits(signature));
  return {
    certPem: pem("CERTIFICATE", der),
    certDer: der,
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** The handshake's certificate field: DER in standard base64 without padding (Go's RawStdEncoding). */
export function handshakeCertField(der: Uint8Array): string {
  return Buffer.from(der).toString("base64").replace(/=+$/, "");
}
