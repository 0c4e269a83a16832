/**
 * The lab CA and the certificates its BMCs and PDUs present: one leaf per address naming that IP, so clients verify
 * TLS against the CA and the address exactly as they would on a management network (no `insecure`).
 */
// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata polyfill first.
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY = 86_400_000;

/** PEM material for the lab's TLS endpoints: one CA, one leaf key, and a certificate per address. */
export interface LabTls {
  readonly caPem: string;
  readonly caPath: string;
  readonly keyPem: string;
  /** Leaf certificate (PEM) naming exactly one lab address, like a real BMC's own certificate. */
  readonly certFor: ReadonlyMap<string, string>;
}

async function exportKey(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey("pkcs8", key as webcrypto.CryptoKey);
  return x509.PemConverter.encode(der, "PRIVATE KEY");
}

async function loadOrCreateCa(
  stateDir: string,
): Promise<{ cert: x509.X509Certificate; keys: CryptoKeyPair; path: string }> {
  const certPath = join(stateDir, "lab-ca.pem");
  const keyPath = join(stateDir, "lab-ca-key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) {
    // Reusing the CA lets a user trust it once across lab restarts.
    const cert = new x509.X509Certificate(readFileSync(certPath, "utf8"));
    const der = x509.PemConverter.decode(readFileSync(keyPath, "utf8"))[0];
    const privateKey = (await webcrypto.subtle.importKey("pkcs8", der, ALG, true, ["sign"])) as unknown as CryptoKey;
    const publicKey = await cert.publicKey.export(ALG, ["verify"]);
    if (cert.notAfter.getTime() > Date.now() + DAY) return { cert, keys: { privateKey, publicKey }, path: certPath };
  }
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Date.now().toString(16),
    name: "CN=rackform lab CA, O=rackform lab",
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 3650 * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(certPath, cert.toString("pem"));
  writeFileSync(keyPath, await exportKey(keys.privateKey), { mode: 0o600 });
  return { cert, keys, path: certPath };
}

/** Loads (or creates) the CA in `stateDir` and issues one leaf per address (SANs: that IP, plus localhost). */
export async function issueLabTls(stateDir: string, addresses: readonly string[]): Promise<LabTls> {
  const ca = await loadOrCreateCa(stateDir);
  // One key for every leaf keeps start-up fast for 1,000+ BMCs; the certificates still differ per address.
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
  const fixed = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
  ];
  const certFor = new Map<string, string>();
  const serial = Date.now();
  const issue = async (address: string, i: number) => {
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: (serial + i).toString(16).padStart(16, "0"),
      subject: `CN=${address}, O=rackform lab`,
      issuer: ca.cert.subject,
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 365 * DAY),
      publicKey: keys.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: ALG,
      extensions: [
        ...fixed,
        new x509.SubjectAlternativeNameExtension([
          { type: "ip", value: address },
          { type: "dns", value: "localhost" },
        ]),
      ],
    });
    certFor.set(address, leaf.toString("pem"));
  };
  // Signing runs on libuv's thread pool, so issuing in parallel batches uses every core.
  const all = [...new Set(addresses)];
  for (let i = 0; i < all.length; i += 64) await Promise.all(all.slice(i, i + 64).map((a, k) => issue(a, i + k)));
  return { caPem: ca.cert.toString("pem"), caPath: ca.path, keyPem: await exportKey(keys.privateKey), certFor };
}
