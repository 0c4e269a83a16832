/** The join marker in user data, gate parameter parsing, and the control API's view of a node's acceptance signals. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinTargets, type Lab, slurmdDynamic } from "../../../src/lab/index.js";
import { labControl } from "../../support/lab-control.js";
import { startComposedLab } from "./support.js";

describe("rackform-join marker", () => {
  it("reads targets from a cloud-config comment or key, in any case, with aliases", () => {
    expect(joinTargets("#cloud-config\n# rackform-join: slurm, kubernetes\n")).toEqual(["slurm", "kubernetes"]);
    expect(joinTargets("#cloud-config\nrackform-join: K8s\n")).toEqual(["kubernetes"]);
    expect(joinTargets("#!/bin/bash\necho rackform-join: slurm\n")).toEqual([]);
    expect(joinTargets(undefined)).toEqual([]);
  });

  it("registers a dynamic Slurm node when the user data starts slurmd with -Z", () => {
    expect(slurmdDynamic("#cloud-config\nruncmd:\n  - [slurmd, -Z, --conf, 'Feature=h100']\n")).toBe(true);
    expect(slurmdDynamic("#cloud-config\nruncmd:\n  - slurmd -Z\n")).toBe(true);
    expect(slurmdDynamic("#cloud-config\nruncmd:\n  - systemctl start slurmd\n")).toBe(false);
    expect(slurmdDynamic("# rackform-join: slurm\nzfs -Z\n")).toBe(false);
    expect(slurmdDynamic(undefined)).toBe(false);
  });
});

describe("control API acceptance view", () => {
  let lab: Lab;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ lab, stop } = await startComposedLab({ nodes: 1, backends: false }));
  });
  afterAll(async () => stop());

  it("measures a node with the gate's parameters (durations like 72h or 1h30m)", async () => {
    const name = lab.info.nodes[0].name;
    const r = await labControl(
      lab,
      "GET",
      `/nodes/${name}/acceptance?dcgm_level=1&burn_in=1h30m&nccl_min_busbw_gbps=380`,
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      format: "rackform-acceptance/v1",
      node: name,
      parameters: { dcgm_level: 1, burn_in_s: 5400, nccl_min_busbw_gbps: 380 },
      passed: false,
    });
    expect(r.json.failures[0]).toMatch(/^nccl: all_reduce busbw 37\d(\.\d)? GB\/s below the minimum 380 GB\/s$/);
    expect(r.json.dcgm.tests).toHaveLength(10);
  });

  it("fails with 400 naming the parameter when a duration or level is bad", async () => {
    const name = lab.info.nodes[0].name;
    const bad = await labControl(lab, "GET", `/nodes/${name}/acceptance?burn_in=3 days`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "RACKFORM_ERR_LAB_BAD_QUERY" });
    expect(bad.json.error.message).toMatch(/^burn_in: "3 days" is not a duration/);
    const level = await labControl(lab, "GET", `/nodes/${name}/acceptance?dcgm_level=0`);
    expect(level.json.error.message).toBe("dcgm_level: must be 1, 2, 3 or 4, got 0");
  });

  it("has no backend keys in the lab file when started with backends: false", () => {
    expect(lab.info.maas).toBeUndefined();
    expect(lab.backends).toBeUndefined();
  });
});
