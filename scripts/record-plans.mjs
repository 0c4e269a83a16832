// Records the golden plans that test/unit/cli/plan-summary.test.ts summarises: real `show -json` output of real plans
// of the demo rack (8 nodes via MAAS, Terraform) against the lab — create, reimage, partial failure, destroy, and the
// day-2 plans: rollout (a reimage by replacement under max_unavailable = 2 with one node removed), rolling (the same
// change on a rolling rack: each node reimaged in place by its member) and drift (an outlet switched off and a GPU lost
// behind the engine's back); and of a 4-node rack with one BlueField-3 per node built by the Rack
// construct (test/support/rack-dpu.ts): dpu-bfb (the flavor's BFB version changed) and dpu-mode (its mode changed);
// and rename (one node of a converged 4-node rack renamed); and firmware (a rolling rack holding a firmware baseline,
// three of its nodes drifted from it).
// Secrets never reach the files: variable values are replaced and every lab credential is searched for before writing.
// Run after changing the provider or the demo configuration: `npm run build && node --import tsx scripts/record-plans.mjs`
// (RACKFORM_PLAN_ENGINE=tofu records with OpenTofu instead; RACKFORM_PLANS=rollout,drift records only those scenarios,
// named as the files are, so that the others keep their recorded ids).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engine, Workdir } from "../test/support/engines.ts";
import { baseline, firmwareLab, OLD } from "../test/support/firmware-rack.ts";
import { goldenImage, rackConfig, rackStack, slurmNodes, uploadGoldenImage } from "../test/support/rack.ts";
import { BFB_V1, BFB_V2, dpuLab, dpuRackEnv, dpuRackJson } from "../test/support/rack-dpu.ts";
import { builtProvider, freshInstall, ROOT, testLab } from "../test/support/rackform-e2e.ts";

const OUT = join(ROOT, "test", "fixtures", "plans");
const REIMAGE = goldenImage("2026.07.1");

/** Every credential the lab hands out, so that none of them can end up in a fixture. */
function labSecrets(lab) {
  const i = lab.info;
  return [
    ...i.nodes.map((n) => n.bmc.password),
    ...i.pdus.map((p) => p.password),
    ...i.nodes.flatMap((n) => (n.dpus ?? []).map((d) => d.password)),
    i.maas?.apiKey,
    ...(i.maas?.apiKey ?? "").split(":"),
    i.slurm?.token,
  ].filter((s) => typeof s === "string" && s.length >= 6);
}

/** The plan as JSON with variable values replaced (the engine records them in the plan file, sensitive or not). */
function scrub(planJson, secrets) {
  const plan = JSON.parse(planJson);
  for (const v of Object.values(plan.variables ?? {})) v.value = "(scrubbed by record-plans)";
  const text = `${JSON.stringify(plan, null, 2)}\n`;
  const leaked = secrets.filter((s) => text.includes(s));
  if (leaked.length > 0) throw new Error(`a lab credential is in the plan JSON (${leaked.length} found): not written`);
  return text;
}

const ONLY = process.env.RACKFORM_PLANS?.split(",").filter(Boolean);
const wanted = (...names) => !ONLY || names.some((n) => ONLY.includes(n));

async function record(w, name, planArgs, secrets) {
  if (!wanted(name)) return;
  const plan = await w.run(["plan", "-out=golden.tfplan", "-no-color", ...planArgs]);
  if (plan.code !== 0) throw new Error(`plan for ${name} failed\n${plan.stdout}\n${plan.stderr}`);
  const shown = await w.ok(["show", "-json", "-no-color", "golden.tfplan"]);
  const file = join(OUT, `${name}.json`);
  writeFileSync(file, scrub(shown.stdout, secrets));
  process.stderr.write(`wrote ${file}\n`);
}

async function main() {
  const eng = engine(process.env.RACKFORM_PLAN_ENGINE === "tofu" ? "tofu" : "terraform");
  const cliConfig = await freshInstall([builtProvider()]);
  mkdirSync(OUT, { recursive: true });

  // create, then reimage and destroy of the converged rack
  const lab = wanted("create", "reimage", "destroy") ? await testLab(8) : undefined;
  if (lab)
    try {
      await uploadGoldenImage(lab);
      await uploadGoldenImage(lab, REIMAGE);
      const secrets = labSecrets(lab);
      const nodes = lab.info.nodes.map((n) => n.name);
      const w = await rackStack(eng, cliConfig, lab, "maas", nodes);
      await w.ok(["init", "-no-color"]);
      await record(w, "create", [], secrets);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      await w.write({ "main.tf": rackConfig(lab, "maas", nodes, { image: REIMAGE }) });
      await record(w, "reimage", [], secrets);
      await w.write({ "main.tf": rackConfig(lab, "maas", nodes) });
      await record(w, "destroy", ["-destroy"], secrets);
    } finally {
      await lab.close();
    }

  // day 2 on a converged rack under max_unavailable = 2: a reimage that also removes the last node, then (config
  // restored) an outlet switched off and a GPU lost behind the engine's back
  const day2 = wanted("rollout", "drift") ? await testLab(8) : undefined;
  if (day2)
    try {
      await uploadGoldenImage(day2);
      await uploadGoldenImage(day2, REIMAGE);
      const secrets = labSecrets(day2);
      const nodes = day2.info.nodes.map((n) => n.name);
      // Reimaged by replacement (not rolling): the chain of six operations per node the summary shows.
      const budget = { maxUnavailable: 2, rolling: false };
      const w = await rackStack(eng, cliConfig, day2, "maas", nodes, budget);
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      await w.write({ "main.tf": rackConfig(day2, "maas", nodes.slice(0, -1), { ...budget, image: REIMAGE }) });
      await record(w, "rollout", [], secrets);
      await w.write({ "main.tf": rackConfig(day2, "maas", nodes, budget) });
      const off = day2.info.nodes[1];
      day2.world.setOutlet(off.pdu, off.outlet, "Off");
      day2.world.faults.add({ kind: "missing-gpu", node: nodes[4] });
      // slurmctld notices the host is gone after SlurmdTimeout (the lab's profile): record the plan after that
      while (!(await slurmNodes(day2)).get(off.name)?.state.includes("DOWN"))
        await new Promise((r) => setTimeout(r, 50));
      await record(w, "drift", [], secrets);
    } finally {
      await day2.close();
    }

  // the same reimage on a rolling rack (max_unavailable = 2 recorded with rolling deployments): in place per node
  const rolling = wanted("rolling") ? await testLab(8) : undefined;
  if (rolling)
    try {
      await uploadGoldenImage(rolling);
      await uploadGoldenImage(rolling, REIMAGE);
      const secrets = labSecrets(rolling);
      const nodes = rolling.info.nodes.map((n) => n.name);
      const budget = { maxUnavailable: 2 };
      const w = await rackStack(eng, cliConfig, rolling, "maas", nodes, budget);
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      await w.write({ "main.tf": rackConfig(rolling, "maas", nodes.slice(0, -1), { ...budget, image: REIMAGE }) });
      await record(w, "rolling", [], secrets);
    } finally {
      await rolling.close();
    }

  // two nodes fail the acceptance gate (NCCL below threshold); the plan after that apply
  const faulty = wanted("partial-failure") ? await testLab(8) : undefined;
  if (faulty)
    try {
      await uploadGoldenImage(faulty);
      const secrets = labSecrets(faulty);
      const nodes = faulty.info.nodes.map((n) => n.name);
      for (const n of [nodes[2], nodes[5]]) faulty.world.faults.add({ kind: "marginal-nccl", node: n, value: 300 });
      const w = await rackStack(eng, cliConfig, faulty, "maas", nodes);
      await w.ok(["init", "-no-color"]);
      const failed = await w.run(["apply", "-auto-approve", "-no-color"]);
      if (failed.code === 0) throw new Error("the apply with two faulty nodes succeeded: the fault did not take");
      await record(w, "partial-failure", [], secrets);
    } finally {
      await faulty.close();
    }
  // a converged 4-node rack, one node renamed (its machine's name and its scheduler node): a replacement down the chain
  const renaming = wanted("rename") ? await testLab(4) : undefined;
  if (renaming)
    try {
      await uploadGoldenImage(renaming);
      const secrets = labSecrets(renaming);
      const nodes = renaming.info.nodes.map((n) => n.name);
      const w = await rackStack(eng, cliConfig, renaming, "maas", nodes);
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      const [from, to] = [nodes[1], "gpu-r01-02"];
      const config = rackConfig(renaming, "maas", nodes)
        .replace(`name         = "${from}"`, `name         = "${to}"`)
        .replace(`node       = "${from}"`, `node       = "${to}"`);
      if (config.split(`"${to}"`).length !== 3) throw new Error("the rename did not reach both the machine and member");
      await w.write({ "main.tf": config });
      await record(w, "rename", [], secrets);
    } finally {
      await renaming.close();
    }

  // a converged 4-node rack with a BlueField-3 per node: a new BFB version, then (back on it) a mode change
  const dpus = wanted("dpu-bfb", "dpu-mode") ? await dpuLab(4) : undefined;
  if (dpus)
    try {
      const { lab } = dpus;
      const secrets = labSecrets(lab);
      const w = await Workdir.create(eng, cliConfig, { "cdk.tf.json": dpuRackJson(lab, "r01") }, dpuRackEnv(lab));
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      await w.write({ "cdk.tf.json": dpuRackJson(lab, "r01", BFB_V2) });
      await record(w, "dpu-bfb", [], secrets);
      await w.write({ "cdk.tf.json": dpuRackJson(lab, "r01", BFB_V1, "NicMode") });
      await record(w, "dpu-mode", [], secrets);
      rmSync(w.dir, { recursive: true, force: true });
    } finally {
      await dpus.lab.close();
      rmSync(dpus.stateDir, { recursive: true, force: true });
    }

  // a converged rolling 8-node rack holding a firmware baseline: two nodes back on an old BIOS, one with SR-IOV off
  const firmware = wanted("firmware") ? await firmwareLab() : undefined;
  if (firmware)
    try {
      const secrets = labSecrets(firmware);
      const nodes = firmware.info.nodes.map((n) => n.name);
      const opts = { maxUnavailable: 2, firmware: baseline(firmware, nodes) };
      const w = await rackStack(eng, cliConfig, firmware, "maas", nodes, opts);
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      for (const n of nodes.slice(0, 2)) firmware.world.node(n).firmware.bios = OLD;
      firmware.world.node(nodes[2]).bios.current.SriovGlobalEnable = "Disabled";
      await record(w, "firmware", [], secrets);
    } finally {
      await firmware.close();
    }

  // As `npm run lint` wants them (biome folds short arrays), so that re-recording shows only real differences.
  execFileSync(join(ROOT, "node_modules", ".bin", "biome"), ["format", "--write", OUT], { stdio: "inherit" });
}

// Everything the scenarios make in the temp folder (workdirs, lab state, the provider mirror) goes into one folder of
// this run's, removed at the end: engines and labs read TMPDIR when they make theirs.
const scratch = mkdtempSync(join(tmpdir(), "rf-record-"));
process.env.TMPDIR = scratch;
try {
  await main();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
