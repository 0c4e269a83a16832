/**
 * Issue 13 through the provider: lab BMCs with vendor quirks switched on (src/lab/README.md "Quirks") — one node per
 * quirk and one node with every quirk — read by rackform_bmc and data.rackform_inventory, and the every-quirk node
 * taken through the whole rack chain on MAAS. The facts in state are compared with the lab world's model of each
 * node; dead links are warnings naming the URL; a blank serial is null; a baseline that needs what a dead link hides
 * fails with a diagnostic naming the link and the fix.
 *
 * One engine per case, the cases split between the engines (the suite's time budget; both engines run the same
 * provider binary): Terraform takes rackform_bmc, OpenTofu the data source and the rack chain. The e2e projects run
 * this file once per engine (RACKFORM_E2E_ENGINE), so each run has its own cases and its own lab.
 *
 * Quirks no resource reaches: rackform does no firmware update, so `accepted-without-location`, `update-task-fails`
 * and `vendor-message-ids` (the lab answers its vendor MessageId on a SimpleUpdate refused while a task runs) are
 * covered here only by their nodes converging with the quirk on (the client's handling is in the integration test
 * clients-vs-lab/redfish-quirks). rackform sends no Redfish reset itself either — host power goes through MAAS or
 * Ironic — so `action-info-404` and `misspelled-allowable-values` are reached only by the rack chain, whose MAAS powers
 * the every-quirk node through its Redfish Reset action. The lab's MAAS posts the ResetType without reading the
 * advertised values, as MAAS's redfish power driver does, so this shows the quirks break no reset the chain sends; the
 * client's own choice of ResetType against them is in the integration test. (Real Ironic's sushy does read them; the
 * contract test of real Ironic runs no quirky node yet.)
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec, type Lab, type LabNode, startLab } from "../../src/lab/index.js";
import { QUIRK_NAMES, type Quirk } from "../../src/lab/world/quirks.js";
import { ALL_ENGINES, ENGINES, engine, folded, Workdir } from "../support/engines.js";
import { rackStack, resourceName, shownState, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, providerBlock } from "../support/rackform-e2e.js";

/** Node index → its quirks; the last node has every quirk. */
const PLAN: readonly (readonly Quirk[])[] = [...QUIRK_NAMES.map((q) => [q]), [...QUIRK_NAMES]];
const ALL = PLAN.length - 1;

let lab: Lab;
let cliConfig: string;

beforeAll(async () => {
  const spec = structuredClone(defaultSpec({ nodes: PLAN.length })) as unknown as {
    nodes: { quirks?: readonly Quirk[]; vendor: string }[];
  };
  spec.nodes.forEach((n, i) => {
    n.quirks = PLAN[i];
    // The every-quirk node is HPE-style, whose OEM PCI links (Oem.Hpe.Links.PCIDevices) are the only place its GPUs are.
    if (i === ALL) n.vendor = "hpe";
  });
  const stateDir = await mkdtemp(join(tmpdir(), "rf-lab-"));
  lab = await startLab({ spec, profile: "instant", stateDir });
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
});

const nameOf = (i: number) => lab.info.nodes[i].name;
const nodeOf = (i: number): LabNode => lab.world.node(nameOf(i))!;
const idx = (q: Quirk) => QUIRK_NAMES.indexOf(q);
const quirky = (q: Quirk) => PLAN.flatMap((qs, i) => (qs.includes(q) ? [i] : []));
/** What the lab world says a node is: the facts the provider must report despite the quirks. */
function modelOf(i: number) {
  const n = nodeOf(i);
  const hw = n.spec.hardware;
  return {
    gpu_count: lab.world.visibleGpus(n).length,
    macs: n.ports.map((p) => p.mac.toUpperCase()),
    cpu_count: hw.cpu.sockets,
    memory_gib: hw.memory.dimms * hw.memory.dimmGiB,
    bios_version: lab.world.firmwareVersion(n, "bios"),
    bmc_firmware_version: lab.world.firmwareVersion(n, "bmc"),
    serial: PLAN[i].includes("blank-serials") ? null : n.serial,
  };
}

/** A baseline that holds every fact of the node's model (so a wrong fact fails the apply, naming it). */
function baselineOf(i: number): string {
  const m = modelOf(i);
  return `{
    gpu_model      = "H100"
    gpu_count      = ${m.gpu_count}
    cpu_count      = ${m.cpu_count}
    min_memory_gib = ${m.memory_gib}
    macs           = ${JSON.stringify(m.macs)}
    firmware       = { bios_version = ${JSON.stringify(m.bios_version)}, bmc_firmware_version = ${JSON.stringify(m.bmc_firmware_version)} }
  }`;
}

const bmcResource = (i: number, expected: string) => `resource "rackform_bmc" "${resourceName(nameOf(i))}" {
  endpoint = ${JSON.stringify(lab.info.nodes[i].bmc.url)}
  expected = ${expected}
}
`;

/** One case, tied to the engine that runs it. */
interface Case {
  readonly engine: (typeof ALL_ENGINES)[number];
  readonly name: string;
  readonly run: (name: (typeof ALL_ENGINES)[number]) => Promise<void>;
}

/** The links the `dead-member-links` quirk kills, as the warnings name them (URL and status). */
const deadLinks = (i: number) => [
  `${lab.info.nodes[i].bmc.url}/redfish/v1/Chassis/${nodeOf(i).chassisId}/PCIeDevices/Dead.1: HTTP 404`,
  `${lab.info.nodes[i].bmc.url}/redfish/v1/UpdateService/FirmwareInventory/Unreadable.1: HTTP 500`,
];

const CASES: readonly Case[] = [
  {
    engine: "terraform",
    name: "rackform_bmc converges every quirky node, with the facts the lab models, dead links warned by URL, blank serials null",
    run: async (name) => {
      for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
      const w = await Workdir.create(engine(name), cliConfig, {
        "main.tf": providerBlock(lab) + PLAN.map((_, i) => bmcResource(i, baselineOf(i))).join("\n"),
      });
      await w.ok(["init", "-no-color"]);
      const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
      expect(apply.stdout).toContain(`Apply complete! Resources: ${PLAN.length} added, 0 changed, 0 destroyed.`);
      // dead-member-links: a warning per node with the quirk, naming the resource and each dead URL with its status.
      const text = folded(apply);
      expect(text.match(/Warning: BMC inventory incomplete/g)).toHaveLength(quirky("dead-member-links").length);
      expect(text).not.toContain("similar warning");
      for (const i of quirky("dead-member-links")) {
        expect(text).toContain(`Warning: BMC inventory incomplete: ${lab.info.nodes[i].bmc.url}`);
        expect(text).toContain(`with rackform_bmc.${resourceName(nameOf(i))}`);
        for (const link of deadLinks(i)) expect(text).toContain(link);
      }
      const state = await shownState(w);
      for (const [i, quirks] of PLAN.entries()) {
        const r = state.find((s) => s.address === `rackform_bmc.${resourceName(nameOf(i))}`);
        expect(r, `${nameOf(i)} (${quirks.join(", ")})`).toBeDefined();
        expect(r!.values, `${nameOf(i)} (${quirks.join(", ")})`).toMatchObject({ ...modelOf(i), conformant: true });
        const gpus = r!.values.gpus as { model: string | null; serial: string | null }[];
        expect(gpus.every((g) => g.model?.includes("H100"))).toBe(true);
        // A GPU serial of spaces is no serial (and OEM PCI entries carry none).
        const noGpuSerial = quirks.includes("blank-serials") || quirks.includes("oem-pci-gpus");
        expect(gpus.map((g) => g.serial === null)).toEqual(gpus.map(() => noGpuSerial));
      }
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    },
  },

  {
    engine: "terraform",
    name: "a baseline needing a firmware item behind a dead link fails, naming the item, the dead URL and the fix",
    run: async (name) => {
      const i = idx("dead-member-links");
      lab.world.setOutlet(lab.info.nodes[i].pdu, lab.info.nodes[i].outlet, "On");
      const w = await Workdir.create(engine(name), cliConfig, {
        "main.tf": providerBlock(lab) + bmcResource(i, `{ firmware = { "Unreadable.1" = "1.0.0" } }`),
      });
      await w.ok(["init", "-no-color"]);
      const r = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const text = folded(r);
      expect(text).toContain("Node does not conform to its expected baseline");
      expect(text).toContain('firmware["Unreadable.1"]: found no such component');
      expect(text).toContain("The BMC did not answer for 2 linked resources, which may hide what is missing");
      for (const link of deadLinks(i)) expect(text).toContain(link);
      expect(text).toContain("a BMC firmware update often repairs dead links");
      expect(r.stderr).toContain(`rackform_bmc.${resourceName(nameOf(i))}`);
    },
  },

  {
    engine: "tofu",
    name: "data.rackform_inventory reads every quirky node right, warning of dead links by node and URL",
    run: async (name) => {
      for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
      const csv = ["name,endpoint", ...lab.info.nodes.map((n) => `${n.name},${n.bmc.url}`)].join("\n");
      const w = await Workdir.create(engine(name), cliConfig, {
        "main.tf": `${providerBlock(lab)}data "rackform_inventory" "rack" {
  csv         = file("\${path.module}/bmcs.csv")
  concurrency = 4
}
output "nodes" {
  value = data.rackform_inventory.rack.nodes
}
`,
        "bmcs.csv": csv,
      });
      await w.ok(["init", "-no-color"]);
      const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
      const text = folded(apply);
      expect(text.match(/Warning: BMC inventory incomplete/g)).toHaveLength(quirky("dead-member-links").length);
      expect(text).not.toContain("similar warning");
      for (const i of quirky("dead-member-links")) {
        expect(text).toContain(`Warning: BMC inventory incomplete: ${nameOf(i)}`);
        expect(text).toContain(`${nameOf(i)} (${lab.info.nodes[i].bmc.url})`);
        for (const link of deadLinks(i)) expect(text).toContain(link);
      }
      const rows = JSON.parse((await w.ok(["output", "-json", "nodes"])).stdout) as Record<string, unknown>[];
      expect(rows.map((r) => r.name)).toEqual(lab.info.nodes.map((n) => n.name));
      for (const [i, quirks] of PLAN.entries()) {
        const row = rows[i];
        expect(row, `${nameOf(i)} (${quirks.join(", ")})`).toMatchObject({
          ...modelOf(i),
          reachable: true,
          error: null,
        });
        expect(row.gpu_model).toContain("H100");
        expect(Object.values(row.firmware as Record<string, string>)).toContain(modelOf(i).bios_version);
      }
    },
  },

  {
    engine: "tofu",
    name: "the every-quirk node goes through the whole rack chain on MAAS, which powers it through its quirky Reset action",
    run: async (name) => {
      const node = nameOf(ALL);
      lab.world.setOutlet(lab.info.nodes[ALL].pdu, lab.info.nodes[ALL].outlet, "Off");
      await uploadGoldenImage(lab);
      const w = await rackStack(engine(name), cliConfig, lab, "maas", [node]);
      await w.ok(["init", "-no-color"]);
      const since = lab.requests.last();
      const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
      expect(apply.stdout).toContain("Apply complete! Resources: 6 added, 0 changed, 0 destroyed.");
      const state = await shownState(w);
      const of = (type: string) => state.find((s) => s.address === `${type}.${resourceName(node)}`)?.values;
      expect(of("rackform_bmc")).toMatchObject({ ...modelOf(ALL), conformant: true });
      expect(of("rackform_cluster_member")).toMatchObject({ joined: true });
      // MAAS powered the node through the Reset action the quirks advertise oddly (ActionInfo 404, run-together values).
      const address = nodeOf(ALL).address;
      const resets = lab.requests
        .since(since)
        .filter(
          (e) => e.address === address && e.method === "POST" && e.path.endsWith("/Actions/ComputerSystem.Reset"),
        );
      expect(resets.length).toBeGreaterThan(0);
      expect(resets.every((e) => e.status >= 200 && e.status < 300)).toBe(true);
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    },
  },
];

describe.each(ENGINES)("BMC quirks through the provider under %s", (name) => {
  const mine = CASES.filter((c) => c.engine === name);
  it.each(mine.map((c) => [c.name, c] as const))("%s", async (_title, c) => {
    await c.run(name);
  });
});

it("gives each engine cases of its own", () => {
  for (const e of ALL_ENGINES) expect(CASES.filter((c) => c.engine === e).length, e).toBeGreaterThan(0);
});
