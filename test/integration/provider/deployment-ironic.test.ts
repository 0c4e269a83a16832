/**
 * rackform_deployment on Ironic through the provider server against the lab's Ironic (redfish driver): deploy to
 * active with image_source + sha256 and the user data in the config drive, a version change planned as a
 * replacement, destroy undeploying through cleaning to available, a failed deploy kept as tainted with last_error.
 */
import { describe, expect, it } from "vitest";
import type { ObjectValue } from "../../../src/framework/index.js";
import { backendFor } from "../../../src/provider/backends/index.js";
import {
  apply,
  deploymentConfig,
  destroy,
  imageUrlOf,
  plan,
  read,
  readyMachine,
  replacePaths,
  shaOf,
} from "./deployment-support.js";
import { lines, machineRig, providerFor } from "./machine-support.js";

const rig = machineRig(2);

const uuid = (machineId: string) => machineId.replace(/^ironic:/, "");

describe("rackform_deployment on Ironic", () => {
  let machineId: string;
  /** An enrolled, available node the image URL cases deploy to (r01-n02, after its failed deploy is cleaned). */
  let spare: string;
  let state: ObjectValue;

  it("GIVEN an available node WHEN create THEN Ironic reports it active with the image and its sha256", async () => {
    machineId = await readyMachine(rig.p.srv, rig.ml, "r01-n01", "ironic");
    const config = deploymentConfig(rig.ml, machineId, "2026.06.1");
    const a = await apply(rig.p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    state = a.newState as ObjectValue;
    const url = imageUrlOf(rig.ml, "2026.06.1");
    expect(state).toMatchObject({
      id: machineId,
      status: "active",
      deployed_image: `${url} sha256:${shaOf("2026.06.1")}`,
    });
    const n = await rig.ml.ironic.getNode(uuid(machineId));
    expect(n.provisionState).toBe("active");
    expect(n.instanceInfo).toMatchObject({ image_source: url, image_os_hash_algo: "sha256" });
    const again = await plan(rig.p.srv, config, state);
    expect(again.requiresReplace).toEqual([]);
    expect(again.plannedState).toEqual(state);
  });

  it("GIVEN an active node WHEN a health remedy marks it THEN another process reads the mark from the shared node list (extra)", async () => {
    const mark = "power_cycle:1@2026-11-27T10:05:00.000Z";
    await backendFor(rig.p.data()!, "ironic").noteRemedy(uuid(machineId), mark);
    expect((await rig.ml.ironic.getNode(uuid(machineId))).extra).toEqual({ rackform_remedy: mark });
    const q = await rig.provider();
    expect(await backendFor(q.data()!, "ironic").lastRemedy(uuid(machineId))).toBe(mark);
  });

  it("GIVEN its image.url answering 404 WHEN refresh THEN a warning names the node, the URL and the fix, and the plan changes nothing; restored, the warning goes", async () => {
    const file = "ubuntu-gpu-2026.06.1.qcow2";
    rig.ml.lab.images.remove(file);
    // A plan is a new provider process: its probe of the URL is its own.
    const q = await providerFor(rig.ml);
    try {
      const r = await read(q.srv, state);
      const warned = r.diagnostics.filter((d) => d.severity === "warning");
      expect(warned.map((d) => d.summary)).toEqual(["Image URL no longer answers: r01-n01"]);
      expect(warned[0].detail).toContain(`was deployed from image.url "${imageUrlOf(rig.ml, "2026.06.1")}"`);
      expect(warned[0].detail).toContain("HTTP 404 (Not Found)");
      expect(warned[0].detail).toContain("Restore the image at that URL");
      expect(r.newState).toEqual(state);
      const pl = await plan(q.srv, deploymentConfig(rig.ml, machineId, "2026.06.1"), r.newState);
      expect(pl.requiresReplace).toEqual([]);
      expect(pl.plannedState).toEqual(state);
    } finally {
      await q.data()?.core.close();
      rig.ml.lab.images.put(file, "ubuntu-gpu-2026.06.1");
    }
    const again = await providerFor(rig.ml);
    try {
      expect(lines((await read(again.srv, state)).diagnostics)).toBe("");
    } finally {
      await again.data()?.core.close();
    }
  });

  it("GIVEN a new image version WHEN plan THEN it must be replaced; destroy undeploys with cleaning and create reimages", async () => {
    const next = deploymentConfig(rig.ml, machineId, "2026.06.2");
    const pl = await plan(rig.p.srv, next, state);
    expect(replacePaths(pl).sort()).toEqual(["image.sha256", "image.url", "image.version"]);

    const d = await destroy(rig.p.srv, state);
    expect(lines(d.diagnostics)).toBe("");
    const n = await rig.ml.ironic.getNode(uuid(machineId));
    expect(n.provisionState).toBe("available");
    expect(n.instanceInfo?.image_source).toBeUndefined();
    // The tear-down went through Ironic's automated cleaning on its way to available.
    const provisions = rig.ml.lab.backends!.ironic.requests.filter(
      (r) => r.method === "PUT" && r.path.endsWith(`${uuid(machineId)}/states/provision`),
    );
    expect(provisions.length).toBeGreaterThanOrEqual(2);

    const c = await apply(rig.p.srv, next);
    expect(lines(c.diagnostics)).toBe("");
    state = c.newState as ObjectValue;
    expect(state.deployed_image).toBe(`${imageUrlOf(rig.ml, "2026.06.2")} sha256:${shaOf("2026.06.2")}`);
  });

  it("GIVEN the node was undeployed by hand WHEN refresh THEN the deployment is gone", async () => {
    const id = uuid(machineId);
    await rig.ml.ironic.setProvisionState(id, "deleted");
    await rig.ml.ironic.waitForProvisionState(id, "available", { pollMs: 10 });
    const r = await read(rig.p.srv, state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toBeNull();
  });

  it("GIVEN a deploy failure WHEN create THEN the error carries last_error, the state is tainted and destroy cleans it", async () => {
    const id = await readyMachine(rig.p.srv, rig.ml, "r01-n02", "ironic");
    const fault = rig.ml.lab.world.faults.add({ kind: "deploy-failure", node: "r01-n02" });
    const a = await apply(rig.p.srv, deploymentConfig(rig.ml, id, "2026.06.1"));
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["Deployment failed"]);
    expect(errors[0].detail).toMatch(/deploy failed/);
    expect(a.newState).toMatchObject({ id, status: "deploy failed" });
    const d = await destroy(rig.p.srv, a.newState);
    expect(lines(d.diagnostics)).toBe("");
    expect((await rig.ml.ironic.getNode(uuid(id))).provisionState).toBe("available");
    rig.ml.lab.world.faults.remove(fault.id);
    spare = id;
  });

  /** Ironic requests that touched the node since `from` (an index into the request log). */
  const touched = (id: string, from: number) =>
    rig.ml.lab.backends!.ironic.requests.slice(from).filter((r) => r.method !== "GET" && r.path.includes(uuid(id)));

  it("GIVEN an image URL that answers 404 WHEN create THEN a diagnostic on image.url names the status and the fix, and Ironic is not asked", async () => {
    const version = "2026.06.404";
    rig.ml.lab.images.remove(`ubuntu-gpu-${version}.qcow2`);
    const from = rig.ml.lab.backends!.ironic.requests.length;
    const a = await apply(rig.p.srv, deploymentConfig(rig.ml, spare, version));
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["Image URL does not answer"]);
    expect(errors[0].attribute).toEqual([{ attr: "image" }, { attr: "url" }]);
    expect(errors[0].detail).toContain(`HEAD ${imageUrlOf(rig.ml, version)} answered HTTP 404 (Not Found)`);
    expect(errors[0].detail).toContain("Publish the image at that URL or correct image.url");
    expect(errors[0].detail).toContain("(RACKFORM_ERR_IMAGE_URL_UNREACHABLE)");
    expect(a.newState).toBeNull();
    expect(touched(spare, from)).toEqual([]);
  });

  it("GIVEN a 404 image URL and check_url = false WHEN create THEN Ironic's own validation error is the evidence", async () => {
    const version = "2026.06.404";
    const config = deploymentConfig(rig.ml, spare, version);
    const a = await apply(rig.p.srv, { ...config, image: { ...(config.image as ObjectValue), check_url: false } });
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0].detail).toContain(
      `Validation of image href ${imageUrlOf(rig.ml, version)} failed, reason: Got HTTP code 404 instead of 200 in ` +
        "response to HEAD request.",
    );
    expect(a.newState).toBeNull();
    expect((await rig.ml.ironic.getNode(uuid(spare))).provisionState).toBe("available");
  });

  it("GIVEN image content whose sha256 differs WHEN create THEN the deploy fails with Ironic's checksum error as evidence", async () => {
    const version = "2026.06.7";
    rig.ml.lab.images.put(`ubuntu-gpu-${version}.qcow2`, "a tampered build");
    const a = await apply(rig.p.srv, deploymentConfig(rig.ml, spare, version));
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["Deployment failed"]);
    expect(errors[0].detail).toContain(
      `Deploy step deploy.write_image failed on node ${uuid(spare)}. Image failed to verify against checksum. ` +
        `location: ubuntu-gpu-${version}.qcow2; image ID: /dev/sda; image checksum: ${shaOf(version)}`,
    );
    expect(a.newState).toMatchObject({ id: spare, status: "deploy failed" });
    const d = await destroy(rig.p.srv, a.newState);
    expect(lines(d.diagnostics)).toBe("");
  });
});
