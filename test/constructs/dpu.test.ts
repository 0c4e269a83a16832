/**
 * DPUs in the constructs: a Flavor declaring BlueField-3 DPUs makes the Rack add one rackform_dpu per DPU to each
 * node's chain (after the BMC, before the machine) and require them in the BMC's conformance; a flavor without DPUs
 * synthesizes exactly as before; bad declarations fail at synth naming the property.
 */
import { Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import {
  Flavor,
  type FlavorProps,
  Rack,
  RackformStack,
  RackformValidationError,
  type RackNode,
} from "../../constructs/lib/index.js";
import { nodes, rackProps, ref, resources, type SynthJson, shared, synthJson } from "./support.js";

const BFB = {
  version: "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod",
  url: "http://images.lab/doca-2.9.1.bfb",
  sha256: "b".repeat(64),
};
const GPUS = { model: "H100", count: 8 };

/** The lab's DPU BMC addresses: 127.(12+k).<rack>.<n>. */
const withDpus = (list: RackNode[], per = 1): RackNode[] =>
  list.map((n, j) => ({ ...n, dpus: Array.from({ length: per }, (_, k) => `127.${12 + k}.1.${j + 1}`) }));

function synth(flavorProps: Partial<FlavorProps> | undefined, rackNodes: RackNode[] = nodes("r1")): SynthJson {
  const stack = new RackformStack(Testing.app(), "r1");
  const s = shared(stack);
  const flavor = flavorProps ? new Flavor(stack, "hgx-bf3", { gpus: GPUS, ...flavorProps }) : s.flavor;
  new Rack(stack, "r1", rackProps({ ...s, flavor }, "r1", { nodes: rackNodes }));
  return synthJson(stack);
}

/** The problems a construct's RackformValidationError lists, as "path: problem — fix". */
function problems(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof RackformValidationError) return e.problems.map((p) => `${p.path}: ${p.problem} — ${p.fix}`);
    throw e;
  }
  throw new Error("no RackformValidationError");
}

describe("a Flavor with DPUs in a Rack", () => {
  it("adds one rackform_dpu per node after its BMC, and the machine waits for it", () => {
    // GIVEN one BlueField-3 per node, default mode and rshim / WHEN the rack synthesizes
    const json = synth({ dpus: { count: 1, bfb: BFB } }, withDpus(nodes("r1")));
    // THEN each node has <node>_dpu0, converging DpuMode and the pinned BFB through the DPU's BMC
    const dpus = resources(json, "rackform_dpu");
    expect(Object.keys(dpus).sort()).toEqual(nodes("r1").map((n) => `${n.name.replaceAll("-", "_")}_dpu0`));
    expect(dpus.r1_n03_dpu0).toEqual({
      endpoint: "https://127.12.1.3",
      host_endpoint: ref("rackform_bmc.r1_n03_bmc.endpoint"),
      mode: "DpuMode",
      bfb: BFB,
      rshim: "bmc",
      depends_on: ["rackform_bmc.r1_n03_bmc"],
    });
    // AND the host is enrolled only after its DPU, and its BMC must report one DPU
    expect(resources(json, "rackform_machine").r1_n03_machine.depends_on).toEqual(["rackform_dpu.r1_n03_dpu0"]);
    expect(resources(json, "rackform_bmc").r1_n03_bmc.expected).toEqual({
      gpu_model: "H100",
      gpu_count: 8,
      dpu_count: 1,
    });
    // AND no credential is written: the DPU BMCs use the provider's Redfish account
    expect(JSON.stringify(dpus)).not.toContain("password");
  });

  it("gives each of two DPUs its own resource with the flavor's mode and rshim policy", () => {
    const json = synth({ dpus: { count: 2, mode: "NicMode", rshim: "host", bfb: BFB } }, withDpus(nodes("r1"), 2));
    const dpus = resources(json, "rackform_dpu");
    expect(Object.keys(dpus)).toHaveLength(16);
    expect(dpus.r1_n01_dpu1).toMatchObject({ endpoint: "https://127.13.1.1", mode: "NicMode", rshim: "host" });
    expect(resources(json, "rackform_machine").r1_n01_machine.depends_on).toEqual([
      "rackform_dpu.r1_n01_dpu0",
      "rackform_dpu.r1_n01_dpu1",
    ]);
  });

  it("leaves a rack without DPUs exactly as it was", () => {
    // GIVEN the same rack and flavor props, one without the dpus prop / WHEN both synthesize
    const plain = synth({ minMemoryGiB: 1024 });
    const reference = synth(undefined);
    // THEN the output is the flavor's usual one: no rackform_dpu, no depends_on on machines, no dpu_count
    expect(plain).toEqual(reference);
    expect(resources(plain, "rackform_dpu")).toEqual({});
    expect(resources(plain, "rackform_machine").r1_n01_machine.depends_on).toBeUndefined();
  });
});

describe("bad DPU declarations fail at synth naming the property", () => {
  const flavorProblems = (dpus: unknown) =>
    problems(() => new Flavor(new RackformStack(Testing.app(), "s"), "f", { gpus: GPUS, dpus } as FlavorProps));

  it.each([
    [{ count: 0, bfb: BFB }, "s/f/dpus.count: 0 is not a whole number of DPUs in 1..4"],
    [{ count: 1, bfb: BFB, mode: "SmartNic" }, 's/f/dpus.mode: "SmartNic" is not a mode of operation'],
    [{ count: 1, bfb: BFB, rshim: "none" }, 's/f/dpus.rshim: "none" is not an rshim policy'],
    [{ count: 1 }, "s/f/dpus.bfb: is missing — pin the BFB"],
    [{ count: 1, bfb: { ...BFB, sha256: "abc" } }, 's/f/dpus.bfb.sha256: "abc" is not a sha256 digest'],
    [{ count: 1, bfb: { ...BFB, url: "ftp://x/y.bfb" } }, 's/f/dpus.bfb.url: "ftp://x/y.bfb" is not an http(s) URL'],
    [{ count: 1, bfb: { ...BFB, version: "DOCA 2.9" } }, 's/f/dpus.bfb.version: "DOCA 2.9" is not a DPU_OS version'],
    [{ count: 1, bfb: BFB, firmware: "x" }, 's/f/dpus: has no property "firmware"'],
  ])("%j", (dpus, message) => {
    expect(flavorProblems(dpus).join("\n")).toContain(message);
  });

  const rackProblems = (list: RackNode[], withFlavorDpus = true) =>
    problems(() => synth(withFlavorDpus ? { dpus: { count: 1, bfb: BFB } } : {}, list));

  it("a node without its DPU's address when the flavor has one", () => {
    const list = withDpus(nodes("r1"));
    list[2] = { ...list[2], dpus: undefined };
    expect(rackProblems(list)).toEqual([
      "r1/r1/nodes[2].dpus: is missing: flavor \"hgx-bf3\" has 1 DPU(s) per node — list the address of each DPU's BMC, 1 in all (the lab file's nodes[].dpus[].url)",
    ]);
  });

  it("DPU addresses on a node whose flavor declares none", () => {
    expect(rackProblems(withDpus(nodes("r1")), false)[0]).toBe(
      "r1/r1/nodes[0].dpus: lists 1 DPU BMC address(es), but flavor \"hgx-bf3\" declares no DPUs — declare them in the flavor's dpus ({ count, bfb }), or leave the node's dpus out",
    );
  });

  it("a DPU address that is another node's BMC, and a bad address", () => {
    const list = withDpus(nodes("r1"));
    list[1] = { ...list[1], dpus: ["127.10.1.1"] };
    expect(rackProblems(list)).toEqual([
      'r1/r1/nodes[1].dpus[0]: "127.10.1.1" is already the BMC of nodes[0] "r1-n01" — give each DPU the address of its own BMC',
    ]);
    list[1] = { ...list[1], dpus: ["10.0.0.300"] };
    expect(rackProblems(list).join("\n")).toContain(
      'r1/r1/nodes[1].dpus[0]: "10.0.0.300" is not an IPv4 address or URL of a DPU\'s BMC',
    );
  });
});
