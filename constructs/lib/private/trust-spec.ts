/**
 * Checks of trust-at-join props at synth: Secure Boot certificates (PEM X.509) and dbx digests for a Flavor, and an
 * AttestationPolicy's trust anchors (CA certificates) and pinned reference values — the same rules the provider
 * applies when it validates the configuration, found here before any engine runs.
 */
import { createHash, X509Certificate } from "node:crypto";
import type { ValidationProblem } from "../errors.js";
import { isToken } from "./formats.js";
import { show } from "./validate.js";

/** Why `pem` is not one X.509 certificate (a CA when `ca`), or undefined; tokens are the provider's to check. */
export function certificateProblem(pem: unknown, ca: boolean): string | undefined {
  if (typeof pem !== "string") return "is not text";
  if (isToken(pem)) return undefined;
  const n = pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
  if (n !== 1) return `holds ${n} PEM certificates, not one`;
  try {
    const c = new X509Certificate(pem);
    if (ca && !c.ca) return `(${c.subject.replaceAll("\n", ", ")}) is not a CA certificate`;
  } catch (e) {
    return `is not a readable X.509 certificate (${(e as Error).message})`;
  }
  return undefined;
}

/** Problems of a list of PEM certificates at `path`. */
export function certificateProblems(path: string, list: readonly unknown[] | undefined, ca: boolean, fix: string) {
  return (list ?? []).flatMap((pem, i): ValidationProblem[] => {
    const p = certificateProblem(pem, ca);
    return p ? [{ path: `${path}[${i}]`, problem: `the certificate ${p}`, fix }] : [];
  });
}

/** Problems of dbx entries (SHA-256 digests, 64 hex digits). */
export function digestProblems(path: string, list: readonly unknown[] | undefined): ValidationProblem[] {
  return (list ?? []).flatMap((h, i): ValidationProblem[] =>
    typeof h === "string" && (isToken(h) || /^[0-9a-fA-F]{64}$/.test(h))
      ? []
      : [{ path: `${path}[${i}]`, problem: `${show(h)} is not a SHA-256 digest`, fix: "give 64 hex digits" }],
  );
}

/** A problem when `text` does not hash to `sha256` (tokens are the provider's to check). */
export function pinProblem(path: string, text: string, sha256: string): ValidationProblem[] {
  if (isToken(text) || isToken(sha256)) return [];
  const got = createHash("sha256").update(text).digest("hex");
  if (got === sha256.toLowerCase()) return [];
  return [
    {
      path,
      problem: `the reference values hash to sha256 ${got}, not the pinned ${sha256}`,
      fix: "review the document and pin its sha256 again (sha256sum reference.json)",
    },
  ];
}
