/**
 * UEFI Secure Boot through Redfish (DSP0268 SecureBoot v1_1, SecureBootDatabase v1_0, Certificate, Signature): the
 * state (enable, current boot, mode), the key databases (PK, KEK, db, dbx and their defaults) with their certificates
 * and signatures, turning enforcement on or off (If-Match on the ETag where the resource gave one), enrolling a
 * certificate (POST to the database's Certificates), adding a hash (POST to its Signatures) and deleting either.
 */
import { createHash, X509Certificate } from "node:crypto";
import { ClientConfigError, HttpStatusError, RedfishError } from "../errors.js";
import { isObj, lastSegment, link, members, str } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson } from "./types.js";

/** A system's SecureBoot resource. */
export interface SecureBootState {
  readonly uri: string;
  /** SecureBootEnable: enforcement at the next boot. */
  readonly enable?: boolean;
  /** SecureBootCurrentBoot: "Enabled" | "Disabled" for the boot that is running. */
  readonly currentBoot?: string;
  /** SecureBootMode: "SetupMode" | "UserMode" | "AuditMode" | "DeployedMode". */
  readonly mode?: string;
  readonly databasesUri?: string;
  /** Target of #SecureBoot.ResetKeys. */
  readonly resetKeysTarget?: string;
  readonly etag?: string;
}

/** A certificate of a key database. */
export interface SecureBootCertificate {
  readonly uri: string;
  /** SHA-256 of the certificate's DER, lower-case hex; absent when CertificateString is not a readable certificate. */
  readonly sha256?: string;
  /** The certificate's subject (from the certificate, else from the resource's Subject.CommonName). */
  readonly subject?: string;
}

/** A signature (hash) of a key database. */
export interface SecureBootSignature {
  readonly uri: string;
  /** SignatureString as lower-case hex (a hash for EFI_CERT_SHA256_GUID). */
  readonly hashHex?: string;
  /** SignatureType, e.g. "EFI_CERT_SHA256_GUID". */
  readonly type?: string;
}

/** One key database. */
export interface SecureBootDatabase {
  /** DatabaseId: "PK", "KEK", "db", "dbx", "PKDefault"… */
  readonly id: string;
  readonly uri: string;
  readonly certificatesUri?: string;
  readonly signaturesUri?: string;
  readonly certificates: readonly SecureBootCertificate[];
  readonly signatures: readonly SecureBootSignature[];
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

/** A SecureBoot resource. */
export function parseSecureBoot(json: RedfishJson, etag?: string): SecureBootState {
  const actions = isObj(json.Actions) ? json.Actions : {};
  const reset = isObj(actions["#SecureBoot.ResetKeys"]) ? actions["#SecureBoot.ResetKeys"] : undefined;
  const databasesUri = link(json, "SecureBootDatabases");
  const resetKeysTarget = str(reset?.target);
  const tag = etag ?? str(json["@odata.etag"]);
  return {
    uri: str(json["@odata.id"]) ?? "",
    ...(typeof json.SecureBootEnable === "boolean" ? { enable: json.SecureBootEnable } : {}),
    ...(str(json.SecureBootCurrentBoot) ? { currentBoot: str(json.SecureBootCurrentBoot) } : {}),
    ...(str(json.SecureBootMode) ? { mode: str(json.SecureBootMode) } : {}),
    ...(databasesUri ? { databasesUri: trimSlash(databasesUri) } : {}),
    ...(resetKeysTarget ? { resetKeysTarget } : {}),
    ...(tag ? { etag: tag } : {}),
  };
}

/** The SHA-256 of a certificate's DER, lower-case hex: how a key database's entries are told apart. */
export const certificateSha256 = (cert: X509Certificate): string => createHash("sha256").update(cert.raw).digest("hex");

/** A Certificate of a key database: its DER's SHA-256 and subject. */
export function parseDbCertificate(json: RedfishJson): SecureBootCertificate {
  const uri = str(json["@odata.id"]) ?? "";
  const fromResource = isObj(json.Subject) ? str(json.Subject.CommonName) : undefined;
  try {
    const cert = new X509Certificate(str(json.CertificateString) ?? "");
    const sha256 = certificateSha256(cert);
    // node:crypto lists the subject's attributes one a line, in the certificate's order: shown as "C=US, O=…, CN=…".
    return { uri, sha256, subject: cert.subject.split("\n").join(", ") };
  } catch {
    return { uri, ...(fromResource ? { subject: `CN=${fromResource}` } : {}) };
  }
}

/** A Signature of a key database. */
export function parseDbSignature(json: RedfishJson): SecureBootSignature {
  const hash = str(json.SignatureString);
  const type = str(json.SignatureType);
  return {
    uri: str(json["@odata.id"]) ?? "",
    ...(hash && /^[0-9a-fA-F]+$/.test(hash) ? { hashHex: hash.toLowerCase() } : {}),
    ...(type ? { type } : {}),
  };
}

/** The SecureBoot of the system at `systemUri` (or the SecureBoot resource itself, when given its URI). */
export async function readSecureBoot(t: RedfishTransport, systemUri: string): Promise<SecureBootState> {
  const sys = await t.get(systemUri);
  if (typeof sys.json.SecureBootEnable === "boolean" || /^#SecureBoot\./.test(str(sys.json["@odata.type"]) ?? "")) {
    return parseSecureBoot(sys.json, sys.etag);
  }
  const ref = link(sys.json, "SecureBoot");
  if (!ref) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_NOT_FOUND",
      `${t.origin} system ${systemUri} has no SecureBoot resource`,
    );
  }
  const sb = await t.get(ref);
  return parseSecureBoot(sb.json, sb.etag);
}

async function readMembers<T>(
  t: RedfishTransport,
  ref: string | undefined,
  parse: (j: RedfishJson) => T,
): Promise<T[]> {
  if (!ref) return [];
  const refs = members(await t.getJson(ref));
  return Promise.all(refs.map(async (r) => parse(await t.getJson(r))));
}

/** A SecureBootDatabase resource, without its members (`certificates` and `signatures` empty). */
export function parseSecureBootDatabase(json: RedfishJson, ref = ""): SecureBootDatabase {
  const uri = str(json["@odata.id"]) ?? ref;
  const certificatesUri = link(json, "Certificates");
  const signaturesUri = link(json, "Signatures");
  return {
    id: str(json.DatabaseId) ?? str(json.Id) ?? lastSegment(uri),
    uri,
    ...(certificatesUri ? { certificatesUri: trimSlash(certificatesUri) } : {}),
    ...(signaturesUri ? { signaturesUri: trimSlash(signaturesUri) } : {}),
    certificates: [],
    signatures: [],
  };
}

/**
 * The key databases under `databasesUri`, each with its certificates and signatures, in the collection's order: with
 * `only`, those whose URI ends in one of its ids (case-insensitive) — a refresh reads only the databases it compares.
 */
export async function readSecureBootDatabases(
  t: RedfishTransport,
  databasesUri: string,
  only?: readonly string[],
): Promise<SecureBootDatabase[]> {
  const wanted = only && new Set(only.map((x) => x.toLowerCase()));
  const all = members(await t.getJson(databasesUri));
  const picked = all.filter((r) => wanted?.has(lastSegment(r.replace(/\/+$/, "")).toLowerCase()));
  // A service whose URIs do not end in the DatabaseId: every database is read (DatabaseId names them).
  const refs = wanted && picked.length >= wanted.size ? picked : all;
  return Promise.all(
    refs.map(async (ref) => {
      const db = parseSecureBootDatabase(await t.getJson(ref), ref);
      const [certificates, signatures] = await Promise.all([
        readMembers(t, db.certificatesUri, parseDbCertificate),
        readMembers(t, db.signaturesUri, parseDbSignature),
      ]);
      return { ...db, certificates, signatures };
    }),
  );
}

/**
 * Sets SecureBootEnable with If-Match on the resource's ETag (where it gave one); on 412 it is re-read and the PATCH
 * sent once more. Returns the state read afterwards. Enforcement takes effect at the next boot.
 */
export async function setSecureBootEnable(t: RedfishTransport, uri: string, enable: boolean): Promise<SecureBootState> {
  for (let round = 1; ; round++) {
    const sb = await readSecureBoot(t, uri);
    try {
      await t.send("PATCH", sb.uri || uri, {
        json: { SecureBootEnable: enable },
        headers: sb.etag ? { "if-match": sb.etag } : {},
      });
      return await readSecureBoot(t, sb.uri || uri);
    } catch (e) {
      if (!(e instanceof HttpStatusError) || e.status !== 412) throw e;
      if (round >= 2) {
        throw new RedfishError(
          "RACKFORM_ERR_REDFISH_PRECONDITION",
          `${sb.uri} changed while SecureBootEnable was being set (HTTP 412 twice); try again`,
          { method: e.method, url: e.url, status: 412, serverMessage: e.serverMessage, cause: e },
        );
      }
    }
  }
}

async function collectionOf(t: RedfishTransport, dbUri: string, name: "Certificates" | "Signatures"): Promise<string> {
  const ref = link(await t.getJson(dbUri), name);
  if (!ref) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_NOT_FOUND",
      `${t.origin} key database ${dbUri} has no ${name} collection`,
    );
  }
  return trimSlash(ref);
}

/** POSTs to a collection; returns the new member's URI (Location, else the body's @odata.id; "" when neither). */
async function create(t: RedfishTransport, collection: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.send("POST", collection, { json: body });
  if (res.headers.location) return new URL(res.headers.location, t.origin).pathname;
  try {
    const j: unknown = JSON.parse(res.body);
    return isObj(j) && typeof j["@odata.id"] === "string" ? j["@odata.id"] : "";
  } catch {
    return "";
  }
}

/** Enrols a PEM certificate in a key database (db, KEK…); returns the new Certificate's URI. */
export async function enrolCertificate(t: RedfishTransport, dbUri: string, pem: string): Promise<string> {
  return create(t, await collectionOf(t, dbUri, "Certificates"), { CertificateString: pem, CertificateType: "PEM" });
}

/** Adds a SHA-256 hash (EFI_CERT_SHA256_GUID) to a key database (dbx, db); returns the new Signature's URI. */
export async function addSignature(
  t: RedfishTransport,
  dbUri: string,
  sha256Hex: string,
  owner?: string,
): Promise<string> {
  if (!/^[0-9a-fA-F]{64}$/.test(sha256Hex)) {
    throw new ClientConfigError(`signature ${JSON.stringify(sha256Hex)}: expected 64 hex digits (a SHA-256)`);
  }
  return create(t, await collectionOf(t, dbUri, "Signatures"), {
    SignatureString: sha256Hex.toUpperCase(),
    SignatureTypeRegistry: "UEFI",
    SignatureType: "EFI_CERT_SHA256_GUID",
    ...(owner ? { UefiSignatureOwner: owner } : {}),
  });
}
