/**
 * rackform_machine with backend = "warewulf" through the provider server against the lab's warewulfd (instant
 * profile): create defines the node with the provider's profile, its boot MAC and its BMC, and commissions it (seen by
 * warewulfd after one network boot through Redfish); crash-resume finds the node a dead run defined instead of
 * defining it twice; destroy removes it. The resource files are the same as for MAAS and Ironic: only the adapter knows
 * Warewulf.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarewulfClient } from "../../../src/clients/warewulf/index.js";
import type { ObjectValue } from "../../../src/framework/index.js";
import { WarewulfBackend } from "../../../src/provider/backends/index.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { until } from "../../support/until.js";
import {
  apply as deploy,
  deploymentConfig,
  destroy as destroyDeployment,
  plan as planDeployment,
} from "./deployment-support.js";
import {
  apply,
  configuredProvider,
  destroy,
  enrollSpecOf,
  lines,
  type MachineLab,
  machineConfig,
  type ProviderProcess,
  redfishBlock,
  startMachineLab,
} from "./machine-support.js";

let ml: MachineLab;
let ww: WarewulfClient;
const processes: ProviderProcess[] = [];

/** A fresh provider process configured for the lab's BMCs and its warewulfd (profile "default"). */
async function providerForWarewulf(): Promise<ProviderServer> {
  const w = ml.lab.info.warewulf!;
  const p = await configuredProvider({
    redfish: redfishBlock(ml),
    warewulf: { url: w.url, username: w.username, password: w.password, insecure: null, profile: null },
  });
  processes.push(p);
  return p.srv;
}

beforeAll(async () => {
  ml = await startMachineLab(3);
  const w = ml.lab.info.warewulf!;
  ww = new WarewulfClient({ url: w.url, username: w.username, password: w.password });
});
afterAll(async () => {
  for (const p of processes) await p.data()?.core.close();
  await ww?.close();
  await ml?.close();
});

describe("rackform_machine on Warewulf", () => {
  it("GIVEN a powered node WHEN create THEN warewulfd holds one node with its MAC and BMC, seen, and the plan is empty", async () => {
    const srv = await providerForWarewulf();
    const name = ml.lab.info.nodes[0].name;
    const config = machineConfig(ml, name, "maas");
    const cfg = { ...config, backend: "warewulf" } as ObjectValue;
    const a = await apply(srv, cfg);
    expect(lines(a.diagnostics)).toBe("");
    const state = a.newState as ObjectValue;
    expect(state).toMatchObject({ id: `warewulf:${name}`, machine_id: name, state: "ready" });
    const nodes = await ww.listNodes();
    expect(nodes.map((n) => n.id)).toEqual([name]);
    expect(nodes[0].macs).toEqual([(config.macs as string[])[0]]);
    expect(nodes[0].fields.ipmi?.tags?.redfish_address).toBe(config.bmc_endpoint);
    expect((await ww.status()).nodes.get(name)?.lastSeen).toBeGreaterThan(0);
    const again = await apply(srv, cfg, state);
    expect(again.plan.requiresReplace).toEqual([]);
    expect(again.plan.plannedState).toEqual(state);
    expect((await destroy(srv, state)).diagnostics).toEqual([]);
    expect(await ww.listNodes()).toEqual([]);
  });

  it("GIVEN the provider died after defining the node WHEN create runs again THEN it resumes that node, never a duplicate", async () => {
    const name = ml.lab.info.nodes[1].name;
    const config = { ...machineConfig(ml, name, "maas"), backend: "warewulf" } as ObjectValue;
    // The dead run's enroll landed (the adapter's one create-only PUT), and no state recorded it.
    const dead = new WarewulfBackend(ww, {
      redfish: () => {
        throw new Error("enroll powers nothing");
      },
    });
    const enrolledId = await dead.enroll(enrollSpecOf(ml, config));
    expect((await ww.status()).nodes.get(name)?.lastSeen).toBe(0);
    const srv = await providerForWarewulf();
    const a = await apply(srv, config);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ machine_id: enrolledId, state: "ready" });
    expect((await ww.listNodes()).map((n) => n.id)).toEqual([name]);
    expect((await destroy(srv, a.newState)).diagnostics).toEqual([]);
  });

  it("GIVEN a ready node and the image in Warewulf WHEN a deployment is applied THEN it runs the image, joins Slurm, and release forgets it", async () => {
    const srv = await providerForWarewulf();
    const name = ml.lab.info.nodes[2].name;
    const m = await apply(srv, { ...machineConfig(ml, name, "maas"), backend: "warewulf" } as ObjectValue);
    expect(lines(m.diagnostics)).toBe("");
    const machineId = (m.newState as ObjectValue).id as string;
    // The operator imported the golden image into Warewulf (wwctl image import), as MAAS needs it uploaded.
    await ww.importImage("ubuntu-gpu-2026.06.2", "docker://registry.lab/ubuntu-gpu:2026.06.2");
    await ww.buildImage("ubuntu-gpu-2026.06.2");
    const config = deploymentConfig(ml, machineId, "2026.06.2", {
      user_data: "#cloud-config\n# rackform-join: slurm\n",
    });
    const d = await deploy(srv, config);
    expect(lines(d.diagnostics)).toBe("");
    expect(d.newState).toMatchObject({ machine_id: machineId, deployed_image: "ubuntu-gpu-2026.06.2" });
    expect((await ww.status()).nodes.get(name)?.stage).toBe("runtime");
    await until(`${name} registered with Slurm`, () => ml.lab.backends?.slurm.hooks.node(name), { everyMs: 10 });
    expect(ml.lab.backends?.slurm.hooks.node(name)).toBeDefined();
    const again = await planDeployment(srv, config, d.newState);
    expect(again.plannedState).toEqual(d.newState);
    expect((await destroyDeployment(srv, d.newState)).diagnostics).toEqual([]);
    expect((await ww.getNode(name, { raw: true }))?.fields["image name"]).toBeUndefined();
    expect((await destroy(srv, m.newState)).diagnostics).toEqual([]);
  });
});
