/**
 * UEFI Secure Boot of every host: the key databases (PK, KEK, db, dbx and their factory defaults), the enable switch
 * that takes effect at the host's next reset, and what the firmware does with an OS image at boot: an image whose
 * signer is not in db (or whose boot loader's hash is in dbx) does not boot while Secure Boot is on. Factory keys are
 * the lab's own: a platform key and a KEK per server vendor, and in db a lab "distribution CA" standing in for the
 * Microsoft UEFI CA that signs shim — golden images are signed by it unless a test registers another signer.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, X509Certificate } from "node:crypto";
import { buildCertificate, certificatePem } from "../attest/der.js";
import type { LabNode } from "./model.js";

/** The databases a host keeps, and their factory copies. */
export const DATABASES = ["PK", "KEK", "db", "dbx", "PKDefault", "KEKDefault", "dbDefault", "dbxDefault"] as const;
export type DatabaseId = (typeof DATABASES)[number];
type LiveDb = "PK" | "KEK" | "db" | "dbx";
const LIVE: readonly LiveDb[] = ["PK", "KEK", "db", "dbx"];

/** An X.509 certificate in a database (EFI_CERT_X509_GUID). */
export interface CertEntry {
  readonly id: string;
  readonly pem: string;
  readonly owner: string;
}
/** A hash in a database (EFI_CERT_SHA256_GUID), upper-case hex. */
export interface SignatureEntry {
  readonly id: string;
  readonly hex: string;
  readonly owner: string;
}
/** One database's content; member ids grow and are never reused. */
export interface Database {
  certs: CertEntry[];
  sigs: SignatureEntry[];
  next: number;
}

/** A host's Secure Boot state. */
export interface SecureBootState {
  /** SecureBootEnable: what the next boot does. */
  enable: boolean;
  /** SecureBootCurrentBoot: what this boot did. */
  current: "Enabled" | "Disabled";
  readonly dbs: Record<DatabaseId, Database>;
}

/** Owner GUID of the lab's factory keys. */
export const LAB_OWNER = "7a3c9b52-6f1e-4d2a-9c4b-5e8f0a1b2c3d";
const DAY = 86_400_000;

interface SigningCa {
  readonly key: KeyObject;
  readonly publicKey: KeyObject;
  readonly name: { cn: string; o: string };
  readonly pem: string;
}

function selfSigned(cn: string, o: string): SigningCa {
  const keys = generateKeyPairSync("ec", { namedCurve: "secp384r1" });
  const name = { cn, o };
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const der = buildCertificate({
    serial,
    subject: name,
    issuer: name,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 20 * 365 * DAY),
    publicKey: keys.publicKey,
    issuerPublicKey: keys.publicKey,
    signingKey: keys.privateKey,
    ca: true,
  });
  return { key: keys.privateKey, publicKey: keys.publicKey, name, pem: certificatePem(der) };
}

/** How an image is signed, as the lab knows it. */
export interface ImageSigning {
  /** The signer's certificate (PEM); the lab's distribution CA unless registered otherwise. */
  readonly signerPem: string;
  /** SHA-256 (hex, upper case) of the image's boot loader, what a dbx entry would name. */
  readonly bootloaderSha256: string;
}

/** Why a host refuses to boot an image, or undefined when it boots. */
export type BootRefusal = { readonly reason: "not-in-db" | "in-dbx"; readonly image: string; readonly signer: string };

/** Secure Boot of the lab's hosts: factory keys made on first use, per-host state, registered image signers. */
export class LabSecureBoot {
  private distribution?: SigningCa;
  private readonly oem = new Map<string, { pk: SigningCa; kek: SigningCa }>();
  private readonly states = new Map<string, SecureBootState>();
  private readonly images = new Map<string, { signerPem?: string; bootloaderSha256?: string }>();

  /** The lab's distribution CA (the stand-in for the Microsoft UEFI CA), PEM. */
  distributionCaPem(): string {
    this.distribution ??= selfSigned("rackform lab Distribution UEFI CA", "rackform lab");
    return this.distribution.pem;
  }

  private oemKeys(vendor: string) {
    let k = this.oem.get(vendor);
    if (!k) {
      k = { pk: selfSigned(`${vendor} Platform Key`, vendor), kek: selfSigned(`${vendor} KEK CA`, vendor) };
      this.oem.set(vendor, k);
    }
    return k;
  }

  /** The factory content of a live database for a host of `vendor`. */
  private factory(db: LiveDb, vendor: string): Database {
    const cert = (pem: string, i: number): CertEntry => ({ id: String(i + 1), pem, owner: LAB_OWNER });
    const k = this.oemKeys(vendor);
    if (db === "PK") return { certs: [cert(k.pk.pem, 0)], sigs: [], next: 2 };
    if (db === "KEK") return { certs: [cert(k.kek.pem, 0)], sigs: [], next: 2 };
    if (db === "db") return { certs: [cert(this.distributionCaPem(), 0)], sigs: [], next: 2 };
    // A revoked boot loader's hash, as shipped dbx files carry (the lab's own, not a real one).
    const revoked = createHash("sha256").update("rackform-lab revoked boot loader").digest("hex").toUpperCase();
    return { certs: [], sigs: [{ id: "1", hex: revoked, owner: LAB_OWNER }], next: 2 };
  }

  /** A host's state, made on first use: factory keys, Secure Boot off. */
  of(node: LabNode): SecureBootState {
    let s = this.states.get(node.spec.name);
    if (!s) {
      const vendor = node.spec.hardware.manufacturer;
      const dbs = {} as Record<DatabaseId, Database>;
      for (const db of LIVE) {
        dbs[db] = this.factory(db, vendor);
        dbs[`${db}Default`] = this.factory(db, vendor);
      }
      s = { enable: false, current: "Disabled", dbs };
      this.states.set(node.spec.name, s);
    }
    return s;
  }

  /** Restores a live database to its factory content (ResetAllKeysToDefault) or empties it (DeleteAllKeys). */
  reset(node: LabNode, db: LiveDb, to: "default" | "empty"): void {
    const s = this.of(node);
    const next = s.dbs[db].next;
    const fresh = to === "default" ? this.factory(db, node.spec.hardware.manufacturer) : { certs: [], sigs: [], next };
    s.dbs[db] = { ...fresh, next: Math.max(next, fresh.next) };
  }

  /** SecureBootMode: a PK enrolled = UserMode, none = SetupMode. */
  mode(node: LabNode): "UserMode" | "SetupMode" {
    return this.of(node).dbs.PK.certs.length > 0 ? "UserMode" : "SetupMode";
  }

  /** At the host's power-on: SecureBootCurrentBoot follows SecureBootEnable, Enabled only with a PK enrolled. */
  atReset(node: LabNode): void {
    const s = this.states.get(node.spec.name);
    if (s) s.current = s.enable && this.mode(node) === "UserMode" ? "Enabled" : "Disabled";
  }

  /** Whether the host's next boot enforces Secure Boot (what a reset would make SecureBootCurrentBoot). */
  enforcedAtNextBoot(node: LabNode): boolean {
    const s = this.states.get(node.spec.name);
    return s?.enable === true && this.mode(node) === "UserMode";
  }

  /** Registers how an image is signed: `signerPem` (default the distribution CA), `bootloaderSha256` (default derived). */
  registerImage(image: string, signing: { signerPem?: string; bootloaderSha256?: string }): ImageSigning {
    this.images.set(image, signing);
    return this.imageSigning(image);
  }

  /** How `image` is signed (a registered signer, else the distribution CA). */
  imageSigning(image: string): ImageSigning {
    const r = this.images.get(image);
    const own = createHash("sha256").update(`rackform-lab-bootloader:${image}`).digest("hex");
    return {
      signerPem: r?.signerPem ?? this.distributionCaPem(),
      bootloaderSha256: (r?.bootloaderSha256 ?? own).toUpperCase(),
    };
  }

  /** The first of `names` registered, else the first: the image a backend deploys, as the lab knows it. */
  imageNamed(names: readonly string[]): string {
    return names.find((n) => this.images.has(n)) ?? names[0] ?? "";
  }

  /** Whether the host would refuse to boot `image` at its next boot (undefined: it boots). */
  refusal(node: LabNode, image: string): BootRefusal | undefined {
    if (!this.enforcedAtNextBoot(node)) return undefined;
    const s = this.of(node);
    const signing = this.imageSigning(image);
    const signer = new X509Certificate(signing.signerPem);
    if (s.dbs.dbx.sigs.some((x) => x.hex === signing.bootloaderSha256))
      return { reason: "in-dbx", image, signer: signer.subject };
    if (s.dbs.dbx.certs.some((c) => sameCert(c.pem, signer)))
      return { reason: "in-dbx", image, signer: signer.subject };
    const trusted = s.dbs.db.certs.some((c) => sameCert(c.pem, signer) || issued(c.pem, signer));
    return trusted ? undefined : { reason: "not-in-db", image, signer: signer.subject };
  }
}

function sameCert(pem: string, cert: X509Certificate): boolean {
  return new X509Certificate(pem).fingerprint256 === cert.fingerprint256;
}

/** Whether `cert` was issued (and signed) by the CA in `caPem`. */
function issued(caPem: string, cert: X509Certificate): boolean {
  const ca = new X509Certificate(caPem);
  return cert.checkIssued(ca) && cert.verify(ca.publicKey);
}
