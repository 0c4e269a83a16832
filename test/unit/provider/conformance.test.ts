/** Conformance of discovered hardware to a flavor's baseline: every difference, measured vs expected, stable order. */
import { describe, expect, it } from "vitest";
import type { Inventory } from "../../../src/clients/redfish/index.js";
import { conformanceDifferences, formatDifferences } from "../../../src/provider/shared/conformance.js";

const gpu = (i: number, model = "NVIDIA H100 80GB HBM3") => ({
  id: `GPU${i}`,
  odataId: `/redfish/v1/Systems/1/Processors/GPU${i}`,
  model,
  serial: `S${i}`,
  source: "processor" as const,
});

function node(over: Partial<Inventory> = {}): Inventory {
  return {
    systemId: "1",
    serial: "SN1",
    macs: ["0C:42:A1:00:00:01", "0C:42:A1:00:00:02"],
    cpus: [{ id: "1" }, { id: "2" }],
    memoryGiB: 2048,
    gpus: Array.from({ length: 8 }, (_, i) => gpu(i + 1)),
    drives: [],
    firmware: [
      { id: "BMC", name: "BMC firmware", version: "01.03.16" },
      { id: "BIOS", name: "BIOS", version: "2.1" },
      { id: "HostBIOS_0", name: "Host BIOS", version: "1.6.7" },
    ],
    ...over,
  };
}

describe("conformanceDifferences", () => {
  it("GIVEN a node matching every field THEN there is no difference", () => {
    const d = conformanceDifferences(
      {
        gpuModel: "h100",
        gpuCount: 8,
        minMemoryGiB: 1024,
        cpuCount: 2,
        nicCount: 2,
        macs: ["0c-42-a1-00-00-02", "0c:42:a1:00:00:01"],
        firmware: { bios: "2.1", "BMC firmware": "01.03.16" },
      },
      node(),
    );
    expect(d).toEqual([]);
  });

  it("GIVEN an empty baseline THEN nothing is checked", () => {
    expect(conformanceDifferences({}, node({ gpus: [], macs: [] }))).toEqual([]);
  });

  it("fails with every difference listed, one line each, in schema order then firmware by component", () => {
    const inv = node({
      gpus: [...Array.from({ length: 6 }, (_, i) => gpu(i + 1)), gpu(7, "NVIDIA A100-SXM4-80GB")],
      memoryGiB: 512,
      cpus: [{ id: "1" }],
      macs: ["0C:42:A1:00:00:01", "0C:42:A1:00:00:09"],
    });
    const text = formatDifferences(
      conformanceDifferences(
        {
          firmware: { "Zeta FW": "1", BIOS: "2.3.1", BMC: "01.03.16" },
          macs: ["0C:42:A1:00:00:01", "0C:42:A1:00:00:02"],
          nicCount: 2,
          cpuCount: 2,
          minMemoryGiB: 1024,
          gpuCount: 8,
          gpuModel: "H100",
        },
        inv,
      ),
    );
    expect(text.split("\n")).toEqual([
      'gpu_model: found "NVIDIA A100-SXM4-80GB" on 1 of 7 GPUs (GPU7), expected a model containing "H100"',
      "gpu_count: found 7, expected 8",
      "min_memory_gib: found 512, expected at least 1024",
      "cpu_count: found 1, expected 2",
      "macs: found no 0C:42:A1:00:00:02, expected present",
      "macs: found 0C:42:A1:00:00:09, expected not present",
      'firmware["BIOS"]: found 2.1, expected 2.3.1',
      'firmware["Zeta FW"]: found no such component (the BMC lists: BMC (BMC firmware), BIOS, HostBIOS_0 (Host BIOS)), expected 1',
    ]);
  });

  it("gives the same order for the same input, whatever order the baseline keys were written in", () => {
    const a = conformanceDifferences({ firmware: { b: "1", a: "1", c: "1" } }, node());
    const b = conformanceDifferences({ firmware: { c: "1", a: "1", b: "1" } }, node());
    expect(a.map((x) => x.field)).toEqual(['firmware["a"]', 'firmware["b"]', 'firmware["c"]']);
    expect(b).toEqual(a);
  });

  it("fails on memory the BMC does not report, and on GPUs when the node has none", () => {
    const lines = formatDifferences(
      conformanceDifferences(
        { gpuModel: "H100", gpuCount: 8, minMemoryGiB: 1 },
        node({ gpus: [], memoryGiB: undefined }),
      ),
    ).split("\n");
    expect(lines).toEqual([
      'gpu_model: found no GPU, expected a model containing "H100"',
      "gpu_count: found 0, expected 8",
      "min_memory_gib: found unknown, expected at least 1",
    ]);
  });

  it("matches a firmware component by Id before Name", () => {
    const inv = node({
      firmware: [
        { id: "BIOS", name: "Backup", version: "9" },
        { id: "X", name: "BIOS", version: "1" },
      ],
    });
    expect(conformanceDifferences({ firmware: { BIOS: "9" } }, inv)).toEqual([]);
  });

  it("GIVEN a flavor with one DPU per node WHEN the host lists none THEN dpu_count is the difference", () => {
    expect(formatDifferences(conformanceDifferences({ dpuCount: 1 }, node({ dpuCount: 0 })))).toBe(
      "dpu_count: found 0, expected 1",
    );
    expect(conformanceDifferences({ dpuCount: 1 }, node({ dpuCount: 1 }))).toEqual([]);
  });
});
