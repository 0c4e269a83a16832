/**
 * Fleet synth: one stack per rack with its own provider, variables and state; waves (and the canary) ordered by stack
 * dependencies, which `cdktf deploy '*'` follows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type App, Testing } from "cdktf";
import { afterEach, describe, expect, it } from "vitest";
import { Fleet, type FleetProps, IronicBackend } from "../../constructs/lib/index.js";
import { nodes, pdus, REDFISH, resources, shared, synthJson, written } from "./support.js";

const RACKS = ["r1", "r2", "r3", "r4"];

function fleet(props: Partial<FleetProps> = {}, app: App = Testing.app()) {
  const s = shared(app);
  const racks = RACKS.map((name) => ({ name, pdus: pdus(name), nodes: nodes(name, 4) }));
  return new Fleet(app, "fleet", { racks, ...s, redfish: REDFISH, ...props });
}

/** Each stack's dependencies by stack id. */
const dependencies = (f: Fleet) =>
  Object.fromEntries([...f.stacks.values()].map((s) => [s.node.id, s.dependencies.map((d) => d.node.id).sort()]));

describe("Fleet", () => {
  const envBefore = process.env.RACKFORM_PG_CONN_STR;
  afterEach(() => {
    if (envBefore === undefined) delete process.env.RACKFORM_PG_CONN_STR;
    else process.env.RACKFORM_PG_CONN_STR = envBefore;
  });

  it("puts every rack in its own stack, with its own provider, variables and chain", () => {
    const f = fleet();
    expect([...f.stacks.values()].map((s) => s.node.id)).toEqual(["fleet-r1", "fleet-r2", "fleet-r3", "fleet-r4"]);
    for (const name of RACKS) {
      const json = synthJson(f.stackOf(name));
      expect(json.provider?.rackform).toHaveLength(1);
      expect(Object.keys(json.variable ?? {}).sort()).toEqual(["maas_api_key", "redfish_password", "slurm_token"]);
      expect(Object.keys(resources(json, "rackform_cluster_member")).sort()).toEqual(
        nodes(name, 4).map((n) => `${n.name.replace("-", "_")}_member`),
      );
    }
  });

  it("applies everything in one wave when no waves are given, after the rack whose stack puts the image in place", () => {
    const f = fleet();
    expect(f.waves).toEqual([RACKS]);
    // The image's rackform_image is in fleet-r1 only; the others deploy it once r1's stack has put it in MAAS.
    expect(dependencies(f)).toEqual({
      "fleet-r1": [],
      "fleet-r2": ["fleet-r1"],
      "fleet-r3": ["fleet-r1"],
      "fleet-r4": ["fleet-r1"],
    });
    expect(Object.keys(resources(synthJson(f.stackOf("r1")), "rackform_image"))).toEqual(["ubuntu_gpu_maas_image"]);
    expect(resources(synthJson(f.stackOf("r2")), "rackform_image")).toEqual({});
  });

  it("makes every stack of a wave depend on every stack of the wave before", () => {
    const f = fleet({ waves: [["r1"], ["r2", "r3"], ["r4"]] });
    expect(dependencies(f)).toEqual({
      "fleet-r1": [],
      "fleet-r2": ["fleet-r1"],
      "fleet-r3": ["fleet-r1"],
      "fleet-r4": ["fleet-r2", "fleet-r3"],
    });
  });

  it("carves a canary wave from the front of the waves", () => {
    const f = fleet({
      waves: [
        ["r2", "r1"],
        ["r3", "r4"],
      ],
      canary: 1,
    });
    expect(f.waves).toEqual([["r2"], ["r1"], ["r3", "r4"]]);
    expect(dependencies(f)).toMatchObject({
      "fleet-r1": ["fleet-r2"],
      "fleet-r3": ["fleet-r1"],
      "fleet-r4": ["fleet-r1"],
    });
  });

  it("records the wave order in the synthesized manifest cdktf deploy reads", () => {
    const app = Testing.app();
    fleet({ canary: 2 }, app);
    app.synth();
    const manifest = JSON.parse(readFileSync(join(app.outdir, "manifest.json"), "utf8")) as {
      stacks: Record<string, { dependencies: string[] }>;
    };
    expect(manifest.stacks["fleet-r1"].dependencies).toEqual([]);
    expect(manifest.stacks["fleet-r3"].dependencies.sort()).toEqual(["fleet-r1", "fleet-r2"]);
    expect(written(app)).toContain("cdk.tf.json");
  });

  it("keeps each stack's state in its own PostgreSQL schema", () => {
    const f = fleet({ stateBackend: { kind: "pg", connStr: "postgres://rackform@127.0.0.1:5432/tf?sslmode=disable" } });
    const backends = RACKS.map((r) => synthJson(f.stackOf(r)).terraform?.backend);
    expect(backends[0]).toEqual({
      pg: { conn_str: "postgres://rackform@127.0.0.1:5432/tf?sslmode=disable", schema_name: "rackform_fleet_r1" },
    });
    expect(new Set(backends.map((b) => b?.pg.schema_name)).size).toBe(RACKS.length);
  });

  it("reads the pg connection string from RACKFORM_PG_CONN_STR when props leave it out", () => {
    process.env.RACKFORM_PG_CONN_STR = "postgres://ci@db.lab/tf";
    const f = fleet({ stateBackend: { kind: "pg" } });
    expect(synthJson(f.stackOf("r4")).terraform?.backend?.pg).toEqual({
      conn_str: "postgres://ci@db.lab/tf",
      schema_name: "rackform_fleet_r4",
    });
  });

  it("writes local state to one file per stack in the given directory", () => {
    const f = fleet({ stateBackend: { kind: "local", dir: "/var/lib/rackform/" } });
    expect(synthJson(f.stackOf("r2")).terraform?.backend).toEqual({
      local: { path: "/var/lib/rackform/terraform.fleet-r2.tfstate" },
    });
  });

  it("lets one rack use its own backend", () => {
    const app = Testing.app();
    const s = shared(app);
    const ironic = new IronicBackend(app, "ironic", {
      url: "http://127.0.0.1:6385",
      deployKernel: "http://images.lab/ipa.kernel",
      deployRamdisk: "http://images.lab/ipa.initramfs",
    });
    const f = new Fleet(app, "fleet", {
      racks: [
        { name: "r1", pdus: pdus("r1"), nodes: nodes("r1", 2) },
        { name: "r2", pdus: pdus("r2"), nodes: nodes("r2", 2), backend: ironic },
      ],
      ...s,
      redfish: REDFISH,
    });
    expect(synthJson(f.stackOf("r1")).provider?.rackform[0].maas).toBeDefined();
    const r2 = synthJson(f.stackOf("r2"));
    expect(r2.provider?.rackform[0].ironic).toEqual({
      url: "http://127.0.0.1:6385",
      deploy_kernel: "http://images.lab/ipa.kernel",
      deploy_ramdisk: "http://images.lab/ipa.initramfs",
    });
  });
});
