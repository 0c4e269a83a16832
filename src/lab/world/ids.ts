/** Deterministic identifiers derived from names, so a lab rebuilt from the same spec has the same MACs and serials. */
import { createHash } from "node:crypto";

function digest(seed: string): Buffer {
  return createHash("sha256").update(seed).digest();
}

/** A locally administered unicast MAC (02:…) derived from `seed`. */
export function macFor(seed: string): string {
  const d = digest(`mac:${seed}`);
  const bytes = [0x02, d[0], d[1], d[2], d[3], d[4]];
  return bytes.map((b) => b.toString(16).padStart(2, "0")).join(":");
}

/** An upper-case alphanumeric serial of `length` characters with a vendor-ish prefix. */
export function serialFor(seed: string, prefix = "", length = 10): string {
  const alphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const d = digest(`serial:${seed}`);
  let out = prefix;
  for (let i = 0; out.length < length; i++) out += alphabet[d[i % d.length] % alphabet.length];
  return out;
}

/** An RFC 4122-shaped UUID derived from `seed`. */
export function uuidFor(seed: string): string {
  const h = digest(`uuid:${seed}`).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
