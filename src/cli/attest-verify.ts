/**
 * `rackform attest verify`: re-verify the attestation evidence rackform_acceptance kept (`attestation_evidence`),
 * offline — each component's signed SPDM answer against the nonce rackform sent, its certificate chain against the
 * trust anchors the auditor gives, and its measurements against the reference values. Reads the evidence document
 * itself, a state file, or `terraform show -json` output (every `attestation_evidence` found in it).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { judgeAnswer, parseReferenceValues, problemText } from "../clients/attest/index.js";
import { helpText, parseCommand, UsageError } from "./args.js";
import { ATTEST_VERIFY } from "./attest-command.js";

interface Component {
  readonly id: string;
  readonly kind: string;
  readonly model?: string;
  readonly nonce: string;
  readonly answer?: { readonly signed_measurements: string; readonly hashing_algorithm?: string };
  readonly certificate_chain: readonly string[];
  readonly passed: boolean;
}

interface Evidence {
  readonly format: "rackform-attestation/v1";
  readonly bmc: string;
  readonly measured_at: string;
  readonly reference_sha256: string;
  readonly trust_anchors: readonly string[];
  readonly components: readonly Component[];
}

const isEvidence = (v: unknown): v is Evidence =>
  typeof v === "object" && v !== null && (v as { format?: unknown }).format === "rackform-attestation/v1";

/** Every evidence document in a JSON value: the document itself, or strings under `attestation_evidence` keys. */
export function findEvidence(v: unknown, out: Evidence[] = []): Evidence[] {
  if (isEvidence(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) findEvidence(x, out);
  else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (k === "attestation_evidence" && typeof x === "string") {
        try {
          const doc = JSON.parse(x) as unknown;
          if (isEvidence(doc)) out.push(doc);
        } catch {
          // not evidence
        }
      } else findEvidence(x, out);
    }
  }
  return out;
}

/** The lines for one evidence document and whether every component verified. */
async function verifyEvidence(e: Evidence, anchors: readonly string[], reference?: string) {
  const lines = [`${e.bmc} (measured ${e.measured_at}):`];
  let ok = e.components.length > 0;
  const refs = reference === undefined ? undefined : parseReferenceValues(JSON.parse(reference));
  for (const c of e.components) {
    if (!c.answer) {
      lines.push(`  ${c.id} (${c.kind}): no signed answer recorded — not verifiable`);
      ok = false;
      continue;
    }
    const v = await judgeAnswer({
      transcriptB64: c.answer.signed_measurements,
      nonceHex: c.nonce,
      chainPem: c.certificate_chain.join("\n"),
      trustAnchorsPem: anchors,
      // The chain had to be valid when the answer was given, not when it is audited.
      now: new Date(e.measured_at),
      component: c.id,
      ...(c.answer.hashing_algorithm ? { hashingAlgorithm: c.answer.hashing_algorithm } : {}),
      ...(refs ? { refs } : {}),
      ...(c.model ? { model: c.model } : {}),
    });
    ok &&= v.ok;
    const verdict = v.ok ? "verified" : v.problems.map(problemText).join("; ");
    lines.push(`  ${c.id} (${c.kind}): ${verdict}${c.passed !== v.ok ? " (differs from the recorded verdict)" : ""}`);
  }
  if (e.components.length === 0) lines.push("  no component recorded");
  return { lines, ok };
}

/** Runs the command; resolves with the exit code. */
export async function attestVerify(argv: readonly string[], out: (s: string) => void): Promise<number> {
  const parsed = parseCommand(ATTEST_VERIFY, argv);
  if (parsed.help) return -1;
  const [file] = parsed.positionals;
  if (!file || parsed.positionals.length > 1)
    throw new UsageError("give one FILE: the evidence, a state file or `show -json` output");
  const text = file === "-" ? await readStdin() : await readFile(file, "utf8");
  const found = findEvidence(JSON.parse(text) as unknown);
  if (found.length === 0) throw new UsageError(`${file} holds no rackform-attestation/v1 evidence`);
  const anchorsFile = parsed.values.anchors as string | undefined;
  const referenceFile = parsed.values.reference as string | undefined;
  const reference = referenceFile ? await readFile(referenceFile, "utf8") : undefined;
  let ok = true;
  for (const e of found) {
    const anchors = anchorsFile ? [await readFile(anchorsFile, "utf8")] : e.trust_anchors;
    if (reference !== undefined) {
      const sha = createHash("sha256").update(reference).digest("hex");
      if (sha !== e.reference_sha256) {
        out(`${e.bmc}: the reference values hash to ${sha}, not the ${e.reference_sha256} the gate was judged with\n`);
        ok = false;
      }
    }
    const r = await verifyEvidence(e, anchors, reference);
    out(`${r.lines.join("\n")}\n`);
    ok &&= r.ok;
  }
  if (!anchorsFile)
    out("note: verified against the trust anchors the evidence names; give --anchors to use your own\n");
  return ok ? 0 : 1;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `rackform attest …`: its one subcommand, verify, or its help. */
export async function attestCommand(rest: readonly string[], out: (s: string) => void): Promise<number> {
  const [sub, ...args] = rest;
  if (sub === "verify") {
    const code = await attestVerify(args, out);
    if (code === -1) out(helpText(ATTEST_VERIFY));
    return Math.max(code, 0);
  }
  if (sub === "--help" || sub === "-h" || sub === "help") {
    out(helpText(ATTEST_VERIFY));
    return 0;
  }
  throw new UsageError("which attest command? it has one: rackform attest verify FILE --anchors roots.pem");
}
