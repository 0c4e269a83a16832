/**
 * `rackform plan-summary` (built, in dist/) on real plans under Terraform and OpenTofu: the golden scenarios are planned
 * again against the lab, `show -json` is piped into the command, and the Markdown must count what the plan does and
 * match the committed snapshot — so the recorded fixtures cannot drift from what the engines really plan. The stack
 * uses CDKTF-style resource names (`r01-n01_deployment`), unlike the recorded HCL names: the summary must not care.
 */
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { CDKTF_FLAGS, CdktfProject, outputOf } from "../support/cdktf.js";
import { ENGINES, engine, type Workdir } from "../support/engines.js";
import { CHAIN, goldenImage, rackConfig, rackStack, slurmNodes, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, ROOT, summarise, testLab } from "../support/rackform-e2e.js";
import { until } from "../support/until.js";

const SNAPSHOTS = join(ROOT, "test", "unit", "cli", "__snapshots__");
const REIMAGE = goldenImage("2026.07.1");

interface Planned {
  readonly type: string;
  readonly name: string;
  readonly actions: readonly string[];
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown> | null;
}

/** The configuration with each resource renamed as a CDKTF construct id would be (`r01-n01_deployment`). */
function cdktfNames(hcl: string): string {
  return hcl.replace(/\b(rackform_[a-z_]+)(\.|" ")(r\d+_n\d+)\b/g, (_, type: string, sep: string, id: string) => {
    const name = `${id.replace("_", "-")}_${type.replace("rackform_", "")}`;
    return sep === "." ? `${type}.${name}` : `${type}" "${name}`;
  });
}

/** Plans into a file and returns `show -json` of it with its resource changes. */
async function showPlan(w: Workdir, args: string[] = []): Promise<{ json: string; changes: Planned[] }> {
  await w.ok(["plan", "-out=review.tfplan", "-no-color", ...args]);
  const json = (await w.ok(["show", "-json", "-no-color", "review.tfplan"])).stdout;
  const parsed = JSON.parse(json) as { resource_changes?: { type: string; name: string; change: Planned }[] };
  const changes = (parsed.resource_changes ?? []).map((c) => ({ ...c.change, type: c.type, name: c.name }));
  return { json, changes };
}

/** What the plan does, counted straight from resource_changes (one resource per node and type in a rack stack). */
function expectedCounts(changes: readonly Planned[]): string {
  const n = (type: string, test: (a: string, c: Planned) => boolean) =>
    changes.filter((c) => c.type === type && test(c.actions.join("+"), c)).length;
  const replaced = (a: string) => a === "delete+create" || a === "create+delete";
  // an outlet created, or switched back on (drift), powers its node on
  const powersOn = (a: string, c: Planned) =>
    a === "create" || (a === "update" && c.before?.power_state !== "On" && c.after?.power_state === "On");
  // a rolling reimage: the deployment and member change in place, the image version or image_ref moving
  const rolled = (a: string, c: Planned) =>
    a === "update" && c.before?.image_ref != null && c.before.image_ref !== c.after?.image_ref;
  const counted: [number, string][] = [
    [n("rackform_pdu_outlet", powersOn), "power on"],
    [n("rackform_machine", (a) => a === "create"), "enroll"],
    [n("rackform_machine", (a) => a === "delete"), "release"],
    [n("rackform_deployment", (a) => a === "create"), "deploy"],
    [n("rackform_deployment", (a, c) => replaced(a) || rolled(a, c)), "reimage"],
    [n("rackform_deployment", (a) => a === "delete"), "undeploy (disks erased)"],
    [n("rackform_acceptance", (a) => a === "create" || a === "update" || replaced(a)), "run acceptance"],
    [n("rackform_cluster_member", (a) => a === "create"), "join the cluster"],
    [n("rackform_cluster_member", (a, c) => replaced(a) || rolled(a, c)), "drain and rejoin"],
    [n("rackform_cluster_member", (a) => a === "delete"), "leave the cluster"],
  ];
  return counted
    .filter(([k]) => k > 0)
    .map(([k, what]) => `${k} ${what}`)
    .join(" · ");
}

/** The snapshot's Markdown without its footer (which names the file and the engine version). */
const body = (markdown: string) => markdown.replace(/<sub>Plans: .*<\/sub>\n$/s, "");
const snapshot = (name: string) => body(readFileSync(join(SNAPSHOTS, `${name}.md`), "utf8"));

/** Summarises a real plan and checks it against the plan's own counts and the golden snapshot. */
async function review(plan: { json: string; changes: Planned[] }, golden: string): Promise<string> {
  const r = await summarise(plan.json, ["--plan", "r01=-"]);
  expect([r.code, r.stderr]).toEqual([0, ""]);
  const counts = expectedCounts(plan.changes);
  expect(counts, "every reviewed plan changes something").not.toBe(""); // "\n\n" would match any summary
  expect(r.stdout).toContain(`\n${counts}\n`);
  // the stack names every resource `<node>_<type>`, so the nodes that change can be told from the names here
  const nodes = new Set(plan.changes.map((c) => c.name.split("_")[0]));
  const changed = new Set(plan.changes.filter((c) => c.actions.join() !== "no-op").map((c) => c.name.split("_")[0]));
  expect(r.stdout).toContain(`### r01 · ${changed.size} of ${nodes.size} nodes change\n`);
  expect(body(r.stdout)).toBe(snapshot(golden));
  return r.stdout;
}

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

describe.each(ENGINES)("plan-summary on real plans under %s", (name) => {
  describe("a rack created, reimaged and destroyed", () => {
    let lab: Lab;
    let w: Workdir;
    let nodes: string[];
    beforeAll(async () => {
      lab = await testLab(8);
      await uploadGoldenImage(lab);
      await uploadGoldenImage(lab, REIMAGE);
      nodes = lab.info.nodes.map((n) => n.name);
      w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
      await w.write({ "main.tf": cdktfNames(rackConfig(lab, "maas", nodes)) });
      await w.ok(["init", "-no-color"]);
    });
    afterAll(async () => {
      await lab?.close();
    });

    it("summarises the create plan: 8 nodes power on, enroll, deploy, run acceptance and join", async () => {
      const plan = await showPlan(w);
      expect(plan.changes.map((c) => c.actions.join())).toEqual(Array(48).fill("create"));
      const text = await review(plan, "create");
      expect(text).not.toContain("⚠");
    });

    it("summarises the reimage plan: 8 nodes reimaged, drained and rejoined, behind a warning", async () => {
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      await w.write({ "main.tf": cdktfNames(rackConfig(lab, "maas", nodes, { image: REIMAGE })) });
      const plan = await showPlan(w);
      const text = await review(plan, "reimage");
      expect(text).toContain("> **⚠ 8 nodes will be reimaged, 8 will be drained and rejoin the cluster.**");
    });

    it("summarises the destroy plan: 8 nodes undeployed, released and out of the cluster", async () => {
      await w.write({ "main.tf": cdktfNames(rackConfig(lab, "maas", nodes)) });
      const plan = await showPlan(w, ["-destroy"]);
      expect(plan.changes.filter((c) => c.actions.join() === "delete")).toHaveLength(CHAIN.length * 8);
      await review(plan, "destroy");
    });
  });

  describe("a rack where two nodes failed acceptance", () => {
    let lab: Lab;
    afterAll(async () => {
      await lab?.close();
    });

    it("summarises the plan after the failed apply: 2 nodes retry the gate and join", async () => {
      lab = await testLab(8);
      await uploadGoldenImage(lab);
      const nodes = lab.info.nodes.map((n) => n.name);
      for (const n of [nodes[2], nodes[5]]) lab.world.faults.add({ kind: "marginal-nccl", node: n, value: 300 });
      const w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
      await w.write({ "main.tf": cdktfNames(rackConfig(lab, "maas", nodes)) });
      await w.ok(["init", "-no-color"]);
      const failed = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
      const plan = await showPlan(w);
      const text = await review(plan, "partial-failure");
      expect(text).toContain(`will retry a step that failed in the last apply: ${nodes[2]}, ${nodes[5]}.`);
    });
  });

  // Day-2 plans on Terraform only (the summary reads the same JSON format from both engines; the four scenarios above
  // cover OpenTofu): a rollout under max_unavailable = 2 that also removes a node, then drift made behind the engine's
  // back. Only plans: nothing of either is applied.
  if (name === "terraform")
    describe("a converged rack under max_unavailable = 2, on day 2", () => {
      let lab: Lab;
      afterAll(async () => {
        await lab?.close();
      });

      /**
       * A fresh lab's 8-node rack converged under `budget`, then configured with the last node removed while the
       * others get a new image version: the rack's workdir, its nodes and the budget.
       */
      async function reimageWithOneRemoved(budget: { maxUnavailable: number; rolling?: boolean }) {
        await lab?.close();
        lab = await testLab(8);
        await uploadGoldenImage(lab);
        await uploadGoldenImage(lab, REIMAGE);
        const nodes = lab.info.nodes.map((n) => n.name);
        const w = await rackStack(engine(name), cliConfig, lab, "maas", nodes, budget);
        await w.write({ "main.tf": cdktfNames(rackConfig(lab, "maas", nodes, budget)) });
        await w.ok(["init", "-no-color"]);
        await w.ok(["apply", "-auto-approve", "-no-color"]);
        await w.write({
          "main.tf": cdktfNames(rackConfig(lab, "maas", nodes.slice(0, -1), { ...budget, image: REIMAGE })),
        });
        return { w, nodes };
      }

      it("summarises the rollout and the drift plans: 8 nodes (not 9), at most 2 out at once; causes beside fixes", async () => {
        // Reimaged by replacement (not rolling), as the recorded rollout was; the rolling rack is the next test's.
        const budget = { maxUnavailable: 2, rolling: false };
        const { w, nodes } = await reimageWithOneRemoved(budget);
        const rollout = await review(await showPlan(w), "rollout");
        expect(rollout).toContain(
          "Rollout, slurm partition gpu: 7 nodes reimaged and 1 removed, under max_unavailable = 2.",
        );
        expect(rollout).toContain(
          "Budget, slurm partition gpu: 7 nodes reimaged and 1 removed in r01; at most 2 of its nodes out of service at once for the whole change (max_unavailable = 2)",
        );
        // back to the applied configuration; then an outlet switched off and a GPU lost behind the engine's back
        await w.write({ "main.tf": cdktfNames(rackConfig(lab, "maas", nodes, budget)) });
        const off = lab.info.nodes[1];
        lab.world.setOutlet(off.pdu, off.outlet, "Off");
        lab.world.faults.add({ kind: "missing-gpu", node: nodes[4] });
        // as the recording did: slurmctld has noticed the host is gone (DOWN after SlurmdTimeout, the lab's profile)
        await until(
          `${off.name} DOWN in Slurm`,
          async () => (await slurmNodes(lab)).get(off.name)?.state.includes("DOWN"),
          {
            timeoutMs: 15_000,
            everyMs: 50,
          },
        );
        const drift = await review(await showPlan(w), "drift");
        expect(drift).toMatch(/\| r01-n02 +\| outlet power_state On → Off; BMC conformant true → false;/);
      });

      it("summarises the same change on a rolling rack: each node reimaged in place by its member, at most 2 out", async () => {
        const { w } = await reimageWithOneRemoved({ maxUnavailable: 2 });
        const rolling = await review(await showPlan(w), "rolling");
        expect(rolling).toContain(
          "Rollout, slurm partition gpu: 7 nodes reimaged and 1 removed, under max_unavailable = 2.",
        );
        expect(rolling).toContain("(rolling, in place)");
        expect(rolling).not.toContain("without a drain");
      });
    });

  describe("the gpu-rack example synthesized by CDKTF (the Rack construct's logical ids)", () => {
    let lab: Lab;
    afterAll(async () => {
      await lab?.close();
    });

    it("summarises its create plan as the HCL rack's: 8 nodes power on, enroll, deploy, run acceptance and join", async () => {
      lab = await testLab(8);
      const labFile = join(await mkdtemp(join(tmpdir(), "rf-plan-summary-")), "lab.json");
      lab.writeInfo(labFile);
      const project = await CdktfProject.create("gpu-rack", engine(name), cliConfig, {
        RACKFORM_LAB_FILE: labFile,
        TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
        TF_VAR_maas_api_key: lab.info.maas!.apiKey,
        TF_VAR_slurm_token: lab.info.slurm!.token,
      });
      const synth = await project.run(["synth", ...CDKTF_FLAGS]);
      expect(synth.code, outputOf(synth)).toBe(0);
      const [stack] = project.stacks();
      for (const args of [
        ["init", "-no-color"],
        ["plan", "-out=review.tfplan", "-no-color"],
      ]) {
        const r = await project.engineIn(stack.name, args);
        expect(r.code, outputOf(r)).toBe(0);
      }
      const shown = await project.engineIn(stack.name, ["show", "-json", "-no-color", "review.tfplan"]);
      expect(shown.code, outputOf(shown)).toBe(0);
      const parsed = JSON.parse(shown.stdout) as {
        resource_changes: { type: string; name: string; change: Planned }[];
      };
      const changes = parsed.resource_changes.map((c) => ({ ...c.change, type: c.type, name: c.name }));
      // the construct's names are not the HCL ones: the summary must find the nodes all the same
      expect(changes.filter((c) => /^r\d+_n\d+$/.test(c.name))).toEqual([]);
      const r = await summarise(shown.stdout, ["--plan", "r01=-"]);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toContain(`\n${expectedCounts(changes)}\n`);
      // The Image construct's rackform_image (once per stack, not per node) reads as the image it uploads, apart from
      // the node chain; the rest reads as the HCL rack's plan does
      const image = changes.filter((c) => c.type === "rackform_image").map((c) => c.after as Record<string, string>);
      expect(image).toHaveLength(1);
      const imageLine = `ℹ \`r01\`: image ${image[0].name} ${image[0].version} (new).\n\n`;
      expect(r.stdout).toContain(imageLine);
      expect(body(r.stdout.replace(imageLine, ""))).toBe(snapshot("create"));
    });
  });
});
