/**
 * rackform_firmware's UEFI Secure Boot: the entries a node lacks (by certificate digest and dbx hash), the changes an
 * apply stages and its one reset activates, what a read back after the reset says did not take, the plan of a node
 * whose Secure Boot was turned off by hand, and the checks at validation (before any request to a BMC). Certificates
 * are real ones from the DMTF public-tower mockup.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SecureBootDatabase } from "../../../src/clients/redfish/index.js";
import { type Diagnostic, formatPath, UNKNOWN, type Value } from "../../../src/framework/index.js";
import { rackformProvider } from "../../../src/provider/index.js";
import type { FirmwareDeps } from "../../../src/provider/resources/firmware-deps.js";
import { refOf } from "../../../src/provider/resources/firmware-model.js";
import { planFirmware } from "../../../src/provider/resources/firmware-ops.js";
import { type FirmwareState, firmwareSchema } from "../../../src/provider/resources/firmware-schema.js";
import {
  converged,
  fingerprintOf,
  missingEntries,
  type SecureBootFacts,
  secureBootBehind,
  secureBootChanges,
  secureBootProblem,
  secureBootWanted,
  statusOf,
} from "../../../src/provider/resources/firmware-secure-boot.js";
import { createServer } from "../../../src/server/create-server.js";
import { FIXTURES } from "../../support/fixtures.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { typedRequest } from "../../support/typed-request.js";

const dbs = join(FIXTURES, "redfish/dmtf/mockups/public-tower/Systems/437XR1238R2/SecureBoot/SecureBootDatabases");
const pemOf = (rel: string) =>
  (JSON.parse(readFileSync(join(dbs, rel, "index.json"), "utf8")) as { CertificateString: string }).CertificateString;
const PK = pemOf("PK/Certificates/1");
const KEK = pemOf("KEKDefault/Certificates/1");
const HASH = "c".repeat(64);

const db = (id: string, certs: string[] = [], hashes: string[] = []): SecureBootDatabase => ({
  id,
  uri: `/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/${id}`,
  certificates: certs.map((pem, i) => ({ uri: `/c/${id}/${i}`, sha256: fingerprintOf(pem) })),
  signatures: hashes.map((h, i) => ({ uri: `/s/${id}/${i}`, hashHex: h })),
});
const facts = (o: {
  enable?: boolean;
  currentBoot?: string;
  mode?: string;
  databases?: SecureBootDatabase[];
}): SecureBootFacts => ({
  info: {
    uri: "/redfish/v1/Systems/1/SecureBoot",
    enable: o.enable ?? false,
    currentBoot: o.currentBoot ?? "Disabled",
    mode: o.mode ?? "UserMode",
    databasesUri: "/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases",
  },
  databases: o.databases ?? [db("PK", [PK]), db("KEK"), db("db"), db("dbx")],
});
const want = secureBootWanted({ enabled: true, db: [PK], kek: [KEK], dbx: [HASH.toUpperCase()] })!;

describe("rackform_firmware's Secure Boot model", () => {
  it("lists what a node lacks, KEK before db, dbx by its digest (any case)", () => {
    expect(missingEntries(want, facts({})).map((m) => m.entry)).toEqual([
      `kek:${fingerprintOf(KEK)}`,
      `db:${fingerprintOf(PK)}`,
      `dbx:${HASH}`,
    ]);
    const all = facts({ databases: [db("PK", [PK]), db("KEK", [KEK]), db("db", [PK]), db("dbx", [], [HASH])] });
    expect(missingEntries(want, all)).toEqual([]);
  });

  it("stages the enrolments and the enable flag; a flag set but not booted yet still needs the reset", () => {
    expect(secureBootChanges(want, facts({}))).toEqual([
      `enrol kek:${fingerprintOf(KEK)}`,
      `enrol db:${fingerprintOf(PK)}`,
      `enrol dbx:${HASH}`,
      "Secure Boot on",
    ]);
    const pending = facts({
      enable: true,
      databases: [db("PK"), db("KEK", [KEK]), db("db", [PK]), db("dbx", [], [HASH])],
    });
    expect(secureBootChanges(want, pending)).toEqual(["Secure Boot on"]);
    const on = { ...pending, info: { ...pending.info, currentBoot: "Enabled" } };
    expect(secureBootChanges(want, on)).toEqual([]);
    expect(converged(want, statusOf(want, on))).toBe(true);
    expect(converged(want, statusOf(want, pending))).toBe(false);
  });

  it("refuses, before any write, a node in Setup Mode, a BMC without SecureBoot, a database the BMC lacks", () => {
    expect(secureBootProblem(want, facts({ mode: "SetupMode" }))).toMatch(/Setup Mode .*ResetKeys/);
    expect(secureBootProblem(want, undefined)).toMatch(/no SecureBoot resource/);
    expect(secureBootProblem(want, facts({ databases: [db("PK"), db("db")] }))).toMatch(
      /no KEK, dbx Secure Boot database/,
    );
    expect(secureBootProblem(want, facts({}))).toBeUndefined();
  });

  it("after the reset, names what did not take as evidence", () => {
    expect(secureBootBehind(want, facts({ enable: true }))).toEqual([
      "Secure Boot is Disabled for this boot after the reset, not Enabled (SecureBootEnable true)",
      `Secure Boot database entry kek:${fingerprintOf(KEK)} missing after the reset`,
      `Secure Boot database entry db:${fingerprintOf(PK)} missing after the reset`,
      `Secure Boot database entry dbx:${HASH} missing after the reset`,
    ]);
  });
});

describe("rackform_firmware's plan with Secure Boot", () => {
  const endpoint = "https://10.0.0.5";
  const secure_boot = { enabled: true, db: [PK], kek: null, dbx: null };
  const wanted = secureBootWanted(secure_boot);
  const on = { enabled: true, current_boot: "Enabled", mode: "UserMode", missing: [] };
  const state: FirmwareState = {
    id: endpoint,
    endpoint,
    components: null,
    bios: null,
    secure_boot,
    secure_boot_status: on,
    rolling: true,
    versions: {},
    bios_settings: {},
    bios_pending: {},
    ref: `${refOf(endpoint, {}, {}, wanted)}/1`,
    update_order: [],
    last_update_messages: [],
    timeouts: null,
  };
  const planOf = (st: FirmwareState) => {
    const p = {
      ...state,
      versions: UNKNOWN,
      bios_settings: UNKNOWN,
      bios_pending: UNKNOWN,
      ref: UNKNOWN,
      secure_boot_status: UNKNOWN,
      last_update_messages: UNKNOWN,
    };
    return planFirmware({ ...typedRequest(), config: p, plan: p, state: st, private: {} }, {
      allowHttp: false,
    } as FirmwareDeps);
  };

  it("a node that enforces it plans nothing: the ref stays", () => {
    expect(planOf(state)?.plan).toMatchObject({ ref: state.ref, secure_boot_status: on });
  });

  it("turned off by hand, the node plans the way back and the next ref (its member rolls it within the budget)", () => {
    const off = { ...state, secure_boot_status: { ...on, enabled: false, current_boot: "Disabled" } };
    const out = planOf(off)?.plan;
    expect(out?.ref).toBe(`${refOf(endpoint, {}, {}, wanted)}/2`);
    expect(out?.secure_boot_status).toEqual(on);
  });

  it("without secure_boot the ref is the one recorded before the attribute existed", () => {
    expect(refOf(endpoint, {}, {}, undefined)).toBe(refOf(endpoint, {}, {}));
    expect(refOf(endpoint, {}, {}, wanted)).not.toBe(refOf(endpoint, {}, {}));
  });
});

describe("rackform_firmware's Secure Boot validation", () => {
  const srv = createServer(rackformProvider());
  const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);
  const validate = async (sb: Record<string, Value>) =>
    (
      await srv.validateResourceConfig({
        typeName: "rackform_firmware",
        config: configOf(firmwareSchema, { endpoint: "https://10.0.0.5", secure_boot: sb }),
      })
    ).diagnostics;

  it("takes PEM certificates and SHA-256 digests, and refuses anything else naming the entry", async () => {
    expect(lines(await validate({ enabled: true, db: [PK], kek: [KEK], dbx: [HASH] }))).toEqual([]);
    expect(lines(await validate({ enabled: true, db: ["not a certificate"] }))).toEqual([
      "error Invalid Secure Boot certificate @ secure_boot.db",
    ]);
    expect(lines(await validate({ enabled: true, kek: [PK + KEK] }))).toEqual([
      "error Invalid Secure Boot certificate @ secure_boot.kek",
    ]);
    expect(lines(await validate({ enabled: true, dbx: ["abc"] }))).toEqual([
      "error Invalid dbx entry @ secure_boot.dbx",
    ]);
  });
});
