/**
 * A rack whose flavor has one BlueField-3 per node, built by the Rack construct (synthesized in process, applied by
 * the engine itself: the cdktf CLI adds nothing this test needs): from outlets off and DPUs in NicMode on their
 * factory BFB to every node joined in Slurm with its DPU in DpuMode on the pinned BFB, each host enrolled only after
 * its DPU; then a new BFB version plans exactly the DPU installs (no machine replaced), plan-summary shows them, and
 * the apply installs them and leaves an empty plan. Nodes and DPU BMC addresses come from the lab file as the
 * examples read it (examples/lab-file.ts, `rackLayout(lab, rack, { dpus: true })`; test/support/rack-dpu.ts).
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlanJson, renderMarkdown, summarise } from "../../src/cli/plan-summary/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { DEPLOY_TIMEOUT_MS } from "../support/examples.js";
import { expectIdle, shownState } from "../support/rack.js";
import { dpuLab, dpuRackEnv, dpuRackJson, BFB_V1 as V1, BFB_V2 as V2 } from "../support/rack-dpu.js";
import { builtProvider, freshInstall, outletOn } from "../support/rackform-e2e.js";

let lab: Lab;
let stateDir: string;
let cliConfig: string;
const dirs: string[] = [];

beforeAll(async () => {
  // 4 nodes per engine, each with one BlueField-3 in NicMode on its factory BFB, outlets off
  ({ lab, stateDir } = await dpuLab(4 * ENGINES.length));
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
  for (const d of [stateDir, ...dirs]) if (d) await rm(d, { recursive: true, force: true });
});

describe.each(ENGINES.map((n, i) => [n, i] as const))(
  "a 4-node rack with a BlueField-3 per node under %s",
  (name, i) => {
    const rack = `r0${i + 1}`;
    const nodes = [1, 2, 3, 4].map((k) => `${rack}-n0${k}`);
    const dpuOf = (n: string) => lab.world.dpus.get(`${n}-dpu0`)!;
    let w: Workdir;

    beforeAll(async () => {
      w = await Workdir.create(engine(name), cliConfig, { "cdk.tf.json": dpuRackJson(lab, rack) }, dpuRackEnv(lab));
      dirs.push(w.dir);
    });

    it(
      "converges from outlets off to joined, every DPU in DpuMode on the pinned BFB before its host is enrolled",
      async () => {
        // GIVEN four unpowered nodes whose DPUs run NicMode on the factory BFB
        expect(nodes.filter((n) => outletOn(lab, n))).toEqual([]);
        expect(nodes.map((n) => dpuOf(n).mode)).toEqual(["NicMode", "NicMode", "NicMode", "NicMode"]);
        await w.ok(["init", "-no-color"]);
        // WHEN apply
        const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
        // THEN 4 × 7 resources and the image: every node joined, every DPU in DpuMode on V1 with the BMC's rshim
        expect(apply.stdout).toContain("Apply complete! Resources: 29 added, 0 changed, 0 destroyed.");
        await expectIdle(lab, nodes);
        for (const n of nodes) {
          expect(dpuOf(n), n).toMatchObject({ mode: "DpuMode", bfb: V1, hostRshim: "Disabled", bmcRshim: true });
        }
        // AND each host was enrolled only once its DPU was ready: the engine logs the DPU's creation complete
        // before the machine's creation starts
        for (const n of nodes) {
          const id = n.replaceAll("-", "_");
          const dpuDone = apply.stdout.indexOf(`rackform_dpu.${id}_dpu0: Creation complete`);
          const machineStart = apply.stdout.indexOf(`rackform_machine.${id}_machine: Creating...`);
          expect(dpuDone, n).toBeGreaterThan(-1);
          expect(machineStart, n).toBeGreaterThan(dpuDone);
        }
        const state = await shownState(w);
        expect(state.filter((r) => r.type === "rackform_bmc").map((r) => r.values.conformant)).toEqual([
          true,
          true,
          true,
          true,
        ]);
        const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
        expect(again.code, again.stdout + again.stderr).toBe(0);
      },
      DEPLOY_TIMEOUT_MS,
    );

    it(
      "a new BFB version plans exactly the DPU installs, plan-summary shows them, and apply installs them",
      async () => {
        // GIVEN the flavor's BFB pinned to V2
        await w.write({ "cdk.tf.json": dpuRackJson(lab, rack, V2) });
        // WHEN plan
        await w.ok(["plan", "-out=bfb.tfplan", "-no-color"]);
        const shown = await w.ok(["show", "-json", "-no-color", "bfb.tfplan"]);
        const plan = parsePlanJson(shown.stdout, "bfb.tfplan");
        // THEN the only changes are one in-place rackform_dpu update per node; no machine (or anything) is replaced
        const changes = (plan.resource_changes ?? []).filter((c) => !c.change.actions.every((a) => a === "no-op"));
        expect(changes.map((c) => [c.type, c.change.actions]).sort()).toEqual(
          nodes.map(() => ["rackform_dpu", ["update"]]),
        );
        // AND plan-summary reads four BFB installs and nothing disruptive
        const text = renderMarkdown(summarise([{ plan, source: "bfb.json", label: rack }])).replace(/ {2,}/g, " ");
        expect(text).toContain(`### ${rack} · 4 of 4 nodes change`);
        expect(text).toContain("4 BFB install\n");
        for (const n of nodes) expect(text).toContain(`| ${n} | BFB ${V1} → ${V2} |`);
        expect(text).not.toContain("⚠");
        // AND apply installs V2 on every DPU, and the next plan is empty
        const apply = await w.ok(["apply", "-auto-approve", "-no-color", "bfb.tfplan"]);
        expect(apply.stdout).toContain("Apply complete! Resources: 0 added, 4 changed, 0 destroyed.");
        expect(nodes.map((n) => dpuOf(n).bfb)).toEqual(nodes.map(() => V2));
        const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
        expect(again.code, again.stdout + again.stderr).toBe(0);
      },
      DEPLOY_TIMEOUT_MS,
    );
  },
);
