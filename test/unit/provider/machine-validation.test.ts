/**
 * rackform_machine's config checks through the provider server: every problem is a diagnostic with an attribute path,
 * reported at validate/plan time before any backend is called (a counting server stands in for MAAS and Ironic).
 */
import { createServer as httpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAAS_STATUS_LABELS } from "../../../src/clients/maas/index.js";
import { type Diagnostic, formatPath, nullObject, type Value } from "../../../src/framework/index.js";
import { IRONIC_STATE_TABLE, MAAS_STATE_TABLE } from "../../../src/provider/backends/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { machineSchema } from "../../../src/provider/resources/machine-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";

const T = "rackform_machine";
const API_KEY = "consumerKEY1:tokenKEY2:tokenSECRETvalue3";
let counter: Server;
let hits = 0;
let srv: ProviderServer;

const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);
const machine = (set: Record<string, Value>) =>
  configOf(machineSchema, {
    name: "r01-n01",
    backend: "maas",
    bmc_endpoint: "https://127.0.0.1:8443",
    macs: ["3c:ec:ef:00:00:01"],
    ...set,
  });

async function validateAndPlan(config: ReturnType<typeof machine>) {
  const v = await srv.validateResourceConfig({ typeName: T, config });
  const p = await srv.planResourceChange({
    typeName: T,
    priorState: null,
    proposedNewState: proposedNew(machineSchema, config, null),
    config,
    priorPrivate: new Uint8Array(0),
  });
  return { validate: v.diagnostics, plan: p.diagnostics };
}

function provider(set: Record<string, Value>) {
  return configOf(providerSchema, {
    redfish: { ...nullObject(providerSchema.blocks!.redfish.block), username: "admin", password: "bmc-secret" },
    ...set,
  });
}

beforeAll(async () => {
  counter = httpServer((_req, res) => {
    hits++;
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  srv = createServer(rackformProvider());
  const r = await srv.configureProvider({
    terraformVersion: "1.11.4",
    config: provider({
      maas: { url: `${url}/MAAS/`, api_key: API_KEY },
      ironic: { url, username: null, password: null, token: null, deploy_kernel: null, deploy_ramdisk: null },
    }),
  });
  expect(r.diagnostics).toEqual([]);
});
afterAll(async () => {
  await new Promise((r) => counter.close(r));
});

describe("rackform_machine validation", () => {
  it("fails an unknown backend at validation (plan time), naming the choices", async () => {
    const r = await validateAndPlan(machine({ backend: "xcat" }));
    expect(lines(r.validate)).toEqual(["error Invalid attribute value @ backend"]);
    expect(r.validate[0].detail).toContain('"maas", "ironic"');
  });

  it("fails a malformed MAC with the path of the element", async () => {
    const r = await validateAndPlan(machine({ macs: ["3c:ec:ef:00:00:01", "3c:ec:ef:00:00"] }));
    expect(lines(r.validate)).toEqual(["error Invalid MAC address @ macs[1]"]);
    expect(r.validate[0].detail).toContain('"3c:ec:ef:00:00"');
  });

  it("fails a MAC listed twice, however it is written", async () => {
    const r = await validateAndPlan(
      machine({ macs: ["3c:ec:ef:00:00:01", "3c:ec:ef:00:00:02", "3C-EC-EF-00-00-01"], backend: "ironic" }),
    );
    expect(lines(r.validate)).toEqual(["error Duplicate MAC address @ macs[2]"]);
    expect(r.validate[0].detail).toContain("index 0");
  });

  it("fails a MAAS machine without any MAC, but accepts an Ironic one", async () => {
    expect(lines((await validateAndPlan(machine({ macs: null }))).validate)).toEqual([
      "error MAAS needs a MAC address @ macs",
    ]);
    expect((await validateAndPlan(machine({ macs: null, backend: "ironic" }))).validate).toEqual([]);
  });

  it("fails a name that is not a DNS label and a BMC endpoint with credentials", async () => {
    const r = await validateAndPlan(machine({ name: "R01_N01", bmc_endpoint: "https://root:pw@10.0.0.5" }));
    expect(lines(r.validate).sort()).toEqual([
      "error Invalid Redfish endpoint @ bmc_endpoint",
      "error Invalid attribute value @ name",
    ]);
    expect(JSON.stringify(r.validate)).not.toContain(":pw@");
  });

  it("warns that resource_class means nothing to MAAS", async () => {
    const r = await validateAndPlan(machine({ resource_class: "gpu" }));
    expect(lines(r.validate)).toEqual(["warning resource_class is ignored by MAAS @ resource_class"]);
  });

  it("plans a valid machine with the default architecture and unknown computed attributes", async () => {
    const config = machine({});
    const p = await srv.planResourceChange({
      typeName: T,
      priorState: null,
      proposedNewState: proposedNew(machineSchema, config, null),
      config,
      priorPrivate: new Uint8Array(0),
    });
    expect(p.diagnostics).toEqual([]);
    expect((p.plannedState as Record<string, Value>).architecture).toBe("amd64/generic");
  });

  it("called no backend while validating and planning", () => {
    expect(hits).toBe(0);
  });
});

describe("rackform_machine import ids", () => {
  it("accepts maas:<system_id> and ironic:<uuid>", async () => {
    const r = await srv.importResourceState({ typeName: T, id: "maas:4y3h7n" });
    expect(r.diagnostics).toEqual([]);
    expect(r.imported[0].state).toMatchObject({ id: "maas:4y3h7n", backend: "maas", machine_id: "4y3h7n" });
  });

  it("fails an id without a known backend prefix, showing the expected form", async () => {
    const r = await srv.importResourceState({ typeName: T, id: "4y3h7n" });
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Invalid import id for rackform_machine"]);
    expect(r.diagnostics[0].detail).toContain("maas:4y3h7n");
  });
});

describe("provider backend blocks", () => {
  it("fails a malformed MAAS API key at maas.api_key without echoing it", async () => {
    const s = createServer(rackformProvider());
    const r = await s.configureProvider({
      terraformVersion: "1.11.4",
      config: provider({ maas: { url: "http://127.0.0.1:1/MAAS/", api_key: "only-one-part-SECRET" } }),
    });
    expect(lines(r.diagnostics)).toEqual(["error Invalid MAAS API key @ maas.api_key"]);
    expect(JSON.stringify(r.diagnostics)).not.toContain("SECRET");
  });

  it("marks the MAAS API key and the Ironic password and token sensitive", () => {
    const attrs = (b: string) => providerSchema.blocks![b].block.attributes;
    expect(attrs("maas").api_key.sensitive).toBe(true);
    expect(attrs("ironic").password.sensitive).toBe(true);
    expect(attrs("ironic").token.sensitive).toBe(true);
  });
});

describe("state normalization tables", () => {
  it("maps every MAAS status, and every MAAS failure status to failed", () => {
    for (const [id, label] of Object.entries(MAAS_STATUS_LABELS)) {
      const state = MAAS_STATE_TABLE[Number(id)];
      expect(state, label).toBeDefined();
      if (/fail/i.test(label)) expect(state, label).toBe("failed");
    }
    expect(MAAS_STATE_TABLE[4]).toBe("ready");
  });

  it("maps Ironic's stable states and every failed state", () => {
    expect(IRONIC_STATE_TABLE.available).toBe("ready");
    expect(IRONIC_STATE_TABLE.active).toBe("deployed");
    for (const s of ["inspect failed", "clean failed", "deploy failed", "error", "adopt failed", "service failed"]) {
      expect(IRONIC_STATE_TABLE[s], s).toBe("failed");
    }
  });
});
