/**
 * Contract: every payload the lab serves validates against the DMTF JSON Schema version its @odata.type names
 * (fixtures in ../shared/fixtures/redfish/dmtf/json-schema and test/fixtures/redfish-schema, DSP8010, BSD-3). Schemas declare draft-07 through the
 * Redfish meta-schema, so ajv's default (draft-07) class is used.
 */
import type { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  control,
  type Json,
  powerOutlet,
  startTestLab,
  systemPath,
  type TestLab,
} from "../../integration/lab/lab-client.js";
import { dmtfValidator, loadDmtfSchemas, schemaFailures, schemaPresent } from "../../support/dmtf-schemas.js";

describe("lab Redfish payloads against DMTF JSON Schema", () => {
  let t: TestLab;
  let ajv: Ajv;
  const payloads = new Map<string, unknown>();
  const expanded = new Map<string, unknown>();

  /** Attestation and Secure Boot resources of one node (issue 34). */
  async function trustPayloads(
    name: string,
    get: (p: string) => Promise<Json>,
    post: (p: string, body: unknown) => Promise<Json>,
  ): Promise<void> {
    const root = await get("/redfish/v1");
    const ci = await get(root.ComponentIntegrity["@odata.id"]);
    payloads.set(`${name} ComponentIntegrityCollection`, ci);
    for (const m of ci.Members.slice(0, 2)) {
      const member = await get(m["@odata.id"]);
      payloads.set(`${name} ComponentIntegrity ${m["@odata.id"]}`, member);
      const cert = member.SPDM.IdentityAuthentication.ResponderAuthentication.ComponentCertificate["@odata.id"];
      payloads.set(`${name} Certificate ${cert}`, await get(cert));
      const action = member.Actions["#ComponentIntegrity.SPDMGetSignedMeasurements"].target;
      payloads.set(
        `${name} SPDMGetSignedMeasurementsResponse`,
        await post(action, { Nonce: "a5".repeat(32), SlotId: 0 }),
      );
    }
    const sys = (await get((await get(root.Systems["@odata.id"])).Members[0]["@odata.id"])).SecureBoot["@odata.id"];
    const sb = await get(sys);
    payloads.set(`${name} SecureBoot`, sb);
    const dbs = await get(sb.SecureBootDatabases["@odata.id"]);
    payloads.set(`${name} SecureBootDatabaseCollection`, dbs);
    for (const m of dbs.Members) {
      const db = await get(m["@odata.id"]);
      payloads.set(`${name} SecureBootDatabase ${db.Id}`, db);
      const certs = await get(db.Certificates["@odata.id"]);
      payloads.set(`${name} CertificateCollection ${db.Id}`, certs);
      for (const c of certs.Members) payloads.set(`${name} Certificate ${c["@odata.id"]}`, await get(c["@odata.id"]));
      if (!db.Signatures) continue;
      const sigs = await get(db.Signatures["@odata.id"]);
      payloads.set(`${name} SignatureCollection ${db.Id}`, sigs);
      for (const x of sigs.Members) payloads.set(`${name} Signature ${x["@odata.id"]}`, await get(x["@odata.id"]));
    }
  }

  beforeAll(async () => {
    ajv = loadDmtfSchemas();
    t = await startTestLab({ nodes: 6 });
    for (const n of t.lab.info.nodes) {
      await powerOutlet(t, n.name);
      const bmc = n.bmc.url;
      const get = async (p: string) => (await call(t, bmc, "GET", p)).body;
      const sys = await systemPath(t, bmc);
      await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "On" } });
      const root = await get("/redfish/v1");
      payloads.set(`${n.name} ServiceRoot`, root);
      const system = await get(sys);
      payloads.set(`${n.name} ComputerSystem`, system);
      const nics = await get(system.EthernetInterfaces["@odata.id"]);
      payloads.set(`${n.name} EthernetInterfaceCollection`, nics);
      payloads.set(`${n.name} EthernetInterface`, await get(nics.Members[0]["@odata.id"]));
      const procs = await get(system.Processors["@odata.id"]);
      payloads.set(`${n.name} ProcessorCollection`, procs);
      for (const m of procs.Members) payloads.set(`${n.name} Processor ${m["@odata.id"]}`, await get(m["@odata.id"]));
      payloads.set(`${n.name} PCIeDevice`, await get(system.PCIeDevices[0]["@odata.id"]));
      const managers = await get(root.Managers["@odata.id"]);
      const manager = await get(managers.Members[0]["@odata.id"]);
      payloads.set(`${n.name} Manager`, manager);
      const vms = await get(manager.VirtualMedia["@odata.id"]);
      payloads.set(`${n.name} VirtualMediaCollection`, vms);
      const cd = await get(vms.Members[0]["@odata.id"]);
      payloads.set(`${n.name} VirtualMedia (empty)`, cd);
      await call(t, bmc, "POST", cd.Actions["#VirtualMedia.InsertMedia"].target, {
        body: { Image: "http://127.0.0.1/boot.iso", Inserted: true },
      });
      payloads.set(`${n.name} VirtualMedia (inserted)`, await get(cd["@odata.id"]));
      const chassis = await get(root.Chassis["@odata.id"]);
      payloads.set(`${n.name} Chassis`, await get(chassis.Members[0]["@odata.id"]));
      // Expanded payloads (DSP0266 $expand): checked whole, and each resource expanded inside them on its own.
      expanded.set(`${n.name} ComputerSystem $expand=.($levels=3)`, await get(`${sys}?$expand=.($levels=3)`));
      expanded.set(`${n.name} ComputerSystem $expand=*($levels=2)`, await get(`${sys}?$expand=*($levels=2)`));
      const us = await get(root.UpdateService["@odata.id"]);
      payloads.set(`${n.name} UpdateService`, us);
      const fw = await get(us.FirmwareInventory["@odata.id"]);
      expanded.set(
        `${n.name} FirmwareInventory $expand=.`,
        await get(`${us.FirmwareInventory["@odata.id"]}?$expand=.`),
      );
      for (const m of fw.Members)
        payloads.set(`${n.name} SoftwareInventory ${m["@odata.id"]}`, await get(m["@odata.id"]));
      const upd = await call(t, bmc, "POST", us.Actions["#UpdateService.SimpleUpdate"].target, {
        body: { ImageURI: "http://127.0.0.1/bios-9.9.9.bin" },
      });
      payloads.set(`${n.name} Task (202)`, upd.body);
      payloads.set(`${n.name} Task`, await get(upd.body["@odata.id"]));
      payloads.set(`${n.name} TaskService`, await get(root.Tasks["@odata.id"]));
      payloads.set(`${n.name} SessionService`, await get(root.SessionService["@odata.id"]));
      const login = await call(t, bmc, "POST", root.Links.Sessions["@odata.id"], {
        auth: "none",
        body: { UserName: "admin", Password: t.lab.spec.credentials.password },
      });
      payloads.set(`${n.name} Session (201)`, login.body);
      payloads.set(`${n.name} Session`, await get(login.headers.location));
      await trustPayloads(
        n.name,
        get,
        async (p: string, body: unknown) => (await call(t, bmc, "POST", p, { body })).body,
      );
      expanded.set(`${n.name} SecureBoot $expand=.($levels=3)`, await get(`${sys}/SecureBoot?$expand=.($levels=3)`));
    }
    const pdu = t.lab.info.pdus[0].url;
    const get = async (p: string) => (await call(t, pdu, "GET", p)).body;
    const root = await get("/redfish/v1");
    payloads.set("PDU ServiceRoot", root);
    const pe = await get(root.PowerEquipment["@odata.id"]);
    payloads.set("PowerEquipment", pe);
    const pdus = await get(pe.RackPDUs["@odata.id"]);
    payloads.set("PowerDistributionCollection", pdus);
    const rackPdu = await get(pdus.Members[0]["@odata.id"]);
    payloads.set("PowerDistribution", rackPdu);
    const outlets = await get(rackPdu.Outlets["@odata.id"]);
    payloads.set("OutletCollection", outlets);
    payloads.set("Outlet", await get(outlets.Members[0]["@odata.id"]));
    expect((await control(t, "GET", "/world")).status).toBe(200);
  });
  afterAll(async () => t?.stop());

  it("serves every resource type the brief names", () => {
    const types = new Set(
      [...payloads.values()].map((p) => String((p as Record<string, unknown>)["@odata.type"]).split(".")[0]),
    );
    for (const want of [
      "ServiceRoot",
      "ComputerSystem",
      "EthernetInterface",
      "Processor",
      "Manager",
      "Chassis",
      "SoftwareInventory",
      "Task",
      "Session",
      "PowerDistribution",
      "Outlet",
      "ComponentIntegrity",
      "ComponentIntegrityCollection",
      "Certificate",
      "CertificateCollection",
      "SecureBoot",
      "SecureBootDatabase",
      "SecureBootDatabaseCollection",
      "Signature",
      "SignatureCollection",
    ]) {
      expect(types, `no ${want} payload collected`).toContain(`#${want}`);
    }
  });

  it("the validator has teeth: a bad enum value and an unknown property are rejected", () => {
    const system = structuredClone(payloads.get(`${t.lab.info.nodes[0].name} ComputerSystem`)) as Record<string, Json>;
    const validate = dmtfValidator(ajv, system["@odata.type"]);
    expect(validate(system)).toBe(true);
    expect(validate({ ...system, PowerState: "Sleeping" })).toBe(false);
    expect(validate({ ...system, GpuCount: 8 })).toBe(false);
  });

  it("every payload validates against the schema version its @odata.type names", () => {
    expect(schemaFailures(ajv, payloads)).toEqual([]);
  });

  it("expanded payloads validate whole, and so does every resource expanded inside them whose schema is in the fixtures", () => {
    const failures: string[] = [];
    const checked = new Set<string>();
    const visit = (label: string, v: unknown, top: boolean): void => {
      if (Array.isArray(v)) for (const x of v) visit(label, x, false);
      if (typeof v !== "object" || v === null) return;
      const o = v as Record<string, unknown>;
      const type = o["@odata.type"];
      const file = typeof type === "string" ? /^#([A-Za-z]+)\.(?:(v\d+_\d+_\d+)\.)?/.exec(type) : null;
      const present = file && schemaPresent(file[2] ? `${file[1]}.${file[2]}.json` : `${file[1]}.json`);
      if (typeof type === "string" && (top || present)) {
        const validate = dmtfValidator(ajv, type);
        checked.add(type.split(".")[0]);
        if (!validate(o)) failures.push(`${label} ${o["@odata.id"]} (${type}): ${ajv.errorsText(validate.errors)}`);
      }
      for (const x of Object.values(o)) visit(label, x, false);
    };
    for (const [label, body] of expanded) visit(label, body, true);
    expect(failures).toEqual([]);
    for (const want of ["#ComputerSystem", "#EthernetInterface", "#Processor", "#PCIeDevice", "#SoftwareInventory"])
      expect(checked, `no expanded ${want} checked`).toContain(want);
  });
});
