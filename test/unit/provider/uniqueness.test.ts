/**
 * Duplicates across resources (uniqueness.ts) through the provider server, called the way an engine calls it: every
 * resource instance of a walk validated once, in any order, after ConfigureProvider.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type Diagnostic, formatPath, nullObject, UNKNOWN, type Value } from "../../../src/framework/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { clusterMemberSchema } from "../../../src/provider/resources/cluster-member-schema.js";
import { machineSchema } from "../../../src/provider/resources/machine-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";

const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);

const machine = (set: Record<string, Value>) =>
  configOf(machineSchema, {
    name: "r01-n01",
    backend: "maas",
    bmc_endpoint: "https://10.0.0.1",
    macs: ["3c:ec:ef:00:00:01"],
    ...set,
  });
const member = (set: Record<string, Value>) =>
  configOf(clusterMemberSchema, { scheduler: "slurm", node: "r01-n01", ...set });

let srv: ProviderServer;

async function configure(s: ProviderServer): Promise<void> {
  const r = await s.configureProvider({
    terraformVersion: "1.11.4",
    config: configOf(providerSchema, {
      redfish: { ...nullObject(providerSchema.blocks!.redfish.block), username: "admin", password: "pw" },
    }),
  });
  expect(r.diagnostics).toEqual([]);
}

const validate = async (typeName: string, config: Value) =>
  (await srv.validateResourceConfig({ typeName, config })).diagnostics;

beforeEach(async () => {
  srv = createServer(rackformProvider({ duplicateChecks: true }));
  await configure(srv);
});

describe("duplicates across resources", () => {
  it("fails the second of two machines with one name, naming the first's values", async () => {
    expect(await validate("rackform_machine", machine({}))).toEqual([]);
    const d = await validate(
      "rackform_machine",
      machine({ bmc_endpoint: "https://10.0.0.2", macs: ["3c:ec:ef:00:00:02"] }),
    );
    expect(lines(d)).toEqual(["error Duplicate maas machine name @ name"]);
    expect(d[0].detail).toContain('name = "r01-n01" is already claimed by another rackform_machine');
    expect(d[0].detail).toContain('bmc_endpoint = "https://10.0.0.1"');
  });

  it("fails two machines sharing a MAC (however written) or a BMC, at the element's path", async () => {
    await validate("rackform_machine", machine({}));
    const d = await validate(
      "rackform_machine",
      machine({
        name: "r01-n02",
        bmc_endpoint: "https://10.0.0.1:443/",
        macs: ["3c:ec:ef:00:00:09", "3C-EC-EF-00-00-01"],
      }),
    );
    expect(lines(d).sort()).toEqual([
      "error Duplicate machine BMC endpoint @ bmc_endpoint",
      "error Duplicate machine MAC address @ macs[1]",
    ]);
  });

  it("accepts the same resource validated twice (same configuration), and one name in two backends", async () => {
    expect(await validate("rackform_machine", machine({}))).toEqual([]);
    expect(await validate("rackform_machine", machine({}))).toEqual([]);
    expect(
      await validate(
        "rackform_machine",
        machine({ backend: "ironic", bmc_endpoint: "https://10.0.0.3", macs: ["3c:ec:ef:00:00:03"] }),
      ),
    ).toEqual([]);
  });

  it("claims nothing with unknown values, so a later known value is compared afresh", async () => {
    expect(await validate("rackform_machine", machine({ bmc_endpoint: UNKNOWN, macs: UNKNOWN }))).toEqual([]);
    expect(await validate("rackform_machine", machine({ name: "r01-n02", macs: UNKNOWN }))).toEqual([]);
    expect(
      await validate(
        "rackform_machine",
        machine({ name: "r01-n03", bmc_endpoint: "https://10.0.0.3", macs: [UNKNOWN] }),
      ),
    ).toEqual([]);
  });

  it("forgets every claim when the provider is configured again (a new walk)", async () => {
    await validate("rackform_machine", machine({ bmc_endpoint: UNKNOWN }));
    await configure(srv);
    expect(await validate("rackform_machine", machine({}))).toEqual([]);
  });

  it("lets a configuration with its own error claim nothing", async () => {
    expect(lines(await validate("rackform_machine", machine({ macs: ["zz"] })))).toEqual([
      "error Invalid MAC address @ macs[0]",
    ]);
    expect(await validate("rackform_machine", machine({ bmc_endpoint: "https://10.0.0.9" }))).toEqual([]);
  });

  it("fails two cluster members for one scheduler node, but not one node in two schedulers", async () => {
    expect(await validate("rackform_cluster_member", member({ features: ["h100"] }))).toEqual([]);
    expect(lines(await validate("rackform_cluster_member", member({})))).toEqual(["error Duplicate slurm node @ node"]);
    expect(await validate("rackform_cluster_member", member({ scheduler: "kubernetes" }))).toEqual([]);
  });

  it("is off in a provider made without the option (in-process tests validate many variants of one resource)", async () => {
    srv = createServer(rackformProvider());
    await configure(srv);
    await validate("rackform_machine", machine({}));
    expect(await validate("rackform_machine", machine({ bmc_endpoint: "https://10.0.0.2" }))).toEqual([]);
  });
});
