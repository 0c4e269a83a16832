/**
 * rackform_firmware's UEFI Secure Boot: what the configuration wants, what the node's SecureBoot resource and
 * databases report, the entries to enrol, and the check after the reset that they took. Enrolment and the enable flag
 * are staged before the node's one reset (with the firmware and BIOS settings) and take effect at it.
 */
import { X509Certificate } from "node:crypto";
import { unlessNotFound } from "../../clients/classify.js";
import { certificateSha256, type SecureBootDatabase, type SecureBootState } from "../../clients/redfish/index.js";
import type { FirmwareBmc } from "./firmware-deps.js";

/** What `secure_boot` asks for (certificates as PEM, dbx entries as lower-case hex). */
export interface SecureBootWanted {
  readonly enabled: boolean;
  readonly db: readonly string[];
  readonly kek: readonly string[];
  readonly dbx: readonly string[];
}

/** What one read of the node found. */
export interface SecureBootFacts {
  readonly info: SecureBootState;
  /** Read only when certificates or revocations are wanted. */
  readonly databases?: readonly SecureBootDatabase[];
}

/** `secure_boot_status` as recorded. */
export interface SecureBootStatus {
  readonly enabled: boolean;
  readonly current_boot: string;
  readonly mode: string;
  readonly missing: readonly string[];
}

/** `secure_boot_status` as a state holds it (any field may be null). */
export type RecordedStatus =
  | {
      readonly [K in keyof SecureBootStatus]: SecureBootStatus[K] | null;
    }
  | null;

type Configured = {
  readonly enabled: boolean;
  readonly db: readonly string[] | null;
  readonly kek: readonly string[] | null;
  readonly dbx: readonly string[] | null;
};

/** The wanted Secure Boot of a configured `secure_boot` (null: not managed). */
export function secureBootWanted(c: Configured | null | undefined): SecureBootWanted | undefined {
  if (!c) return undefined;
  return {
    enabled: c.enabled,
    db: [...(c.db ?? [])],
    kek: [...(c.kek ?? [])],
    dbx: (c.dbx ?? []).map((h) => h.toLowerCase()),
  };
}

/** The SHA-256 of a certificate's DER, lower-case hex (how entries are compared and named). */
export function fingerprintOf(pem: string): string {
  return certificateSha256(new X509Certificate(pem));
}

/** A canonical form for `ref`'s digest: fingerprints and digests sorted. */
export function secureBootCanon(w: SecureBootWanted | undefined): unknown {
  if (!w) return undefined;
  const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();
  return {
    enabled: w.enabled,
    db: sorted(w.db.map(fingerprintOf)),
    kek: sorted(w.kek.map(fingerprintOf)),
    dbx: sorted(w.dbx),
  };
}

/** The database of that id (case as UEFI names them: PK, KEK, db, dbx). */
const dbOf = (f: SecureBootFacts, id: string) => f.databases?.find((d) => d.id.toLowerCase() === id.toLowerCase());

/** What is wanted and not in the node's databases, as `missing` names it, with what to enrol. */
export function missingEntries(
  w: SecureBootWanted,
  f: SecureBootFacts,
): { db: string; entry: string; pem?: string; hash?: string }[] {
  const out: { db: string; entry: string; pem?: string; hash?: string }[] = [];
  for (const [id, pems] of [
    ["KEK", w.kek],
    ["db", w.db],
  ] as const) {
    const have = new Set((dbOf(f, id)?.certificates ?? []).map((c) => c.sha256));
    for (const pem of pems) {
      const fp = fingerprintOf(pem);
      if (!have.has(fp)) out.push({ db: id, entry: `${id.toLowerCase()}:${fp}`, pem });
    }
  }
  const revoked = new Set((dbOf(f, "dbx")?.signatures ?? []).map((s) => s.hashHex));
  for (const h of w.dbx) if (!revoked.has(h)) out.push({ db: "dbx", entry: `dbx:${h}`, hash: h });
  return out;
}

/** The status to record. */
export function statusOf(w: SecureBootWanted, f: SecureBootFacts): SecureBootStatus {
  return {
    enabled: f.info.enable === true,
    current_boot: f.info.currentBoot ?? "",
    mode: f.info.mode ?? "",
    missing: missingEntries(w, f).map((m) => m.entry),
  };
}

/** The node runs as wanted: enforcement (this boot's and the next's) and every entry present. */
export function converged(w: SecureBootWanted, s: RecordedStatus): boolean {
  if (!s) return false;
  const current = w.enabled ? s.current_boot === "Enabled" : s.current_boot !== "Enabled";
  return s.enabled === w.enabled && current && (s.missing ?? []).length === 0;
}

/** The status a converging apply reaches (the plan shows it). */
export function targetStatus(w: SecureBootWanted, s: RecordedStatus): SecureBootStatus {
  return {
    enabled: w.enabled,
    current_boot: w.enabled ? "Enabled" : "Disabled",
    mode: s?.mode ?? "UserMode",
    missing: [],
  };
}

/**
 * Reads the node's SecureBoot at `uri` (the System's link, or where a refresh found it before), and the databases it
 * compares when entries are wanted; undefined when the System links none or it is gone (a 404: not the System's).
 */
export async function observeSecureBoot(
  bmc: FirmwareBmc,
  uri: string | undefined,
  w: SecureBootWanted,
): Promise<SecureBootFacts | undefined> {
  const info = uri ? await unlessNotFound(bmc.secureBoot(uri)) : undefined;
  if (!info) return undefined;
  const needed = [...(w.kek.length ? ["KEK"] : []), ...(w.db.length ? ["db"] : []), ...(w.dbx.length ? ["dbx"] : [])];
  if (needed.length === 0 || !info.databasesUri) return { info };
  return { info, databases: await bmc.secureBootDatabases(info.databasesUri, needed) };
}

/** Why the wanted Secure Boot cannot be applied to this node, or undefined (checked before any write). */
export function secureBootProblem(w: SecureBootWanted, f: SecureBootFacts | undefined): string | undefined {
  if (!f)
    return "its BMC offers no SecureBoot resource on the System (Redfish SecureBoot), so it cannot be managed here";
  if (w.enabled && /setup/i.test(f.info.mode ?? "")) {
    return (
      "it is in Setup Mode (no Platform Key enrolled), so Secure Boot cannot be enforced: enrol a Platform Key " +
      "(or reset the keys to the platform defaults with the BMC's SecureBoot.ResetKeys) and apply again"
    );
  }
  const dbs = new Set((f.databases ?? []).map((d) => d.id.toLowerCase()));
  const needs = [...(w.kek.length ? ["KEK"] : []), ...(w.db.length ? ["db"] : []), ...(w.dbx.length ? ["dbx"] : [])];
  const absent = needs.filter((d) => !dbs.has(d.toLowerCase()));
  if (absent.length) return `its BMC lists no ${absent.join(", ")} Secure Boot database to enrol into`;
  return undefined;
}

/** The Secure Boot changes an apply stages (and its reset activates), as the logs and `offerReset` name them. */
export function secureBootChanges(w: SecureBootWanted, f: SecureBootFacts): string[] {
  const out = missingEntries(w, f).map((m) => `enrol ${m.entry}`);
  const enforced = f.info.currentBoot === "Enabled";
  if ((f.info.enable === true) !== w.enabled || enforced !== w.enabled)
    out.push(`Secure Boot ${w.enabled ? "on" : "off"}`);
  return out;
}

/** Enrols what is missing (KEK before db, then dbx) and sets the enable flag; all take effect at the next reset. */
export async function stageSecureBoot(bmc: FirmwareBmc, w: SecureBootWanted, f: SecureBootFacts): Promise<void> {
  for (const m of missingEntries(w, f)) {
    const db = dbOf(f, m.db);
    if (!db) continue;
    if (m.pem) await bmc.enrolCertificate(db.uri, m.pem);
    else if (m.hash) await bmc.addSignature(db.uri, m.hash);
  }
  if ((f.info.enable === true) !== w.enabled) await bmc.setSecureBootEnable(f.info.uri, w.enabled);
}

/** What did not take after the reset (evidence lines), empty when the node runs as wanted. */
export function secureBootBehind(w: SecureBootWanted, f: SecureBootFacts | undefined): string[] {
  if (!f) return ["the BMC no longer reports the System's SecureBoot after the reset"];
  const s = statusOf(w, f);
  const out = s.missing.map((m) => `Secure Boot database entry ${m} missing after the reset`);
  if (!converged(w, { ...s, missing: [] })) {
    const want = w.enabled ? "Enabled" : "Disabled";
    out.unshift(
      `Secure Boot is ${s.current_boot || "unknown"} for this boot after the reset, not ${want} (SecureBootEnable ${s.enabled})`,
    );
  }
  return out;
}
