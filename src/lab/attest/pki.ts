/**
 * The lab's device-identity PKI for component attestation: one root CA per lab (ECDSA P-384), one intermediate CA per
 * device manufacturer (NVIDIA for GPUs and DPUs, the server vendor for its BMC), one leaf per device. Keys live only in
 * this object's memory: nothing serves or writes a private key. Everything is made on first use, so a 1,000-node lab
 * pays only for the devices a client asks about. A second, unrelated "rogue" root stands in for a CA the user does not
 * trust (fault attest-unknown-ca): the device keeps its key, but its certificate chains to that root instead.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { buildCertificate, certificatePem, type DistinguishedName } from "./der.js";

const DAY = 86_400_000;
/** Organisation of the lab's own CAs. */
const LAB_O = "rackform lab";

interface Issued {
  readonly key: KeyObject;
  readonly publicKey: KeyObject;
  readonly name: DistinguishedName;
  readonly pem: string;
}

/** What a device's leaf certificate names. */
export interface DeviceIdentity {
  /** Unique per device within the lab (node name + component id). */
  readonly id: string;
  readonly manufacturer: string;
  /** Subject common name, e.g. "NVIDIA H100 80GB HBM3 GPU_SXM_1 S/N 1654…". */
  readonly commonName: string;
}

function newKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync("ec", { namedCurve: "secp384r1" });
}

function serial(): Buffer {
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return b;
}

function issue(
  name: DistinguishedName,
  keys: { privateKey: KeyObject; publicKey: KeyObject },
  issuer: Issued | undefined,
  ca: boolean,
  years: number,
): Issued {
  const now = Date.now();
  const der = buildCertificate({
    serial: serial(),
    subject: name,
    issuer: issuer?.name ?? name,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + years * 365 * DAY),
    publicKey: keys.publicKey,
    issuerPublicKey: issuer?.publicKey ?? keys.publicKey,
    signingKey: issuer?.key ?? keys.privateKey,
    ca,
  });
  return { key: keys.privateKey, publicKey: keys.publicKey, name, pem: certificatePem(der) };
}

/** One hierarchy: a root and its intermediates by manufacturer. */
class Hierarchy {
  private rootCa?: Issued;
  private readonly intermediates = new Map<string, Issued>();
  constructor(private readonly rootName: DistinguishedName) {}

  root(): Issued {
    this.rootCa ??= issue(this.rootName, newKey(), undefined, true, 20);
    return this.rootCa;
  }

  intermediate(manufacturer: string): Issued {
    let ca = this.intermediates.get(manufacturer);
    if (!ca) {
      const name = { cn: `${manufacturer} Device Identity CA`, o: `${manufacturer} (${this.rootName.o})` };
      ca = issue(name, newKey(), this.root(), true, 15);
      this.intermediates.set(manufacturer, ca);
    }
    return ca;
  }
}

/** A device's key and the chains its certificate can come in. */
interface Device {
  readonly keys: { privateKey: KeyObject; publicKey: KeyObject };
  trusted?: string;
  rogue?: string;
}

/** The lab's attestation PKI (one per lab). */
export class LabPki {
  private readonly lab = new Hierarchy({ cn: "rackform lab Attestation Root CA", o: LAB_O });
  private readonly rogue = new Hierarchy({ cn: "Unknown Device Root CA", o: "not the rackform lab" });
  private readonly devices = new Map<string, Device>();

  /** The lab's root CA certificate (PEM): the trust anchor a user pins. */
  rootPem(): string {
    return this.lab.root().pem;
  }

  /** SHA-256 fingerprint (hex) of the root certificate's DER. */
  rootFingerprint(): string {
    const der = Buffer.from(this.rootPem().replace(/-----[^-]+-----|\s/g, ""), "base64");
    return createHash("sha256").update(der).digest("hex");
  }

  private device(d: DeviceIdentity): Device {
    let dev = this.devices.get(d.id);
    if (!dev) {
      dev = { keys: newKey() };
      this.devices.set(d.id, dev);
    }
    return dev;
  }

  /**
   * The device's certificate chain as PEM blocks, leaf first, then its manufacturer's intermediate and the root it was
   * provisioned with — the lab's root, or with `rogue` an unrelated root (same device key, other issuer).
   */
  chainPem(d: DeviceIdentity, rogue = false): string {
    const dev = this.device(d);
    const h = rogue ? this.rogue : this.lab;
    const ca = h.intermediate(d.manufacturer);
    const make = () => issue({ cn: d.commonName, o: d.manufacturer }, dev.keys, ca, false, 10).pem;
    const leaf = rogue ? (dev.rogue ??= make()) : (dev.trusted ??= make());
    return [leaf, ca.pem, h.root().pem].join("");
  }

  /** The device's signing key (used by its SPDM responder only; never served). */
  signingKey(d: DeviceIdentity): KeyObject {
    return this.device(d).keys.privateKey;
  }
}
