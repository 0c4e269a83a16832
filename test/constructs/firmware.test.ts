/**
 * Firmware in the constructs: a Flavor with firmware images or BIOS settings makes the Rack add one rackform_firmware
 * per node (after the BMC, before the DPUs and the machine, rolling), whose `ref` the node's cluster member and gate
 * follow as `firmware_ref`; a flavor without them (versions only, or no firmware) synthesizes exactly as before; bad
 * declarations fail at construction naming the construct path, the value and the fix.
 */
import { TerraformVariable, Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import {
  Flavor,
  type FlavorProps,
  Rack,
  RackformStack,
  RackformValidationError,
  type RackNode,
  SlurmCluster,
} from "../../constructs/lib/index.js";
import { nodes, rackProps, ref, resources, type SynthJson, shared, synthJson } from "./support.js";

const BIOS = { version: "2.3.1", url: "http://images.lab/bios-2.3.1.bin", sha256: "a".repeat(64) };
const GPUS = { model: "H100", count: 8 };
const BFB = {
  version: "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod",
  url: "http://images.lab/doca-2.9.1.bfb",
  sha256: "b".repeat(64),
};

interface Options {
  readonly nodes?: RackNode[];
  /** The cluster's disruption budget. */
  readonly maxUnavailable?: number;
}

function build(flavorProps: Partial<FlavorProps> | undefined, o: Options = {}) {
  const stack = new RackformStack(Testing.app(), "r1");
  const s = shared(stack);
  const flavor = flavorProps ? new Flavor(stack, "hgx", { gpus: GPUS, ...flavorProps }) : s.flavor;
  const cluster =
    o.maxUnavailable === undefined
      ? s.cluster
      : new SlurmCluster(stack, "slurm-budget", {
          url: "http://127.0.0.1:6820",
          user: "root",
          maxUnavailable: o.maxUnavailable,
        });
  const rack = new Rack(stack, "r1", rackProps({ ...s, flavor, cluster }, "r1", { nodes: o.nodes ?? nodes("r1") }));
  return { stack, rack };
}

const synth = (flavorProps: Partial<FlavorProps> | undefined, o: Options = {}): SynthJson =>
  synthJson(build(flavorProps, o).stack);

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

describe("a Flavor with firmware images and BIOS settings in a Rack", () => {
  it("adds one rolling rackform_firmware per node after its BMC, and the machine, gate and member follow it", () => {
    // GIVEN a BIOS image, the iDRAC pinned by version only, and three BIOS settings of each value type
    const { stack, rack } = build({
      firmware: { BIOS, "iDRAC firmware": "7.10.30.00" },
      bios: { ProcVirtualization: "Enabled", SriovGlobalEnable: true, NumaNodesPerSocket: 4 },
    });
    const json = synthJson(stack);
    // THEN each node has <node>_firmware on its BMC's endpoint, converging the image and the settings as text
    const firmware = resources(json, "rackform_firmware");
    expect(Object.keys(firmware).sort()).toEqual(nodes("r1").map((n) => `${n.name.replaceAll("-", "_")}_firmware`));
    expect(firmware.r1_n03_firmware).toEqual({
      endpoint: ref("rackform_bmc.r1_n03_bmc.endpoint"),
      components: { BIOS },
      bios: { ProcVirtualization: "Enabled", SriovGlobalEnable: "true", NumaNodesPerSocket: "4" },
      rolling: true,
    });
    // AND the BMC checks only the version given as text (it is read before the BIOS image is flashed)
    expect(resources(json, "rackform_bmc").r1_n03_bmc.expected).toEqual({
      gpu_model: "H100",
      gpu_count: 8,
      firmware: { "iDRAC firmware": "7.10.30.00" },
    });
    // AND the machine is enrolled on the baseline; the member and the gate follow the baseline's ref
    expect(resources(json, "rackform_machine").r1_n03_machine.depends_on).toEqual([
      "rackform_firmware.r1_n03_firmware",
    ]);
    const firmwareRef = ref("rackform_firmware.r1_n03_firmware.ref");
    expect(resources(json, "rackform_cluster_member").r1_n03_member.firmware_ref).toBe(firmwareRef);
    expect(resources(json, "rackform_acceptance").r1_n03_acceptance.firmware_ref).toBe(firmwareRef);
    expect(rack.chainOf("r1-n03").firmware?.node.id).toBe("r1_n03_firmware");
  });

  it("changes nothing else in the chain", () => {
    // GIVEN the same rack with and without BIOS settings / WHEN both synthesize
    const plain = synth({ minMemoryGiB: 1024 });
    const withBios = synth({ minMemoryGiB: 1024, bios: { ProcVirtualization: "Enabled" } });
    // THEN removing the firmware resource, the machine's depends_on and the two firmware_refs gives the plain rack
    const strip = (json: SynthJson) => {
      const out = structuredClone(json.resource ?? {});
      delete out.rackform_firmware;
      for (const type of ["rackform_machine", "rackform_acceptance", "rackform_cluster_member"]) {
        for (const r of Object.values(out[type])) {
          delete r.depends_on;
          delete r.firmware_ref;
        }
      }
      return out;
    };
    expect(strip(withBios)).toEqual(plain.resource);
    // AND a BIOS-only baseline has no components
    expect(resources(withBios, "rackform_firmware").r1_n01_firmware).toEqual({
      endpoint: ref("rackform_bmc.r1_n01_bmc.endpoint"),
      bios: { ProcVirtualization: "Enabled" },
      rolling: true,
    });
  });

  it("keeps the image_ref of a rolling rack beside the firmware_ref", () => {
    const json = synth({ firmware: { BIOS } }, { maxUnavailable: 2 });
    expect(resources(json, "rackform_firmware").r1_n01_firmware).toEqual({
      endpoint: ref("rackform_bmc.r1_n01_bmc.endpoint"),
      components: { BIOS },
      rolling: true,
    });
    for (const type of ["rackform_acceptance", "rackform_cluster_member"]) {
      expect(resources(json, type)[`r1_n01_${type === "rackform_acceptance" ? "acceptance" : "member"}`]).toMatchObject(
        {
          image_ref: ref("rackform_deployment.r1_n01_deployment.image_ref"),
          firmware_ref: ref("rackform_firmware.r1_n01_firmware.ref"),
        },
      );
    }
  });

  it("puts the DPUs after the firmware, and the machine keeps both dependencies", () => {
    const list = nodes("r1").map((n, j) => ({ ...n, dpus: [`127.12.1.${j + 1}`] }));
    const json = synth({ firmware: { BIOS }, dpus: { count: 1, bfb: BFB } }, { nodes: list });
    expect(resources(json, "rackform_dpu").r1_n02_dpu0.depends_on).toEqual([
      "rackform_bmc.r1_n02_bmc",
      "rackform_firmware.r1_n02_firmware",
    ]);
    expect(resources(json, "rackform_machine").r1_n02_machine.depends_on).toEqual([
      "rackform_firmware.r1_n02_firmware",
      "rackform_dpu.r1_n02_dpu0",
    ]);
  });

  it("writes a number token of a BIOS setting as its reference", () => {
    const stack = new RackformStack(Testing.app(), "r1");
    const s = shared(stack);
    const cores = new TerraformVariable(stack, "cores", { type: "number" });
    const flavor = new Flavor(stack, "hgx", { gpus: GPUS, bios: { CoresPerSocket: cores.numberValue } });
    new Rack(stack, "r1", rackProps({ ...s, flavor }));
    const bios = resources(synthJson(stack), "rackform_firmware").r1_n01_firmware.bios;
    expect(bios).toEqual({ CoresPerSocket: ref("var.cores") });
  });
});

describe("a Flavor without firmware images or BIOS settings", () => {
  it("synthesizes exactly as before: versions only are the BMC's check, and nothing follows a baseline", () => {
    const versions = synth({ minMemoryGiB: 1024, firmware: { BIOS: "2.3.1" } });
    expect(resources(versions, "rackform_firmware")).toEqual({});
    expect(resources(versions, "rackform_bmc").r1_n01_bmc.expected).toMatchObject({ firmware: { BIOS: "2.3.1" } });
    expect(resources(versions, "rackform_machine").r1_n01_machine.depends_on).toBeUndefined();
    expect(resources(versions, "rackform_cluster_member").r1_n01_member.firmware_ref).toBeUndefined();
    expect(resources(versions, "rackform_acceptance").r1_n01_acceptance.firmware_ref).toBeUndefined();
    // AND a flavor with neither prop is the shared fixture's output, attribute for attribute
    expect(synth({ minMemoryGiB: 1024 })).toEqual(synth(undefined));
    expect(build(undefined).rack.chainOf("r1-n01").firmware).toBeUndefined();
  });
});

describe("bad firmware and BIOS declarations fail at construction naming the property", () => {
  const flavorProblems = (props: Partial<FlavorProps>) =>
    problems(() => new Flavor(new RackformStack(Testing.app(), "s"), "f", { gpus: GPUS, ...props } as FlavorProps));

  it.each([
    [{ firmware: {} }, "s/f/firmware: {} is not a map of at least one firmware component — name each component"],
    [{ firmware: { BIOS: "" } }, 's/f/firmware.BIOS: "" is not a firmware version — give the exact version'],
    [{ firmware: { BIOS: 5 } }, "s/f/firmware.BIOS: 5 is not a firmware version or an image { version, url, sha256 }"],
    [{ firmware: { BIOS: { ...BIOS, version: "" } } }, 's/f/firmware.BIOS.version: "" is not a firmware version'],
    [{ firmware: { BIOS: { ...BIOS, version: "2.3 1" } } }, 's/f/firmware.BIOS.version: "2.3 1" is not a firmware'],
    [{ firmware: { BIOS: { ...BIOS, url: "ftp://x/b.bin" } } }, 'firmware.BIOS.url: "ftp://x/b.bin" is not an http(s)'],
    [{ firmware: { BIOS: { ...BIOS, sha256: "abc" } } }, 's/f/firmware.BIOS.sha256: "abc" is not a sha256 digest'],
    [{ firmware: { BIOS: { version: "1", url: BIOS.url } } }, "s/f/firmware.BIOS.sha256: is missing"],
    [{ firmware: { BIOS: { ...BIOS, md5: "x" } } }, 's/f/firmware.BIOS: has no property "md5"'],
    [{ bios: {} }, "s/f/bios: {} names no BIOS setting — name each setting"],
    [{ bios: [] }, "s/f/bios: [] is not a map of BIOS settings"],
    [{ bios: { ProcVirtualization: null } }, "s/f/bios.ProcVirtualization: null is not a BIOS setting's value"],
    [{ bios: { "1Bad": "x" } }, 's/f/bios: "1Bad" is not a BIOS attribute name — use the AttributeName'],
    [{ bios: { "": "x" } }, 's/f/bios: "" is not a BIOS attribute name'],
  ])("%j", (props, message) => {
    // THEN exactly one problem, naming the construct path, the value and the fix
    const found = flavorProblems(props as Partial<FlavorProps>);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(message);
  });

  it("lists every problem at once, and the Rack is never built", () => {
    const found = flavorProblems({
      firmware: { BIOS: { ...BIOS, url: "file:///b.bin", sha256: "abc" } },
      bios: { "bad name": 1 },
    } as Partial<FlavorProps>);
    expect(found.map((p) => p.split(":")[0])).toEqual(["s/f/firmware.BIOS.url", "s/f/firmware.BIOS.sha256"]);
    // Cross-field rules run once the shapes are right (as for every construct): the name alone is then reported.
    expect(flavorProblems({ bios: { "bad name": 1 } })).toEqual([
      's/f/bios: "bad name" is not a BIOS attribute name — use the AttributeName the BIOS\'s AttributeRegistry lists, e.g. ProcVirtualization (a letter, then letters, digits, _ or .)',
    ]);
    expect(() => build({ bios: { "bad name": 1 } })).toThrow(/r1\/hgx\/bios: "bad name"/);
  });
});
