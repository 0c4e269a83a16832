/**
 * rackform_dpu under the real engines against the lab's BlueField-3 DPUs (instant profile): create converges the
 * mode (with the host power cycle) and then the BFB; drift of mode and image shows in the plan and is repaired; a new
 * BFB version plans exactly the install; a failed install keeps the task's messages as evidence (and a failed create
 * is tainted); import by the DPU BMC's address.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec, type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
const SHA = "a".repeat(64);
const V1 = "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod";
const V2 = "DOCA_2.10.0_BSP_4.10.0_Ubuntu_24.04-6.25-01.prod";
const V3 = "DOCA_3.0.0_BSP_4.11.0_Ubuntu_24.04-1.25-04.prod";

beforeAll(async () => {
  const stateDir = await mkdtemp(join(tmpdir(), "rf-lab-dpu-"));
  const spec = defaultSpec({ nodes: 4, dpus: 1, dpuMode: "NicMode", initialOutlet: "On" });
  lab = await startLab({ spec, profile: "instant", stateDir, backends: false });
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
});

function dpuHcl(node: string, version: string, extra = ""): string {
  const n = lab.info.nodes.find((x) => x.name === node)!;
  const d = n.dpus![0];
  return `resource "rackform_dpu" ${JSON.stringify(node)} {
  endpoint      = ${JSON.stringify(d.url)}
  username      = ${JSON.stringify(d.username)}
  password      = ${JSON.stringify(d.password)}
  host_endpoint = ${JSON.stringify(n.bmc.url)}
  mode          = "DpuMode"
  bfb = {
    version = "${version}"
    url     = "${lab.images.url}${version}.bfb"
    sha256  = "${SHA}"
  }
${extra}
}
`;
}

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_dpu under %s", (name, i) => {
  const nodeA = `r01-n0${1 + i * 2}`;
  const nodeB = `r01-n0${2 + i * 2}`;
  const dpuOf = (n: string) => lab.world.dpus.get(`${n}-dpu0`)!;
  let w: Workdir;

  beforeAll(async () => {
    w = await Workdir.create(engine(name), cliConfig, {});
  });

  it("GIVEN a DPU in NicMode on the factory BFB WHEN apply THEN it runs DpuMode on the pinned BFB, the host is left off, and the next plan is empty", async () => {
    await w.write({ "main.tf": providerBlock(lab) + dpuHcl(nodeA, V1) });
    await w.ok(["init", "-no-color"]);
    const plan = await w.ok(["plan", "-no-color"]);
    expect(plan.stdout).toContain("(sensitive value)");
    expect(plan.stdout).not.toContain(lab.spec.credentials.password);
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    expect(dpuOf(nodeA)).toMatchObject({ mode: "DpuMode", bfb: V1, hostRshim: "Disabled", bmcRshim: true });
    expect(lab.world.powerState(lab.world.node(nodeA)!)).toBe("Off");
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("GIVEN the mode and image changed by hand WHEN plan THEN both show as drift, and apply repairs them", async () => {
    const d = dpuOf(nodeA);
    d.mode = "NicMode";
    d.bfb = "hand-installed-1.0";
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/mode\s+= "NicMode" -> "DpuMode"/);
    expect(plan.stdout).toMatch(/version\s+= "hand-installed-1\.0" -> "DOCA_2\.9\.1/);
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(dpuOf(nodeA)).toMatchObject({ mode: "DpuMode", bfb: V1 });
  });

  it("GIVEN a new BFB version WHEN plan THEN only the install is planned, and apply installs it", async () => {
    await w.write({ "main.tf": providerBlock(lab) + dpuHcl(nodeA, V2) });
    const plan = await w.ok(["plan", "-no-color"]);
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
    expect(plan.stdout).not.toMatch(/mode\s+=.*->/);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(dpuOf(nodeA).bfb).toBe(V2);
  });

  it("GIVEN a BFB that fails to install WHEN apply THEN it fails with the task's messages, keeps them in state, and a re-apply installs it", async () => {
    lab.world.faults.add({ kind: "bfb-install-failure", node: `${nodeA}-dpu0`, count: 1 });
    await w.write({ "main.tf": providerBlock(lab) + dpuHcl(nodeA, V3) });
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).not.toBe(0);
    const said = r.stderr.replace(/\s+/g, " ");
    expect(said).toContain(`Transfer of image '${V3}.bfb' to '/dev/rshim0/boot' failed`);
    expect(said).toContain("RACKFORM_ERR_REDFISH_TASK_FAILED");
    expect(dpuOf(nodeA).bfb).toBe(V2);
    const show = await w.ok(["state", "show", "-no-color", `rackform_dpu.${nodeA}`]);
    expect(show.stdout).toContain("Transfer of image");
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(dpuOf(nodeA).bfb).toBe(V3);
  });

  it("GIVEN a failed first install WHEN create THEN the DPU is recorded tainted with the evidence", async () => {
    lab.world.faults.add({ kind: "bfb-install-failure", node: `${nodeB}-dpu0`, count: 1 });
    const w2 = await Workdir.create(engine(name), cliConfig, { "main.tf": providerBlock(lab) + dpuHcl(nodeB, V1) });
    await w2.ok(["init", "-no-color"]);
    const r = await w2.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).not.toBe(0);
    const plan = await w2.ok(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/is tainted, so (it )?must be replaced/);
    await w2.ok(["apply", "-auto-approve", "-no-color"]);
    expect(dpuOf(nodeB).bfb).toBe(V1);
  });

  it("GIVEN a converged DPU WHEN imported into an empty state THEN the plan creates and destroys nothing", async () => {
    const d = lab.info.nodes.find((x) => x.name === nodeB)!.dpus![0];
    const w3 = await Workdir.create(engine(name), cliConfig, { "main.tf": providerBlock(lab) + dpuHcl(nodeB, V1) });
    await w3.ok(["init", "-no-color"]);
    await w3.ok(["import", "-no-color", `rackform_dpu.${nodeB}`, d.url]);
    const show = await w3.ok(["state", "show", "-no-color", `rackform_dpu.${nodeB}`]);
    expect(show.stdout).toMatch(/mode\s+= "DpuMode"/);
    const plan = await w3.ok(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/0 to add, \d to change, 0 to destroy/);
    await w3.ok(["apply", "-auto-approve", "-no-color"]);
    const after = await w3.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(after.code, after.stdout + after.stderr).toBe(0);
  });

  it("GIVEN a mode change without host_endpoint WHEN plan THEN it fails on host_endpoint before anything is sent", async () => {
    const d = dpuOf(nodeA);
    d.mode = "NicMode";
    const hcl = dpuHcl(nodeA, V3).replace(/ {2}host_endpoint.*\n/, "");
    await w.write({ "main.tf": providerBlock(lab) + hcl });
    const r = await w.run(["plan", "-no-color"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Cannot change the DPU's mode without its host");
    expect(d.pending).toBeUndefined();
    d.mode = "DpuMode";
  });
});
