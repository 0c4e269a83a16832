/**
 * rackform_deployment on Ironic through the provider server against the lab's Ironic (redfish driver): deploy to
 * active with image_source + sha256 and the user data in the config drive, a version change planned as a
 * replacement, destroy undeploying through cleaning to available, a failed deploy kept as tainted with last_error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ObjectValue } from "../../../src/framework/index.js";
import {
  apply,
  deploymentConfig,
  destroy,
  plan,
  read,
  readyMachine,
  replacePaths,
  shaOf,
} from "./deployment-support.js";
import { lines, type MachineLab, type ProviderProcess, providerFor, startMachineLab } from "./machine-support.js";

let ml: MachineLab;
let p: ProviderProcess;

beforeAll(async () => {
  ml = await startMachineLab(2);
  p = await providerFor(ml);
});
afterAll(async () => {
  await p?.data()?.core.close();
  await ml?.close();
});

const uuid = (machineId: string) => machineId.replace(/^ironic:/, "");

describe("rackform_deployment on Ironic", () => {
  let machineId: string;
  let state: ObjectValue;

  it("GIVEN an available node WHEN create THEN Ironic reports it active with the image and its sha256", async () => {
    machineId = await readyMachine(p.srv, ml, "r01-n01", "ironic");
    const config = deploymentConfig(machineId, "2026.06.1");
    const a = await apply(p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    state = a.newState as ObjectValue;
    const url = "http://images.lab/ubuntu-gpu-2026.06.1.qcow2";
    expect(state).toMatchObject({
      id: machineId,
      status: "active",
      deployed_image: `${url} sha256:${shaOf("2026.06.1")}`,
    });
    const n = await ml.ironic.getNode(uuid(machineId));
    expect(n.provisionState).toBe("active");
    expect(n.instanceInfo).toMatchObject({ image_source: url, image_os_hash_algo: "sha256" });
    const again = await plan(p.srv, config, state);
    expect(again.requiresReplace).toEqual([]);
    expect(again.plannedState).toEqual(state);
  });

  it("GIVEN a new image version WHEN plan THEN it must be replaced; destroy undeploys with cleaning and create reimages", async () => {
    const next = deploymentConfig(machineId, "2026.06.2");
    const pl = await plan(p.srv, next, state);
    expect(replacePaths(pl).sort()).toEqual(["image.sha256", "image.url", "image.version"]);

    const d = await destroy(p.srv, state);
    expect(lines(d.diagnostics)).toBe("");
    const n = await ml.ironic.getNode(uuid(machineId));
    expect(n.provisionState).toBe("available");
    expect(n.instanceInfo?.image_source).toBeUndefined();
    // The tear-down went through Ironic's automated cleaning on its way to available.
    const provisions = ml.lab.backends!.ironic.requests.filter(
      (r) => r.method === "PUT" && r.path.endsWith(`${uuid(machineId)}/states/provision`),
    );
    expect(provisions.length).toBeGreaterThanOrEqual(2);

    const c = await apply(p.srv, next);
    expect(lines(c.diagnostics)).toBe("");
    state = c.newState as ObjectValue;
    expect(state.deployed_image).toBe(`http://images.lab/ubuntu-gpu-2026.06.2.qcow2 sha256:${shaOf("2026.06.2")}`);
  });

  it("GIVEN the node was undeployed by hand WHEN refresh THEN the deployment is gone", async () => {
    const id = uuid(machineId);
    await ml.ironic.setProvisionState(id, "deleted");
    await ml.ironic.waitForProvisionState(id, "available", { pollMs: 10 });
    const r = await read(p.srv, state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toBeNull();
  });

  it("GIVEN a deploy failure WHEN create THEN the error carries last_error, the state is tainted and destroy cleans it", async () => {
    const id = await readyMachine(p.srv, ml, "r01-n02", "ironic");
    ml.lab.world.faults.add({ kind: "deploy-failure", node: "r01-n02" });
    const a = await apply(p.srv, deploymentConfig(id, "2026.06.1"));
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["Deployment failed"]);
    expect(errors[0].detail).toMatch(/deploy failed/);
    expect(a.newState).toMatchObject({ id, status: "deploy failed" });
    const d = await destroy(p.srv, a.newState);
    expect(lines(d.diagnostics)).toBe("");
    expect((await ml.ironic.getNode(uuid(id))).provisionState).toBe("available");
  });
});
