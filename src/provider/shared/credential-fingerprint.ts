/**
 * A non-reversible fingerprint of the BMC credentials a backend was given, kept in a machine's state so that a plan can
 * tell that the provider's redfish credentials changed without storing them. A key is derived from
 * `username NUL password` with scrypt (N=16384, r=8, p=1) and a random 16-byte key salt, and the fingerprint is
 * HMAC-SHA256 of a random 16-byte salt per machine under that key. scrypt makes guessing a password from a leaked state
 * file costly; the per-machine salt makes two machines' fingerprints unrelated. scrypt, slow by design, runs once per
 * key salt: machines enrolled by one provider process share its key salt, so a plan of a 1,024-node rack costs one
 * derivation, not one per machine. Format: `scrypt2$<key salt>$<salt>$<hmac>` (base64url).
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

const PREFIX = "scrypt2";
const PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const B64_16 = "[A-Za-z0-9_-]{22}";
const FORMAT = new RegExp(`^${PREFIX}\\$(${B64_16})\\$(${B64_16})\\$[A-Za-z0-9_-]{43}$`);

/** Fingerprints of one set of credentials, with their scrypt keys cached by key salt. */
export class CredentialFingerprints {
  private readonly keys = new Map<string, Buffer>();
  /** The key salt of fingerprints made fresh by this process. */
  private readonly ownKeySalt = randomBytes(16).toString("base64url");
  constructor(
    private readonly username: string,
    private readonly password: string,
  ) {}

  /** A fingerprint with a fresh per-machine salt (and this process's key salt). */
  of(): string {
    return this.with(this.ownKeySalt, randomBytes(16).toString("base64url"));
  }

  /**
   * The fingerprint these credentials have with the salts of `recorded`: equal to it when the credentials are the ones
   * recorded, different otherwise (a recorded value in another format counts as different).
   */
  against(recorded: string): string {
    const m = FORMAT.exec(recorded);
    if (!m) return this.of();
    const fp = this.with(m[1], m[2]);
    return sameText(fp, recorded) ? recorded : fp;
  }

  private with(keySalt: string, salt: string): string {
    let key = this.keys.get(keySalt);
    if (key === undefined) {
      key = scryptSync(`${this.username}\0${this.password}`, Buffer.from(keySalt, "base64url"), 32, PARAMS);
      this.keys.set(keySalt, key);
    }
    const mac = createHmac("sha256", key).update(Buffer.from(salt, "base64url")).digest("base64url");
    return `${PREFIX}$${keySalt}$${salt}$${mac}`;
  }
}

function sameText(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
