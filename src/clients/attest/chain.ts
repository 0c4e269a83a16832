/**
 * The responder's certificate chain checked up to a trust anchor: from the leaf (the chain's first certificate that is
 * not a CA), each link's issuer found by name in the chain or among the anchors, its signature verified, the issuer
 * required to be a CA, and every certificate on the path valid at `now`. The chain may come in either order (DSP0274
 * puts the root first, Redfish PEM chains usually the leaf first) and may include the root it was provisioned with:
 * that root counts only where it is one of the anchors.
 */
import type * as x509 from "@peculiar/x509";
import { CRYPTO, isCa, type TrustAnchor } from "./anchors.js";
import type { AttestProblem } from "./problems.js";

/** What the chain check found. */
export interface ChainResult {
  readonly leaf?: x509.X509Certificate;
  /** Subjects from the leaf up to the anchor reached (or as far as the chain went). */
  readonly path: readonly string[];
  readonly trusted: boolean;
  readonly problems: readonly AttestProblem[];
}

const sameDer = (a: x509.X509Certificate, b: x509.X509Certificate) =>
  Buffer.from(a.rawData).equals(Buffer.from(b.rawData));

const signedBy = (cert: x509.X509Certificate, issuer: x509.X509Certificate): Promise<boolean> =>
  cert.verify({ publicKey: issuer, signatureOnly: true }, CRYPTO).catch(() => false);

function validity(cert: x509.X509Certificate, now: Date, role: string): AttestProblem | undefined {
  if (now < cert.notBefore) {
    return {
      kind: "validity",
      detail: `the ${role} ${cert.subject} is not valid before ${cert.notBefore.toISOString()}`,
    };
  }
  if (now > cert.notAfter) {
    return { kind: "validity", detail: `the ${role} ${cert.subject} expired at ${cert.notAfter.toISOString()}` };
  }
  return undefined;
}

/** Checks `chain` against `anchors` at `now`. */
export async function verifyChain(
  chain: readonly x509.X509Certificate[],
  anchors: readonly TrustAnchor[],
  now: Date,
): Promise<ChainResult> {
  const leaf = chain.find((c) => !isCa(c)) ?? chain[0];
  if (!leaf)
    return { path: [], trusted: false, problems: [{ kind: "chain", detail: "the component's chain is empty" }] };
  const problems: AttestProblem[] = [];
  const path: string[] = [];
  const used = new Set<x509.X509Certificate>();
  let current = leaf;
  for (let depth = 0; depth <= chain.length; depth++) {
    path.push(current.subject);
    used.add(current);
    const role = current === leaf ? "leaf certificate" : "CA certificate";
    const v = validity(current, now, role);
    if (v) problems.push(v);
    if (anchors.some((a) => sameDer(a.cert, current))) return { leaf, path, trusted: problems.length === 0, problems };
    for (const a of anchors) {
      if (a.subject === current.issuer && (await signedBy(current, a.cert))) {
        path.push(a.subject);
        const av = validity(a.cert, now, "trust anchor");
        if (av) problems.push(av);
        return { leaf, path, trusted: problems.length === 0, problems };
      }
    }
    const named = chain.filter((c) => !used.has(c) && c.subject === current.issuer);
    let next: x509.X509Certificate | undefined;
    for (const c of named) if (await signedBy(current, c)) next = c;
    if (!next) {
      problems.push({ kind: "chain", detail: dangling(current, named.length > 0) });
      return { leaf, path, trusted: false, problems };
    }
    if (!isCa(next)) {
      problems.push({
        kind: "chain",
        detail: `${current.subject} is signed by ${next.subject}, which is not a CA certificate`,
      });
      return { leaf, path, trusted: false, problems };
    }
    current = next;
  }
  problems.push({ kind: "chain", detail: "the component's chain loops" });
  return { leaf, path, trusted: false, problems };
}

function dangling(cert: x509.X509Certificate, badSignature: boolean): string {
  if (badSignature) return `the signature on ${cert.subject} by its issuer ${cert.issuer} does not verify`;
  if (cert.issuer === cert.subject) {
    return `the chain ends at the self-signed ${cert.subject}, which is not one of the trust anchors (an unknown CA)`;
  }
  return `the chain ends at ${cert.subject}, issued by ${cert.issuer}, which is neither in the chain nor a trust anchor (an unknown CA)`;
}
