/**
 * rackform_deployment on MAAS through the provider server against the lab's MAAS region: deploy to Deployed with the
 * uploaded custom image, a version change planned as a replacement (reimage), destroy releasing with disk erase,
 * a failed deploy kept as tainted with MAAS's evidence, drift (released by hand, image changed out of band), import.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ObjectValue } from "../../../src/framework/index.js";
import { backendFor } from "../../../src/provider/backends/index.js";
import {
  apply,
  deploymentConfig,
  destroy,
  plan,
  read,
  readyMachine,
  replacePaths,
  uploadMaasImage,
} from "./deployment-support.js";
import { lines, machineRig, providerFor } from "./machine-support.js";

const rig = machineRig(3);
beforeAll(async () => {
  await uploadMaasImage(rig.ml, "2026.06.1");
  await uploadMaasImage(rig.ml, "2026.06.2");
});

const systemId = (machineId: string) => machineId.replace(/^maas:/, "");

describe("rackform_deployment on MAAS", () => {
  let machineId: string;
  let state: ObjectValue;

  it("GIVEN a Ready machine WHEN create THEN MAAS reports it Deployed with the custom image and the plan is empty", async () => {
    machineId = await readyMachine(rig.p.srv, rig.ml, "r01-n01", "maas");
    const config = deploymentConfig(rig.ml, machineId, "2026.06.1");
    const a = await apply(rig.p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    state = a.newState as ObjectValue;
    expect(state).toMatchObject({
      id: machineId,
      status: "Deployed",
      deployed_image: "custom/ubuntu-gpu-2026.06.1",
      erase_on_destroy: true,
    });
    const m = await rig.ml.maas.getMachine(systemId(machineId));
    expect([m.statusName, m.osystem, m.distroSeries]).toEqual(["Deployed", "custom", "ubuntu-gpu-2026.06.1"]);
    const again = await plan(rig.p.srv, config, state);
    expect(again.requiresReplace).toEqual([]);
    expect(again.plannedState).toEqual(state);
  });

  it("GIVEN a deployed machine WHEN a health remedy marks it THEN another process reads the mark in its owner data", async () => {
    const mark = "power_cycle:1@2026-11-27T10:05:00.000Z";
    await backendFor(rig.p.data()!, "maas").noteRemedy(systemId(machineId), mark);
    const m = await rig.ml.maas.getMachine(systemId(machineId));
    expect(m.raw.owner_data).toEqual({ rackform_remedy: mark });
    const q = await rig.provider();
    expect(await backendFor(q.data()!, "maas").lastRemedy(systemId(machineId))).toBe(mark);
  });

  it("GIVEN a new image version WHEN plan THEN it must be replaced; destroy erases the disks and create reimages", async () => {
    const next = deploymentConfig(rig.ml, machineId, "2026.06.2");
    const pl = await plan(rig.p.srv, next, state);
    expect(replacePaths(pl).sort()).toEqual(["image.sha256", "image.version"]);

    const d = await destroy(rig.p.srv, state);
    expect(lines(d.diagnostics)).toBe("");
    const events = await rig.ml.maas.events({ systemId: systemId(machineId), limit: 20 });
    expect(events.map((e) => e.type)).toContain("Disk erasing");
    expect((await rig.ml.maas.getMachine(systemId(machineId))).statusName).toBe("Ready");
    // MAAS drops owner data on release (a remedy's mark with it): a reimage marks the machine after its deploy.
    expect((await rig.ml.maas.getMachine(systemId(machineId))).raw.owner_data).toEqual({});

    const c = await apply(rig.p.srv, next);
    expect(lines(c.diagnostics)).toBe("");
    state = c.newState as ObjectValue;
    expect(state).toMatchObject({ status: "Deployed", deployed_image: "custom/ubuntu-gpu-2026.06.2" });
  });

  it("GIVEN a signature change WHEN apply THEN it is recorded in place without a reimage", async () => {
    const config = deploymentConfig(rig.ml, machineId, "2026.06.2");
    (config.image as Record<string, unknown>).signature = "sig-v2";
    const a = await apply(rig.p.srv, config, state);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.plan.requiresReplace).toEqual([]);
    state = a.newState as ObjectValue;
    expect((state.image as ObjectValue).signature).toBe("sig-v2");
    expect(state.status).toBe("Deployed");
  });

  it("GIVEN its boot resource deleted from MAAS by hand WHEN refresh THEN a warning names the node, the image and the fix; the plan changes nothing; a redeploy fails with MAAS's refusal", async () => {
    const label = "custom/ubuntu-gpu-2026.06.2";
    const gone = (await rig.ml.maas.catalog.listBootResources()).filter(
      (b) => `custom/${b.name.replace(/^custom\//, "")}` === label,
    );
    expect(gone).toHaveLength(1);
    await rig.ml.maas.catalog.deleteBootResource(gone[0].id);
    // A plan is a new provider process: its boot-resource list is its own.
    const q = await providerFor(rig.ml);
    try {
      const r = await read(q.srv, state);
      const warned = r.diagnostics.filter((d) => d.severity === "warning");
      expect(warned.map((d) => d.summary)).toEqual([`Image gone from MAAS: r01-n01`]);
      expect(warned[0].detail).toContain(`runs ${label}, which MAAS no longer lists among its boot resources`);
      expect(warned[0].detail).toContain("Upload the image to MAAS again");
      expect(r.newState).toEqual(state);
      const config = deploymentConfig(rig.ml, machineId, "2026.06.2");
      (config.image as Record<string, unknown>).signature = "sig-v2";
      const pl = await plan(q.srv, config, r.newState);
      expect(replacePaths(pl)).toEqual([]);
      expect(pl.plannedState).toEqual(state);
      // A redeploy of that image now fails with MAAS's own refusal as evidence.
      const other = await readyMachine(q.srv, rig.ml, "r01-n02", "maas");
      const a = await apply(q.srv, deploymentConfig(rig.ml, other, "2026.06.2"));
      expect(
        a.diagnostics.some(
          (d) => d.severity === "error" && /'ubuntu-gpu-2026\.06\.2' is not a valid distro_series/.test(d.detail),
        ),
      ).toBe(true);
      expect((await rig.ml.maas.getMachine(systemId(other))).statusName).toBe("Ready");
    } finally {
      await q.data()?.core.close();
      await uploadMaasImage(rig.ml, "2026.06.2");
    }
  });

  it("GIVEN the image was changed out of band WHEN refresh and plan THEN the deployment must be replaced", async () => {
    const sid = systemId(machineId);
    await rig.ml.maas.release(sid);
    await rig.ml.maas.waitForStatus(sid, ["Ready"], { pollMs: 10 });
    await rig.ml.maas.deploy(sid, { osystem: "ubuntu", distroSeries: "jammy" });
    await rig.ml.maas.waitForStatus(sid, ["Deployed"], { pollMs: 10 });
    const r = await read(rig.p.srv, state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({ deployed_image: "ubuntu/jammy" });
    const config = deploymentConfig(rig.ml, machineId, "2026.06.2");
    (config.image as Record<string, unknown>).signature = "sig-v2";
    const pl = await plan(rig.p.srv, config, r.newState);
    expect(replacePaths(pl)).toEqual(["deployed_image"]);
    expect((pl.plannedState as ObjectValue).deployed_image).toBe("custom/ubuntu-gpu-2026.06.2");
    state = r.newState as ObjectValue;
  });

  it("GIVEN the machine was released by hand WHEN refresh THEN the deployment is gone and the next plan deploys it", async () => {
    const sid = systemId(machineId);
    await rig.ml.maas.release(sid);
    await rig.ml.maas.waitForStatus(sid, ["Ready"], { pollMs: 10 });
    const r = await read(rig.p.srv, state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toBeNull();
  });

  it("GIVEN a deployed machine WHEN imported by its id THEN the state matches and the config is recorded without a reimage", async () => {
    const config = deploymentConfig(rig.ml, machineId, "2026.06.2");
    const a = await apply(rig.p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    const imp = await rig.p.srv.importResourceState({ typeName: "rackform_deployment", id: machineId });
    expect(lines(imp.diagnostics)).toBe("");
    const r = await read(rig.p.srv, imp.imported[0].state);
    expect(r.newState).toMatchObject({
      id: machineId,
      status: "Deployed",
      deployed_image: "custom/ubuntu-gpu-2026.06.2",
    });
    const pl = await plan(rig.p.srv, config, r.newState);
    expect(pl.requiresReplace).toEqual([]);
    const d = await destroy(rig.p.srv, a.newState);
    expect(lines(d.diagnostics)).toBe("");
  });

  it("GIVEN a deploy failure WHEN create THEN the error carries MAAS's evidence, the state is tainted and destroy releases it", async () => {
    const id = await readyMachine(rig.p.srv, rig.ml, "r01-n02", "maas");
    rig.ml.lab.world.faults.add({ kind: "deploy-failure", node: "r01-n02" });
    const a = await apply(rig.p.srv, deploymentConfig(rig.ml, id, "2026.06.1"));
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["Deployment failed"]);
    expect(errors[0].detail).toMatch(/Failed deployment/);
    expect(errors[0].detail).toMatch(/tainted/);
    // A wholly known state with an error: the engine records it as tainted.
    expect(a.newState).toMatchObject({ id, status: "Failed deployment" });
    expect((await rig.ml.maas.getMachine(systemId(id))).statusName).toBe("Failed deployment");
    const d = await destroy(rig.p.srv, a.newState);
    expect(lines(d.diagnostics)).toBe("");
    expect((await rig.ml.maas.getMachine(systemId(id))).statusName).toBe("Ready");
  });

  it("GIVEN an image MAAS does not have WHEN create THEN MAAS's refusal is a diagnostic and nothing is recorded", async () => {
    const id = await readyMachine(rig.p.srv, rig.ml, "r01-n03", "maas");
    const a = await apply(rig.p.srv, deploymentConfig(rig.ml, id, "9.9.9"));
    expect(a.diagnostics.some((d) => d.severity === "error" && /distro_series/.test(d.detail))).toBe(true);
    expect((await rig.ml.maas.getMachine(systemId(id))).statusName).toBe("Ready");
  });
});
