/**
 * UEFI Secure Boot on every System (DSP0268 SecureBoot v1_1, SecureBootDatabase v1_0, Certificate, Signature), shaped
 * after the DMTF public-tower mockup (Systems/437XR1238R2/SecureBoot) and sushy's secure_boot*.json samples. A PATCH
 * of SecureBootEnable is what the next boot does: SecureBootCurrentBoot follows at the host's next reset
 * (world/secure-boot.ts), and the PATCH answers with Base ResetRequired. Certificates and dbx signatures change the
 * database at once (the lab does not model authenticated-variable updates).
 */
import { X509Certificate } from "node:crypto";
import type { LabNode } from "../world/model.js";
import { hasQuirk } from "../world/quirks.js";
import { DATABASES, type DatabaseId, type SecureBootState } from "../world/secure-boot.js";
import { certificateFields, dnFields } from "./cert-fields.js";
import { RedfishError } from "./errors.js";
import { bodyEtag } from "./representation.js";
import { type Ctx, collection, link, objectBody, ok, type Reply, type Route, systemOf } from "./router.js";

const sbPath = (n: LabNode) => `/redfish/v1/Systems/${n.systemId}/SecureBoot`;
const dbPath = (n: LabNode, db: string) => `${sbPath(n)}/SecureBootDatabases/${db}`;
const DB_NAMES: Readonly<Record<string, string>> = {
  PK: "PK - Platform Key",
  KEK: "KEK - Key Exchange Key Database",
  db: "db - Authorized Signature Database",
  dbx: "dbx - Forbidden Signature Database",
};
/** Databases with a Signatures collection (as in the DMTF mockup). */
const WITH_SIGNATURES = new Set(["db", "dbx", "dbDefault", "dbxDefault"]);
const RESET_ALL = ["ResetAllKeysToDefault", "DeleteAllKeys", "DeletePK"];
const RESET_DB = ["ResetAllKeysToDefault", "DeleteAllKeys"];

function stateOf(ctx: Ctx): { n: LabNode; s: SecureBootState } {
  const n = systemOf(ctx);
  return { n, s: ctx.world.secureBoot.of(n) };
}

function dbOf(ctx: Ctx): { n: LabNode; s: SecureBootState; db: DatabaseId } {
  const { n, s } = stateOf(ctx);
  const db = ctx.params.db as DatabaseId;
  if (!DATABASES.includes(db)) throw new RedfishError(404, "ResourceNotFound", ["SecureBootDatabase", ctx.params.db]);
  return { n, s, db };
}

function secureBoot(ctx: Ctx, n: LabNode, s: SecureBootState): Record<string, unknown> {
  return {
    "@odata.type": "#SecureBoot.v1_1_2.SecureBoot",
    "@odata.id": sbPath(n),
    Id: "SecureBoot",
    Name: "UEFI Secure Boot",
    SecureBootEnable: s.enable,
    SecureBootCurrentBoot: s.current,
    SecureBootMode: ctx.world.secureBoot.mode(n),
    SecureBootDatabases: link(`${sbPath(n)}/SecureBootDatabases`),
    Actions: {
      "#SecureBoot.ResetKeys": {
        target: `${sbPath(n)}/Actions/SecureBoot.ResetKeys`,
        "ResetKeysType@Redfish.AllowableValues": RESET_ALL,
      },
    },
  };
}

function patchSecureBoot(ctx: Ctx): Reply {
  const { n, s } = stateOf(ctx);
  // If-Match against the resource's ETag (the lab's body hash, as its GET sends it; none with quirk no-etags).
  const ifMatch = ctx.headers["if-match"];
  if (typeof ifMatch === "string" && ifMatch !== "*" && !hasQuirk(n, "no-etags")) {
    const tags = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
    if (!tags.includes(bodyEtag(secureBoot(ctx, n, s)))) throw new RedfishError(412, "PreconditionFailed");
  }
  const body = objectBody(ctx);
  for (const k of Object.keys(body)) {
    if (k === "SecureBootCurrentBoot" || k === "SecureBootMode")
      throw new RedfishError(400, "PropertyNotWritable", [k]);
    if (k !== "SecureBootEnable") throw new RedfishError(400, "PropertyUnknown", [k]);
  }
  const v = body.SecureBootEnable;
  if (typeof v !== "boolean")
    throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(v), "SecureBootEnable"]);
  s.enable = v;
  n.generation++;
  const reset = `/redfish/v1/Systems/${n.systemId}/Actions/ComputerSystem.Reset`;
  return ok({
    ...secureBoot(ctx, n, s),
    "@Message.ExtendedInfo": [
      {
        "@odata.type": "#Message.v1_3_0.Message",
        MessageId: "Base.1.18.ResetRequired",
        Message: `In order to complete the operation, a component reset is required with the Reset action URI '${reset}' and ResetType 'ForceRestart'.`,
        MessageArgs: [reset, "ForceRestart"],
        MessageSeverity: "OK",
        Resolution: "Perform the required Reset action on the specified component.",
      },
    ],
  });
}

function resetType(ctx: Ctx, allowed: readonly string[], action: string): string {
  const t = objectBody(ctx).ResetKeysType;
  if (t === undefined) throw new RedfishError(400, "ActionParameterMissing", [action, "ResetKeysType"]);
  if (typeof t !== "string" || !allowed.includes(t))
    throw new RedfishError(400, "ActionParameterValueNotInList", [String(t), "ResetKeysType", action]);
  return t;
}

function database(n: LabNode, db: DatabaseId): Record<string, unknown> {
  const base = dbPath(n, db);
  const live = db.replace(/Default$/, "");
  return {
    "@odata.type": "#SecureBootDatabase.v1_0_3.SecureBootDatabase",
    "@odata.id": base,
    Id: db,
    Name: db.endsWith("Default") ? `${db} - Default ${live} Database` : DB_NAMES[db],
    Description: `UEFI ${db} Secure Boot Database`,
    DatabaseId: db,
    Certificates: link(`${base}/Certificates`),
    ...(WITH_SIGNATURES.has(db) ? { Signatures: link(`${base}/Signatures`) } : {}),
    Actions: {
      "#SecureBootDatabase.ResetKeys": {
        target: `${base}/Actions/SecureBootDatabase.ResetKeys`,
        "ResetKeysType@Redfish.AllowableValues": RESET_DB,
      },
    },
  };
}

function certificate(path: string, id: string, pem: string, owner: string): Record<string, unknown> {
  const c = new X509Certificate(pem);
  return {
    "@odata.type": "#Certificate.v1_8_3.Certificate",
    "@odata.id": path,
    Id: id,
    Name: `${dnFields(c.subject).CommonName ?? "UEFI"} Certificate`,
    CertificateString: pem,
    CertificateType: "PEM",
    ...certificateFields(c),
    Fingerprint: c.fingerprint256,
    FingerprintHashAlgorithm: "TPM_ALG_SHA256",
    UefiSignatureOwner: owner,
  };
}

/** The database a write targets: a live one (the Default copies are read-only: 405). */
function writable(ctx: Ctx) {
  const r = dbOf(ctx);
  if (r.db.endsWith("Default")) throw new RedfishError(405, "OperationNotAllowed", [], { Allow: "GET" });
  return r as typeof r & { db: "PK" | "KEK" | "db" | "dbx" };
}

const PEM_BLOCK = /^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/;

function addCertificate(ctx: Ctx): Reply {
  const { n, s, db } = writable(ctx);
  const body = objectBody(ctx);
  const pem = body.CertificateString;
  if (typeof pem !== "string") throw new RedfishError(400, "PropertyMissing", ["CertificateString"]);
  if (body.CertificateType !== "PEM")
    throw new RedfishError(400, "PropertyValueNotInList", [String(body.CertificateType), "CertificateType"]);
  let parsed: X509Certificate;
  try {
    if (!PEM_BLOCK.test(pem)) throw new Error("not one PEM certificate block");
    parsed = new X509Certificate(pem);
  } catch {
    throw new RedfishError(400, "PropertyValueFormatError", ["<certificate>", "CertificateString"]);
  }
  const owner =
    typeof body.UefiSignatureOwner === "string" ? body.UefiSignatureOwner : "00000000-0000-0000-0000-000000000000";
  const d = s.dbs[db];
  const id = String(d.next++);
  d.certs.push({ id, pem: parsed.toString(), owner });
  n.generation++;
  const path = `${dbPath(n, db)}/Certificates/${id}`;
  return { status: 201, body: certificate(path, id, parsed.toString(), owner), headers: { Location: path } };
}

const HEX = /^[0-9A-Fa-f]+$/;

function addSignature(ctx: Ctx): Reply {
  const { n, s, db } = writable(ctx);
  const body = objectBody(ctx);
  const sig = body.SignatureString;
  if (typeof sig !== "string") throw new RedfishError(400, "PropertyMissing", ["SignatureString"]);
  if (body.SignatureTypeRegistry !== "UEFI")
    throw new RedfishError(400, "PropertyValueNotInList", [
      String(body.SignatureTypeRegistry),
      "SignatureTypeRegistry",
    ]);
  if (body.SignatureType !== "EFI_CERT_SHA256_GUID")
    throw new RedfishError(400, "PropertyValueNotInList", [String(body.SignatureType), "SignatureType"]);
  if (!HEX.test(sig) || sig.length !== 64)
    throw new RedfishError(400, "PropertyValueFormatError", [sig, "SignatureString"]);
  const owner =
    typeof body.UefiSignatureOwner === "string" ? body.UefiSignatureOwner : "00000000-0000-0000-0000-000000000000";
  const d = s.dbs[db];
  const id = String(d.next++);
  d.sigs.push({ id, hex: sig.toUpperCase(), owner });
  n.generation++;
  const path = `${dbPath(n, db)}/Signatures/${id}`;
  return { status: 201, body: signature(path, id, sig.toUpperCase(), owner), headers: { Location: path } };
}

function signature(path: string, id: string, hex: string, owner: string): Record<string, unknown> {
  return {
    "@odata.type": "#Signature.v1_0_3.Signature",
    "@odata.id": path,
    Id: id,
    Name: "SHA256 Signature",
    SignatureString: hex,
    SignatureTypeRegistry: "UEFI",
    SignatureType: "EFI_CERT_SHA256_GUID",
    UefiSignatureOwner: owner,
  };
}

function member<T extends { id: string }>(list: T[], id: string, type: string): T {
  const m = list.find((x) => x.id === id);
  if (!m) throw new RedfishError(404, "ResourceNotFound", [type, id]);
  return m;
}

const base = "/redfish/v1/Systems/:sys/SecureBoot";

/** Routes of SecureBoot and its databases. */
export const secureBootRoutes: Route[] = [
  {
    pattern: base,
    methods: { GET: (ctx) => ok(secureBoot(ctx, stateOf(ctx).n, stateOf(ctx).s)), PATCH: patchSecureBoot },
  },
  {
    pattern: `${base}/Actions/SecureBoot.ResetKeys`,
    methods: {
      POST: (ctx) => {
        const { n } = stateOf(ctx);
        const t = resetType(ctx, RESET_ALL, "SecureBoot.ResetKeys");
        const sb = ctx.world.secureBoot;
        if (t === "DeletePK") sb.reset(n, "PK", "empty");
        else
          for (const db of ["PK", "KEK", "db", "dbx"] as const)
            sb.reset(n, db, t === "DeleteAllKeys" ? "empty" : "default");
        n.generation++;
        return { status: 204 };
      },
    },
  },
  {
    pattern: `${base}/SecureBootDatabases`,
    methods: {
      GET: (ctx) => {
        const { n } = stateOf(ctx);
        const path = `${sbPath(n)}/SecureBootDatabases`;
        const body = collection(
          "SecureBootDatabaseCollection",
          "UEFI SecureBoot Database Collection",
          path,
          DATABASES.map((d) => dbPath(n, d)),
        );
        return ok(body);
      },
    },
  },
  {
    pattern: `${base}/SecureBootDatabases/:db`,
    methods: { GET: (ctx) => ok(database(dbOf(ctx).n, dbOf(ctx).db)) },
  },
  {
    pattern: `${base}/SecureBootDatabases/:db/Actions/SecureBootDatabase.ResetKeys`,
    methods: {
      POST: (ctx) => {
        const { n, db } = writable(ctx);
        const t = resetType(ctx, RESET_DB, "SecureBootDatabase.ResetKeys");
        ctx.world.secureBoot.reset(n, db, t === "DeleteAllKeys" ? "empty" : "default");
        n.generation++;
        return { status: 204 };
      },
    },
  },
  {
    pattern: `${base}/SecureBootDatabases/:db/Certificates`,
    methods: {
      GET: (ctx) => {
        const { n, s, db } = dbOf(ctx);
        const path = `${dbPath(n, db)}/Certificates`;
        const members = s.dbs[db].certs.map((c) => `${path}/${c.id}`);
        const body = collection("CertificateCollection", "Certificate Collection", path, members) as object;
        return ok({ ...body, "@Redfish.SupportedCertificates": ["PEM"] });
      },
      POST: addCertificate,
    },
  },
  {
    pattern: `${base}/SecureBootDatabases/:db/Certificates/:id`,
    methods: {
      GET: (ctx) => {
        const { n, s, db } = dbOf(ctx);
        const c = member(s.dbs[db].certs, ctx.params.id, "Certificate");
        return ok(certificate(`${dbPath(n, db)}/Certificates/${c.id}`, c.id, c.pem, c.owner));
      },
      DELETE: (ctx) => {
        const { n, s, db } = writable(ctx);
        const c = member(s.dbs[db].certs, ctx.params.id, "Certificate");
        s.dbs[db].certs = s.dbs[db].certs.filter((x) => x !== c);
        n.generation++;
        return { status: 204 };
      },
    },
  },
  {
    pattern: `${base}/SecureBootDatabases/:db/Signatures`,
    methods: {
      GET: (ctx) => {
        const { n, s, db } = dbOf(ctx);
        if (!WITH_SIGNATURES.has(db)) throw new RedfishError(404, "ResourceNotFound", ["SignatureCollection", db]);
        const path = `${dbPath(n, db)}/Signatures`;
        return ok(
          collection(
            "SignatureCollection",
            "Signature Collection",
            path,
            s.dbs[db].sigs.map((x) => `${path}/${x.id}`),
          ),
        );
      },
      POST: (ctx) => {
        if (!WITH_SIGNATURES.has(ctx.params.db))
          throw new RedfishError(404, "ResourceNotFound", ["SignatureCollection", ctx.params.db]);
        return addSignature(ctx);
      },
    },
  },
  {
    pattern: `${base}/SecureBootDatabases/:db/Signatures/:id`,
    methods: {
      GET: (ctx) => {
        const { n, s, db } = dbOf(ctx);
        const x = member(s.dbs[db].sigs, ctx.params.id, "Signature");
        return ok(signature(`${dbPath(n, db)}/Signatures/${x.id}`, x.id, x.hex, x.owner));
      },
      DELETE: (ctx) => {
        const { n, s, db } = writable(ctx);
        const x = member(s.dbs[db].sigs, ctx.params.id, "Signature");
        s.dbs[db].sigs = s.dbs[db].sigs.filter((y) => y !== x);
        n.generation++;
        return { status: 204 };
      },
    },
  },
];
