/**
 * A non-reversible fingerprint of the BMC credentials a backend was given, kept in a machine's state so that a plan can
 * tell that the provider's redfish credentials changed without storing them. scrypt (N=16384, r=8, p=1) over
 * `username NUL password` with a random 16-byte salt per machine: the salt makes two machines' fingerprints unrelated,
 * and scrypt makes guessing a password from a leaked state file costly. Format: `scrypt1$<salt>$<hash>` (base64url).
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

const PREFIX = "scrypt1";
const PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const FORMAT = /^scrypt1\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/;

/** The salt of a fingerprint; undefined when the value is not a fingerprint this version writes. */
export function fingerprintSalt(fp: string | null): Buffer | undefined {
  const m = fp ? FORMAT.exec(fp) : null;
  return m ? Buffer.from(m[1], "base64url") : undefined;
}

/** Fingerprints of one set of credentials, cached by salt (a plan asks once per machine, apply again). */
export class CredentialFingerprints {
  private readonly bySalt = new Map<string, string>();
  constructor(
    private readonly username: string,
    private readonly password: string,
  ) {}

  /** The fingerprint with `salt` (a fresh random one when undefined). */
  of(salt: Buffer = randomBytes(16)): string {
    const key = salt.toString("base64url");
    let fp = this.bySalt.get(key);
    if (fp === undefined) {
      const hash = scryptSync(`${this.username}\0${this.password}`, salt, 32, PARAMS);
      fp = `${PREFIX}$${key}$${hash.toString("base64url")}`;
      this.bySalt.set(key, fp);
    }
    return fp;
  }

  /**
   * The fingerprint these credentials have with the salt of `recorded`: equal to it when the credentials are the ones
   * recorded, different otherwise (a recorded value in another format counts as different).
   */
  against(recorded: string): string {
    const fp = this.of(fingerprintSalt(recorded));
    return sameText(fp, recorded) ? recorded : fp;
  }
}

function sameText(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
