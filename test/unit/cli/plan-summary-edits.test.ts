/**
 * plan-summary on edits that look small in code: a renamed node (recorded plan rename.json: one node of a converged
 * 4-node MAAS rack renamed, machine name and Slurm node) is a reimage and says so under the ⚠ banner; an acceptance
 * policy edit the evidence covers runs nothing, one it does not cover says why the gate re-runs.
 */
import { describe, expect, it } from "vitest";
import { type PlanJson, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { plan, planFixture, rc } from "../../support/plan-json.js";

/** Markdown with table padding folded, so assertions read as the rows do. */
const flat = (text: string) => text.replace(/ {2,}/g, " ");
const md = (p: PlanJson, label = "r01") => flat(renderMarkdown(summarise([{ plan: p, source: "plan.json", label }])));

describe("plan-summary says what a rename costs", () => {
  it("a renamed node is 'rename → reimage' under the ⚠ banner, old name → new name, with its chain's cells", async () => {
    const text = md(planFixture("rename"));
    const [banner] = text.split("\n\n").slice(1, 2);
    expect(banner).toContain(
      "> **⚠ rename → reimage: node r01-n02 → gpu-r01-02 — it is released, erased, enrolled and deployed again " +
        "under the new name (the hostname is set at deploy and names the node in its scheduler).**",
    );
    expect(text).toContain(
      "| gpu-r01-02 | rename r01-n02 → gpu-r01-02: re-enroll (maas) | reimage 2026.06.2 (new machine) | re-run | " +
        "drain, leave as r01-n02, join slurm as gpu-r01-02 |",
    );
    // AND the only node of the rack that changes is the renamed one
    expect(text).toContain("### r01 · 1 of 4 nodes change");
  });

  it("names at most five renamed nodes, then how many more", () => {
    const renamed = [1, 2, 3, 4, 5, 6, 7].map((i) =>
      rc("rackform_machine", `n${i}`, ["delete", "create"], { name: `r01-n0${i}` }, { name: `gpu-0${i}` }),
    );
    expect(md(plan(renamed))).toContain(
      "⚠ rename → reimage: nodes r01-n01 → gpu-01, r01-n02 → gpu-02, r01-n03 → gpu-03, r01-n04 → gpu-04, " +
        "r01-n05 → gpu-05 and 2 more — each is released",
    );
  });

  it("a machine replaced under the same name is no rename", () => {
    const same = rc("rackform_machine", "n1", ["delete", "create"], { name: "r01-n01" }, { name: "r01-n01" });
    expect(md(plan([same]))).not.toContain("rename");
  });
});

/** A passed gate with evidence of 371 GB/s and a 72h burn-in, recorded under 370 GB/s. */
const gate = { machine_id: "maas:abc", id: "maas:abc", nccl_min_busbw_gbps: 370, burn_in: "72h", passed: true };
const evidence = JSON.stringify({
  format: "rackform-acceptance/v1",
  nccl: { busbw_gbps: 371 },
  burn_in: { requested_s: 259200, passed: true },
});

describe("plan-summary on acceptance-policy edits", () => {
  it("an edit the evidence covers is recorded in place: no acceptance run counted, nothing disruptive", () => {
    const before = { ...gate, evidence };
    const after = { ...before, nccl_min_busbw_gbps: 360, burn_in: "48h" };
    const text = md(plan([rc("rackform_acceptance", "n1", ["update"], before, after)]));
    expect(text).toContain("policy recorded, evidence covers it (nccl_min_busbw_gbps 370 → 360, burn_in 72h → 48h)");
    expect(text).not.toContain("run acceptance");
    expect(text).not.toContain("⚠");
  });

  it("an edit the evidence does not cover re-runs the gate and says why, with what the evidence measured", () => {
    const before = { ...gate, evidence };
    const after = { ...gate, nccl_min_busbw_gbps: 372, passed: null, evidence: null };
    const change = rc("rackform_acceptance", "n1", ["delete", "create"], before, after, {
      after_unknown: { passed: true, evidence: true },
      replace_paths: [["nccl_min_busbw_gbps"]],
    });
    expect(md(plan([change]))).toContain(
      "re-run (evidence does not cover nccl_min_busbw_gbps 370 → 372: measured 371 GB/s)",
    );
  });

  it("an update that re-reads the gate (a first recording after an import) is still a re-check", () => {
    const before = { ...gate, nccl_min_busbw_gbps: null, evidence };
    const after = { ...gate, passed: null, evidence: null };
    const change = rc("rackform_acceptance", "n1", ["update"], before, after, {
      after_unknown: { passed: true, evidence: true },
    });
    expect(md(plan([change]))).toContain("re-check: update (evidence, nccl_min_busbw_gbps, passed)");
  });
});

describe("plan-summary on a rolling reimage", () => {
  it("shows the deployment's in-place reimage, the gate re-run after it and the member's one step", () => {
    const ref = (v: string) => `ubuntu-gpu@${v} sha256:ab`;
    const image = (version: string) => ({ name: "ubuntu-gpu", version, sha256: "ab" });
    const deployment = rc(
      "rackform_deployment",
      "n1",
      ["update"],
      { id: "maas:abc", machine_id: "maas:abc", rolling: true, image: image("2026.06.2"), image_ref: ref("2026.06.2") },
      { id: "maas:abc", machine_id: "maas:abc", rolling: true, image: image("2026.07.1"), image_ref: ref("2026.07.1") },
    );
    const acceptance = rc(
      "rackform_acceptance",
      "n1",
      ["update"],
      { ...gate, evidence, image_ref: ref("2026.06.2") },
      { ...gate, evidence, image_ref: ref("2026.07.1") },
      { after_unknown: { passed: true } },
    );
    const member = rc(
      "rackform_cluster_member",
      "n1",
      ["update"],
      { scheduler: "slurm", node: "r01-n01", gate_id: "maas:abc", joined: true, image_ref: ref("2026.06.2") },
      { scheduler: "slurm", node: "r01-n01", gate_id: "maas:abc", joined: true, image_ref: ref("2026.07.1") },
      { after_unknown: { state: true } },
    );
    const text = md(plan([deployment, acceptance, member]));
    expect(text).toContain(
      "| reimage 2026.06.2 → 2026.07.1 (rolling, in place) | re-run after the rolling reimage | " +
        "drain, reimage, gate, rejoin slurm (one step, within the budget) |",
    );
  });
});
