/**
 * A firmware baseline held on a running rack, shared by test/e2e/rack-firmware-maas.test.ts and
 * rack-firmware-ironic.test.ts: an 8-node rack converges on day 1 with a firmware baseline and BIOS settings (each
 * rackform_firmware applies them before its node is enrolled). On day 2 the hardware drifts the way racks do — three
 * nodes come back from repair on an old BIOS, two on an old BMC firmware, two with SR-IOV turned off — and one of the
 * old-BIOS nodes' BMC refuses the image's signature. The plan names exactly those components and settings on exactly
 * those nodes; one apply rolls them with at most max_unavailable out of Slurm at any sample, each reset once, their
 * gates re-run; the refused node ends quarantined with the task's message while the other seven are joined; once
 * the fault is gone the next apply converges it and the plan after is empty.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { defaultSpec, type Lab, labFirmwareFile, startLab } from "../../src/lab/index.js";
import { type Backend, byNode } from "./day2.js";
import { type Engine, engine, type Workdir } from "./engines.js";
import {
  plannedChanges,
  rackStack,
  resourceName,
  sampleSlurm,
  shownState,
  slurmNodes,
  uploadGoldenImage,
} from "./rack.js";

export const BIOS = "9.1.0";
const BMC = "9.2.0";
export const OLD = "8.0.0";

/** An 8-node lab of one vendor (one BIOS registry, one BMC name) on the demo profile at 4× speed. */
export async function firmwareLab(): Promise<Lab> {
  const spec = defaultSpec({ nodes: 8, vendors: ["dell"] });
  const lab = await startLab({ spec, profile: "demo", speed: 4, stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
  await uploadGoldenImage(lab);
  return lab;
}

function image(c: "bios" | "bmc", version: string) {
  const f = labFirmwareFile(c, version);
  return { version, url: "", sha256: f.sha256, name: f.name };
}

/** The rack's baseline, the same on every node. */
export function baseline(lab: Lab, nodes: readonly string[]) {
  const at = (c: "bios" | "bmc", v: string) => {
    const { name, ...t } = image(c, v);
    return { ...t, url: `${lab.images.url}${name}` };
  };
  const fw = {
    components: { BIOS: at("bios", BIOS), "iDRAC firmware": at("bmc", BMC) },
    bios: { SriovGlobalEnable: "Enabled" },
  };
  return Object.fromEntries(nodes.map((n) => [n, fw]));
}

/** Why the backend holds `node` out of service (MAAS Broken's description, Ironic's maintenance reason), or "". */
async function quarantineReason(lab: Lab, backend: Backend, node: string): Promise<string> {
  if (backend === "maas") {
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      const m = (await c.listMachines()).find((x) => x.hostname === node);
      return m?.statusName === "Broken" ? m.statusMessage : "";
    } finally {
      await c.close();
    }
  }
  const c = new IronicClient({ url: lab.info.ironic!.url });
  try {
    const n = (await c.listNodes({ detail: true })).find((x) => x.name === node);
    return n?.maintenance ? (n.maintenanceReason ?? "") : "";
  } finally {
    await c.close();
  }
}

/** POSTs of ComputerSystem.Reset per node address since `since` (the firmware resets; MAAS and Ironic use others). */
function resetsSince(lab: Lab, since: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of lab.requests.since(since)) {
    if (e.method !== "POST" || !e.path.endsWith("/Actions/ComputerSystem.Reset")) continue;
    out.set(e.address, (out.get(e.address) ?? 0) + 1);
  }
  return out;
}

export async function firmwareRollout(name: Engine["name"], cliConfig: string, lab: Lab, backend: Backend) {
  // GIVEN an 8-node rack converged with a firmware baseline and BIOS settings, max_unavailable = 2
  const nodes = lab.info.nodes.slice(0, 8).map((n) => n.name);
  const opts = { maxUnavailable: 2, firmware: baseline(lab, nodes) };
  const w: Workdir = await rackStack(engine(name), cliConfig, lab, backend, nodes, opts);
  await w.ok(["init", "-no-color"]);
  await w.ok(["apply", "-auto-approve", "-no-color"]);
  for (const n of nodes) {
    const node = lab.world.node(n)!;
    expect([node.firmware.bios, node.firmware.bmc, node.bios.current.SriovGlobalEnable], n).toEqual([
      BIOS,
      BMC,
      "Enabled",
    ]);
  }
  const gatesBefore = byNode(await shownState(w), "rackform_acceptance");

  // WHEN three nodes come back on an old BIOS, two on an old BMC firmware, two with SR-IOV off, and the BMC of one
  // old-BIOS node refuses the image's signature
  const [a, b, c, d, e, f, g, h] = nodes;
  for (const n of [a, b, c]) lab.world.node(n)!.firmware.bios = OLD;
  for (const n of [d, e]) lab.world.node(n)!.firmware.bmc = OLD;
  for (const n of [f, g]) lab.world.node(n)!.bios.current.SriovGlobalEnable = "Disabled";
  const fault = lab.world.faults.add({ kind: "bad-signature", node: a });

  // THEN the plan changes exactly those nodes' firmware, gate and member in place, and shows what moves
  const changes = (await plannedChanges(w)).filter((x) => !["no-op", "read"].includes(x.actions.join()));
  const moving = [a, b, c, d, e, f, g];
  const types = ["rackform_firmware", "rackform_acceptance", "rackform_cluster_member"];
  expect(changes.map((x) => x.address).sort()).toEqual(
    moving.flatMap((n) => types.map((t) => `${t}.${resourceName(n)}`)).sort(),
  );
  expect(changes.every((x) => x.actions.join() === "update")).toBe(true);
  const shown = (await w.ok(["show", "-no-color", "rack.tfplan"])).stdout;
  expect(shown.match(new RegExp(`"BIOS"\\s+= "${OLD}" -> "${BIOS}"`, "g"))).toHaveLength(3);
  expect(shown.match(new RegExp(`"iDRAC firmware"\\s+= "${OLD}" -> "${BMC}"`, "g"))).toHaveLength(2);
  expect(shown.match(/"SriovGlobalEnable"\s+= "Disabled" -> "Enabled"/g)).toHaveLength(2);
  expect(shown).not.toContain(`rackform_firmware.${resourceName(h)}`);

  // WHEN applied while Slurm is sampled
  const since = lab.requests.last();
  const sampler = sampleSlurm(lab, nodes, 100);
  const apply = await w.run(["apply", "-no-color", "rack.tfplan"]);
  const samples = await sampler.stop();

  // THEN the refused node failed the apply with the task's message, and the budget held at every sample
  expect(apply.code).not.toBe(0);
  const err = apply.stderr.replace(/[\s│]+/g, " ");
  expect(err).toMatch(/Firmware update failed/);
  expect(err).toMatch(/failed signature verification/);
  expect(Math.max(...samples.map((s) => s.out.length))).toBeLessThanOrEqual(2);
  expect(new Set(samples.flatMap((s) => s.out))).toEqual(new Set(moving));
  // AND every updated node was reset once (by its member), the refused node not at all
  const resets = resetsSince(lab, since);
  const address = (n: string) => new URL(lab.info.nodes.find((x) => x.name === n)!.bmc.url).hostname;
  for (const n of [b, c, d, e, f, g]) expect(resets.get(address(n)), n).toBe(1);
  expect(resets.get(address(a)) ?? 0).toBe(0);
  // AND they run the baseline, joined, with a new gate run; the untouched node kept its gate
  const slurm = await slurmNodes(lab);
  for (const n of [b, c, d, e, f, g]) {
    const node = lab.world.node(n)!;
    expect([node.firmware.bios, node.firmware.bmc, node.bios.current.SriovGlobalEnable], n).toEqual([
      BIOS,
      BMC,
      "Enabled",
    ]);
    expect(slurm.get(n)?.state, n).toBe("IDLE");
  }
  expect(slurm.get(h)?.state).toBe("IDLE");
  // AND the refused node is out of service, quarantined in its backend with the task's message
  expect(slurm.get(a)?.state).not.toBe("IDLE");
  expect(await quarantineReason(lab, backend, a)).toMatch(/firmware update: BIOS: .*signature verification/);
  await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
  const gates = byNode(await shownState(w), "rackform_acceptance");
  for (const n of [b, c, d, e, f, g]) {
    expect(gates.get(resourceName(n))?.evidence, n).not.toBe(gatesBefore.get(resourceName(n))?.evidence);
  }
  expect(gates.get(resourceName(h))?.evidence).toBe(gatesBefore.get(resourceName(h))?.evidence);

  // WHEN the BMC takes the image again and the rack is applied once more
  lab.world.faults.remove(fault.id);
  const last = await w.ok(["apply", "-auto-approve", "-no-color"]);
  // (in place: its firmware, gate and member; nothing replaced)
  expect(last.stdout).toContain("0 added, 3 changed, 0 destroyed");
  // THEN the last node converges and joins, and the next plan is empty
  expect(lab.world.node(a)!.firmware.bios).toBe(BIOS);
  expect((await slurmNodes(lab)).get(a)?.state).toBe("IDLE");
  const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
}
