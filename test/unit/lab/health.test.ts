/** Unit: health faults — their specs, their effect on the world, their log entries, their cures, the message table. */
import { describe, expect, it } from "vitest";
import { measureAcceptance } from "../../../src/lab/acceptance/signals.js";
import { defaultSpec, LabTime, ManualClock, profileByName, World } from "../../../src/lab/index.js";
import { FaultSpecError, parseFaultSpec } from "../../../src/lab/world/faults.js";
import { cureOf, HEALTH_FAULT_KINDS, unhealthyGpus } from "../../../src/lab/world/health-faults.js";
import { FAMILY_OF, formatMessage, HEALTH_MESSAGES } from "../../../src/lab/world/health-messages.js";
import type { LabNode } from "../../../src/lab/world/model.js";
import type { VendorStyle } from "../../../src/lab/world/spec.js";

function lab() {
  const world = new World(defaultSpec({ nodes: 6 }), new LabTime(new ManualClock(), profileByName("instant")));
  const known = { nodes: new Set(world.nodes.keys()), pdus: new Set(world.pdus.keys()) };
  const of = (v: VendorStyle) => [...world.nodes.values()].find((n) => n.spec.vendor === v) as LabNode;
  const inject = (spec: Record<string, unknown>) => world.faults.add(parseFaultSpec(spec, known));
  return { world, known, of, inject };
}

describe("health fault specs", () => {
  const { known, of } = lab();
  const node = of("dell").spec.name;
  const bad = (spec: Record<string, unknown>) => () => parseFaultSpec(spec, known);

  it("refuses specs with a message naming the field", () => {
    expect(bad({ kind: "gpu-xid", node })).toThrow(/^xid: required/);
    expect(bad({ kind: "gpu-xid", xid: 79 })).toThrow(/^node: required for gpu-xid/);
    expect(bad({ kind: "gpu-xid", node, xid: 1.5 })).toThrow(/^xid: must be an integer/);
    expect(bad({ kind: "gpu-xid", node, xid: 79, gpu: 16 })).toThrow(/^gpu: must be an integer in 0..15/);
    expect(bad({ kind: "memory-ecc", node, gpu: 1 })).toThrow(/^gpu: not a field of memory-ecc/);
    expect(bad({ kind: "thermal", node, cure: "reboot" })).toThrow(/^cure: must be one of power-cycle, reimage, none/);
    expect(bad({ kind: "pcie-degraded", node, device: "" })).toThrow(/^device:/);
    expect(bad({ kind: "nvlink-down", node, count: 1 })).toThrow(/^count: not a field/);
    expect(bad({ kind: "latency", ms: 5, cure: "none" })).toThrow(/^cure: not a field of latency/);
    expect(bad({ kind: "gpu-xid", node, xid: 79 })).not.toThrow();
    try {
      bad({ kind: "gpu-xid", node })();
    } catch (e) {
      expect(e).toBeInstanceOf(FaultSpecError);
    }
  });

  it("gives each kind its realistic default cure, and a spec's own cure wins", () => {
    const c = (f: Record<string, unknown>) => cureOf({ kind: "gpu-xid", ...f });
    expect(c({ xid: 79 })).toBe("power-cycle");
    expect(c({ xid: 48 })).toBe("power-cycle");
    expect(c({ xid: 63 })).toBe("power-cycle");
    expect(c({ xid: 64 })).toBe("none");
    expect(c({ xid: 13 })).toBe("reimage");
    expect(c({ xid: 79, cure: "none" })).toBe("none");
    expect(cureOf({ kind: "memory-ecc" })).toBe("none");
    expect(cureOf({ kind: "thermal" })).toBe("none");
    expect(cureOf({ kind: "pcie-degraded" })).toBe("power-cycle");
    expect(cureOf({ kind: "nvlink-down" })).toBe("power-cycle");
  });

  it("takes an os-hang with its node and no fields of its own; a power cycle cures it unless its spec says", () => {
    expect(bad({ kind: "os-hang", node })).not.toThrow();
    expect(bad({ kind: "os-hang", node, cure: "reimage" })).not.toThrow();
    expect(bad({ kind: "os-hang", node, cure: "none" })).not.toThrow();
    expect(bad({ kind: "os-hang" })).toThrow(/^node: required for os-hang/);
    expect(bad({ kind: "os-hang", node, xid: 79 })).toThrow(/^xid: not a field of os-hang/);
    expect(bad({ kind: "os-hang", node, gpu: 0 })).toThrow(/^gpu: not a field of os-hang/);
    expect(bad({ kind: "os-hang", node, dimm: 1 })).toThrow(/^dimm: not a field of os-hang/);
    expect(bad({ kind: "os-hang", node, count: 1 })).toThrow(/^count: not a field of os-hang/);
    expect(bad({ kind: "os-hang", node, cure: "reboot" })).toThrow(/^cure: must be one of/);
    expect(cureOf({ kind: "os-hang" })).toBe("power-cycle");
    expect(cureOf({ kind: "os-hang", cure: "none" })).toBe("none");
  });
});

describe("health faults in the world", () => {
  it("XID 79 takes that GPU off the bus and logs a Critical entry worded as the vendor does", () => {
    const { world, of, inject } = lab();
    const dell = of("dell");
    inject({ kind: "gpu-xid", node: dell.spec.name, xid: 79, gpu: 2 });
    const visible = world.visibleGpus(dell);
    expect(visible).toHaveLength(dell.gpus.length - 1);
    expect(visible.map((g) => g.id)).not.toContain(dell.gpus[2].id);
    const [e] = world.logs.entries(dell.spec.name);
    expect(e).toMatchObject({ id: 1, severity: "Critical", entryType: "SEL" });
    expect(e.origin).toBe(`/redfish/v1/Systems/${dell.systemId}/Processors/${dell.gpus[2].id}`);
    expect(e.message).toContain("GPU has fallen off the bus");
  });

  it("logs an uncorrectable DIMM error as iDRAC's MEM0001 and OpenBMC's MemoryECCUncorrectable", () => {
    const { world, of, inject } = lab();
    for (const v of ["dell", "contoso"] as const) inject({ kind: "memory-ecc", node: of(v).spec.name, dimm: 3 });
    const dell = world.logs.entries(of("dell").spec.name)[0];
    expect(dell).toMatchObject({ messageId: "MEM0001", sensorType: "Memory", args: ["DIMM3"] });
    expect(dell.message).toBe("Multi-bit memory errors detected on a memory device at location(s) DIMM3.");
    const obmc = world.logs.entries(of("contoso").spec.name)[0];
    expect(obmc).toMatchObject({ messageId: "OpenBMC.0.1.MemoryECCUncorrectable", entryType: "Event" });
    expect(obmc.message).toBe("Memory ECC uncorrectable error. Socket=0 Channel=0 DIMM=DIMM3 Rank=0.");
  });

  it("logs a log-only XID as a Warning, except on HGX whose GPU sensor logs every XID as Critical", () => {
    const { world, of, inject } = lab();
    inject({ kind: "gpu-xid", node: of("supermicro").spec.name, xid: 13 });
    inject({ kind: "gpu-xid", node: of("nvidia-dgx").spec.name, xid: 13 });
    expect(world.logs.entries(of("supermicro").spec.name)[0].severity).toBe("Warning");
    const hgx = world.logs.entries(of("nvidia-dgx").spec.name)[0];
    expect(hgx.severity).toBe("Critical");
    expect(hgx.message).toBe(
      "The resource property GPU_SXM_1 Driver Event Message has detected errors of type XID 13 Graphics Engine Exception",
    );
    expect(unhealthyGpus(world.faults.list(), of("nvidia-dgx").spec.name).size).toBe(0);
  });

  it("a power-on cures power-cycle faults; the others survive and are logged again", () => {
    const { world, of, inject } = lab();
    const n = of("dell");
    world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
    inject({ kind: "gpu-xid", node: n.spec.name, xid: 79 });
    inject({ kind: "memory-ecc", node: n.spec.name });
    inject({ kind: "gpu-xid", node: n.spec.name, xid: 13 });
    const gen = n.generation;
    world.setHostPower(n, true);
    expect(world.faults.list().map((f) => f.kind + (f.xid ?? ""))).toEqual(["memory-ecc", "gpu-xid13"]);
    expect(world.visibleGpus(n)).toHaveLength(n.gpus.length);
    expect(n.generation).toBeGreaterThan(gen);
    expect(world.logs.entries(n.spec.name).map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    world.cure(n, "reimage");
    expect(world.faults.list().map((f) => f.kind)).toEqual(["memory-ecc"]);
    world.setHostPower(n, false);
    world.setHostPower(n, true);
    world.cure(n, "reimage");
    expect(world.faults.list().map((f) => f.kind)).toEqual(["memory-ecc"]);
    expect(world.faults.remove(world.faults.list()[0].id)).toBe(true);
  });

  it("ClearLog empties a log and its numbering goes on", () => {
    const { world, of, inject } = lab();
    const n = of("hpe").spec.name;
    inject({ kind: "thermal", node: n });
    world.logs.clear(n);
    expect(world.logs.entries(n)).toEqual([]);
    inject({ kind: "pcie-degraded", node: n, device: "NIC1" });
    expect(world.logs.entries(n).map((e) => e.id)).toEqual([2]);
  });
});

describe("health faults in the acceptance checks", () => {
  it("fail DCGM's matching tests and the burn-in while on the node, and pass again once cured", () => {
    const { world, of, inject } = lab();
    const n = of("dell");
    const run = () => measureAcceptance(world, n, { dcgmLevel: 2, burnInS: 60 });
    expect(run().passed).toBe(true);
    inject({ kind: "gpu-xid", node: n.spec.name, xid: 63, gpu: 2 });
    inject({ kind: "pcie-degraded", node: n.spec.name, device: 5 });
    const r = run();
    expect(r.passed).toBe(false);
    const failed = Object.fromEntries(r.dcgm.tests.filter((t) => t.result === "Fail").map((t) => [t.name, t.info]));
    expect(failed).toEqual({
      "Page Retirement/Row Remap": "GPU 2: row remapping pending",
      PCIe: "GPU 5: PCIe link width x8, expected x16",
    });
    expect(r.xid_events).toEqual([
      { xid: 63, gpu_index: 2, gpu_uuid: n.gpus[2].uuid, message: expect.stringContaining("Row Remapper") },
    ]);
    expect(r.burn_in.passed).toBe(false);
    world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
    world.setHostPower(n, true);
    expect(run().passed).toBe(true);
  });

  it("a host DIMM error fails only the burn-in; XID 79 fails GPU count and PCIe", () => {
    const { world, of, inject } = lab();
    const n = of("hpe");
    inject({ kind: "memory-ecc", node: n.spec.name });
    const r = measureAcceptance(world, n, { dcgmLevel: 2, burnInS: 60 });
    expect([r.dcgm.passed, r.burn_in.passed, r.passed]).toEqual([true, false, false]);
    inject({ kind: "gpu-xid", node: n.spec.name, xid: 79 });
    const r2 = measureAcceptance(world, n, { dcgmLevel: 1, burnInS: 60 });
    expect(r2.dcgm.tests.filter((t) => t.result === "Fail").map((t) => t.name)).toEqual(["GPU count"]);
    expect(r2.gpu_count).toBe(7);
  });
});

describe("the health message table", () => {
  it("has a row for every event of every family, each with a source and a message its arguments fill", () => {
    const events = Object.keys(HEALTH_MESSAGES.idrac);
    expect(events).toHaveLength(8);
    for (const rows of Object.values(HEALTH_MESSAGES)) {
      expect(Object.keys(rows).sort()).toEqual([...events].sort());
      for (const row of Object.values(rows)) {
        expect(row.source.length).toBeGreaterThan(10);
        const ctx = Object.fromEntries(row.args.map((k) => [k, "X"])) as never;
        expect(formatMessage(row, ctx).message).not.toMatch(/%\d/);
      }
    }
    expect(Object.keys(FAMILY_OF).sort()).toEqual(
      ["contoso", "dell", "hpe", "lenovo", "nvidia-dgx", "supermicro"].sort(),
    );
    // os-hang has no row: the BMC does not see an OS hang.
    expect(HEALTH_FAULT_KINDS).toHaveLength(6);
  });
});
