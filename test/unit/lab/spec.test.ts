/** Unit: lab spec validation, the default generator, deterministic ids and time profiles. */

import { describe, expect, it } from "vitest";
import {
  defaultSpec,
  LabSpecError,
  LabTime,
  ManualClock,
  profileByName,
  validateLabSpec,
  World,
} from "../../../src/lab/index.js";
import type { Json } from "../../integration/lab/lab-client.js";

describe("lab spec", () => {
  it("accepts the generated spec for 1, 8 and 1,000 nodes", () => {
    for (const nodes of [1, 8, 1000]) expect(validateLabSpec(defaultSpec({ nodes })).nodes).toHaveLength(nodes);
  });

  it("fails with the path of a bad field", () => {
    const spec = structuredClone(defaultSpec({ nodes: 2 })) as Json;
    spec.nodes[1].hardware.gpus.count = "eight";
    spec.nodes[0].colour = "red";
    expect(() => validateLabSpec(spec)).toThrow(LabSpecError);
    try {
      validateLabSpec(spec);
    } catch (e) {
      expect((e as LabSpecError).problems).toEqual([
        'nodes.0: unknown field "colour"',
        "nodes.1.hardware.gpus.count: must be integer",
      ]);
      expect((e as LabSpecError).code).toBe("RACKFORM_ERR_LAB_SPEC_INVALID");
    }
  });

  it("takes the lab Ironic's [conductor] deploy kernel/ramdisk defaults, and names a misspelled one", () => {
    const conductor = { deployKernel: "http://images/ipa.kernel", deployRamdisk: "http://images/ipa.initramfs" };
    expect(validateLabSpec({ ...defaultSpec({ nodes: 1 }), ironic: { conductor } }).ironic).toEqual({ conductor });
    const bad = { ...defaultSpec({ nodes: 1 }), ironic: { conductor: { deploy_kernel: "x" } } };
    expect(() => validateLabSpec(bad)).toThrow('ironic.conductor: unknown field "deploy_kernel"');
  });

  it("fails cross references: unknown PDU, outlet out of range, shared outlet", () => {
    const spec = structuredClone(defaultSpec({ nodes: 6 })) as Json;
    spec.nodes[0].pdu = "ghost";
    spec.nodes[1].outlet = 30;
    spec.nodes[4].outlet = spec.nodes[2].outlet;
    const problems = (() => {
      try {
        validateLabSpec(spec);
        return [];
      } catch (e) {
        return (e as LabSpecError).problems;
      }
    })();
    expect(problems).toContain('nodes.0.pdu: unknown PDU "ghost"');
    expect(problems).toContain('nodes.1.outlet: 30 exceeds PDU "r01-pdu-b" outlets (24)');
    expect(problems).toContain('nodes.4.outlet: outlet 2 of "r01-pdu-a" already feeds another node');
  });
});

describe("defaultSpec and the world", () => {
  it("puts 8 nodes per rack and 2 PDUs per rack, with distinct loopback addresses", () => {
    const spec = defaultSpec({ nodes: 20 });
    expect(spec.racks).toHaveLength(3);
    expect(spec.pdus).toHaveLength(6);
    const world = new World(spec, new LabTime(new ManualClock(), profileByName("instant")));
    const addresses = [...world.nodes.values()].map((n) => n.address);
    expect(new Set(addresses).size).toBe(20);
    expect(world.node("r03-n04")?.address).toBe("127.10.3.4");
  });

  it("derives the same MACs and serials from the same names, all distinct across 1,000 nodes", () => {
    const mk = () => new World(defaultSpec({ nodes: 1000 }), new LabTime(new ManualClock(), profileByName("instant")));
    const a = mk();
    const b = mk();
    const macs = [...a.nodes.values()].flatMap((n) => n.ports.map((p) => p.mac));
    expect(new Set(macs).size).toBe(macs.length);
    expect([...b.nodes.values()].flatMap((n) => n.ports.map((p) => p.mac))).toEqual(macs);
    expect(a.node("r100-n01")?.serial).toBe(b.node("r100-n01")?.serial);
    expect(new Set([...a.nodes.values()].map((n) => n.systemId)).size).toBeGreaterThan(2);
  });
});

describe("per-node firmware and BIOS overrides", () => {
  const world = (spec: unknown) => new World(spec as never, new LabTime(new ManualClock(), profileByName("instant")));
  /** Node 1 of defaultSpec is a Dell, node 2 a Supermicro (AMI names). */
  const overridden = () =>
    defaultSpec({
      nodes: 3,
      nodeOverrides: (_i, n) =>
        n.vendor === "dell" ? { firmware: { bios: "2.2.9" }, bios: { SriovGlobalEnable: "Enabled" } } : undefined,
    });

  it("defaultSpec's nodeOverrides sets one node's firmware versions and BIOS values; the world starts with them", () => {
    const spec = validateLabSpec(overridden());
    expect(spec.nodes[1].hardware).toMatchObject({ firmware: { bios: "2.2.9", bmc: "7.10.30.00" } });
    expect(spec.nodes[1].hardware.bios).toEqual({ SriovGlobalEnable: "Enabled" });
    expect(spec.nodes[0].hardware.bios).toBeUndefined();
    const dell = world(spec).node(spec.nodes[1].name);
    expect(dell?.firmware.bios).toBe("2.2.9");
    expect(dell?.bios.current).toMatchObject({ SriovGlobalEnable: "Enabled", SysProfile: "PerfPerWattOptimizedDapc" });
    expect(world(spec).node(spec.nodes[2].name)?.bios.current.Iommu).toBe("Auto");
  });

  it("refuses an override the node's vendor registry lacks or cannot hold, naming node and attribute", () => {
    const spec = structuredClone(overridden()) as Json;
    spec.nodes[2].hardware.bios = { SriovGlobalEnable: "Enabled", Iommu: "Sometimes" }; // a Dell name on an AMI BIOS
    spec.nodes[0].hardware.bios = { Iommu: ["Enabled"] };
    const problems = (() => {
      try {
        validateLabSpec(spec);
        return [];
      } catch (e) {
        return (e as LabSpecError).problems;
      }
    })();
    expect(problems).toEqual(["nodes.0.hardware.bios.Iommu: must be string,number,boolean"]);
    delete spec.nodes[0].hardware.bios;
    expect(() => validateLabSpec(spec)).toThrow(LabSpecError);
    try {
      validateLabSpec(spec);
    } catch (e) {
      expect((e as LabSpecError).problems).toEqual([
        expect.stringMatching(/^nodes\.2\.hardware\.bios\.SriovGlobalEnable: node "r01-n03": unknown BIOS attribute/),
        'nodes.2.hardware.bios.Iommu: node "r01-n03": "Sometimes" is not a valid Enumeration for "Iommu" (Enabled, Disabled, Auto)',
      ]);
    }
    expect(() => world(spec)).toThrow('node "r01-n03" hardware.bios: unknown BIOS attribute "SriovGlobalEnable"');
  });
});

describe("time", () => {
  it("scales profile durations by the speed factor and rejects unknown profiles", () => {
    const t = new LabTime(new ManualClock(), profileByName("demo"), 4);
    expect(t.duration("bmcBootMs")).toBe(125);
    expect(() => profileByName("warp")).toThrow(/instant, demo, realistic/);
    expect(() => new LabTime(new ManualClock(), profileByName("demo"), 0)).toThrow(/speed/);
  });

  it("a manual clock wakes sleepers when advanced past their deadline", async () => {
    const c = new ManualClock();
    let woke = false;
    const p = c.sleep(100).then(() => (woke = true));
    c.advance(99);
    await Promise.resolve();
    expect(woke).toBe(false);
    c.advance(1);
    await p;
    expect(woke).toBe(true);
  });
});
