/**
 * The fleet example as users run it, from an app of its own with the packed packages installed from their tarballs:
 * `cdktf deploy '*' --auto-approve` of fleet-rollout (3 racks of 4, a canary wave,
 * state in PostgreSQL, maxUnavailable 1) under Terraform and under OpenTofu against the lab. A wave-1 acceptance
 * failure halts the deploy before any request reaches a wave-2 BMC; once the fault is gone the racks converge in
 * waves; locking holds. On day 2 image bumps roll every node of the three stacks in place, one at a time across the
 * stacks, at the engine's default parallelism and at --terraform-parallelism=2; a bump whose canary nodes fail their
 * gates halts with the evidence, wave 2 untouched, and one deploy after the fix finishes it.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { CDKTF_FLAGS, CdktfProject, capture, outputOf } from "../support/cdktf.js";
import { ENGINES, engine } from "../support/engines.js";
import {
  DEPLOY_TIMEOUT_MS,
  exampleEnv,
  expectNoDiff,
  maasStatuses,
  rackLab,
  secretsOf,
  slurmStates,
  synthStacks,
} from "../support/examples.js";
import { installPacked, packTarballs } from "../support/packed-app.js";
import type { Postgres } from "../support/postgres.js";
import { sampleSlurm } from "../support/rack.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";
import { testDatabase } from "../support/shared-counterparts.js";

const CLI = join(ROOT, "dist", "cli", "main.js");
let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** The two ways a pipeline runs an image bump: the engine's default parallelism, and one far below the nodes. */
const BUMPS: readonly { version: string; extra: readonly string[]; how: string }[] = [
  { version: "2026.07.1", extra: [], how: "at the engine's default parallelism" },
  { version: "2026.08.1", extra: ["--terraform-parallelism=2"], how: "at --terraform-parallelism=2" },
];

describe.each(ENGINES)("the fleet example under %s", (name) => {
  describe("fleet-rollout (3 racks, 2 waves, state in PostgreSQL)", () => {
    let lab: Lab;
    let labFile: string;
    let pg: Postgres;
    let p: CdktfProject;
    let packs: string | undefined;
    beforeAll(async () => {
      pg = await testDatabase(name);
      ({ lab, labFile } = await rackLab(3, 4));
      p = await CdktfProject.create(
        "fleet-rollout",
        engine(name),
        cliConfig,
        exampleEnv(lab, labFile, {
          RACKFORM_PG_CONN_STR: pg.connStr,
          PGPASSWORD: pg.password,
          // As a pipeline would: wait for a state lock instead of failing. Terraform's pg backend also takes one
          // database-wide lock while an apply creates a new stack's state, so a wave's new racks queue for it once.
          TF_CLI_ARGS_apply: "-lock-timeout=10m",
        }),
      );
      // The app of a platform team's own: the packed packages installed from their tarballs, the example's code.
      packs = await mkdtemp(join(tmpdir(), "rf-fleet-packs-"));
      await installPacked(p.dir, await packTarballs(packs));
      await writeApp(p, lab);
      await synthStacks(p);
    });
    afterAll(async () => {
      await lab?.close();
      await pg?.stop();
      if (packs) await rm(packs, { recursive: true, force: true });
    });

    const rackOf = (node: string) => lab.info.nodes.find((n) => n.name === node)!.rack;
    /** Stacks by wave: wave 1 has no dependencies, wave 2 depends on wave 1. */
    const waves = () => {
      const stacks = p.stacks();
      const first = stacks.filter((s) => s.dependencies.length === 0).map((s) => s.name);
      const second = stacks.filter((s) => s.dependencies.length > 0);
      return { first, second: second.map((s) => s.name), dependsOn: second.map((s) => s.dependencies.sort()) };
    };

    it("synthesizes one stack per rack: the canary rack in wave 1, the other two in wave 2, each depending on wave 1", () => {
      const w = waves();
      expect(w.first).toHaveLength(1);
      expect(w.second).toHaveLength(2);
      for (const deps of w.dependsOn) expect(deps).toEqual(w.first);
    });

    it(
      "halts: a wave-1 node failing its acceptance gate fails the deploy, and no request ever reaches a wave-2 BMC or PDU",
      async () => {
        // GIVEN a marginal NCCL bandwidth on the canary rack's first node
        const canary = lab.info.nodes[0];
        lab.world.faults.add({ kind: "marginal-nccl", node: canary.name, value: 300 });
        const since = lab.requests.last();

        // WHEN every stack is deployed
        const deploy = await p.deploy();

        // THEN the deploy fails at the gate, naming measured against threshold
        expect(deploy.code, outputOf(deploy)).not.toBe(0);
        expect((deploy.stdout + deploy.stderr).replace(/\s+/g, " ")).toContain(
          "measured all_reduce busbw 300 GB/s; threshold ≥ 370 GB/s",
        );
        // AND wave 2 never started: nothing addressed its racks' BMCs or PDUs
        const wave1Rack = canary.rack;
        const wave2Targets = new Set([
          ...lab.info.nodes.filter((n) => n.rack !== wave1Rack).map((n) => n.name),
          ...lab.info.pdus.filter((d) => d.rack !== wave1Rack).map((d) => d.id),
        ]);
        const entries = lab.requests.since(since);
        expect(entries.filter((e) => e.target === canary.name).length).toBeGreaterThan(0);
        expect(entries.filter((e) => e.target !== undefined && wave2Targets.has(e.target))).toEqual([]);
        expect(lab.info.nodes.filter((n) => n.rack !== wave1Rack && lab.world.outletOf(n.name).on)).toEqual([]);
        lab.world.faults.clear();
      },
      DEPLOY_TIMEOUT_MS,
    );

    it(
      "once the fault is gone, cdktf deploy converges all three racks in waves; cdktf diff shows no changes for every stack",
      async () => {
        const deploy = await p.deploy();
        expect(deploy.code, outputOf(deploy)).toBe(0);
        for (const secret of secretsOf(lab)) expect(deploy.stdout + deploy.stderr).not.toContain(secret);
        const nodes = lab.info.nodes.map((n) => n.name);
        expect(new Set(nodes.map(rackOf)).size).toBe(3);
        expect(await maasStatuses(lab, nodes)).toEqual(nodes.map((n) => [n, "Deployed"]));
        expect(await slurmStates(lab, nodes)).toEqual(nodes.map((n) => [n, "IDLE"]));
        await expectNoDiff(p);
      },
      DEPLOY_TIMEOUT_MS,
    );

    /** An image bump to `version` deployed with `cdktf deploy '*' <extra>`: every node rolled, one out at a time. */
    async function rollImage(version: string, extra: readonly string[]): Promise<void> {
      const nodes = lab.info.nodes.map((n) => n.name);
      // GIVEN the app with a new image version (its rackform_image in the canary stack), maxUnavailable 1 as before
      await writeApp(p, lab, version);
      const sampler = sampleSlurm(lab, nodes, 50);
      // WHEN every stack is deployed, waves as before
      const deploy = await p.run(["deploy", "*", "--auto-approve", ...extra, ...CDKTF_FLAGS]);
      const samples = await sampler.stop();
      // THEN it converges in place (nothing destroyed): every node runs the new image, joined; never two nodes of the
      // partition out at once
      expect(deploy.code, outputOf(deploy)).toBe(0);
      const applied = [
        ...deploy.stdout.matchAll(/Apply complete! Resources: (\d+) added, (\d+) changed, (\d+) destroyed/g),
      ];
      expect(applied.length, outputOf(deploy)).toBe(3);
      expect(applied.map((m) => [m[1], m[3]])).toEqual(applied.map(() => ["0", "0"]));
      expect(Math.max(...samples.map((x) => x.out.length)), version).toBe(1);
      expect(new Set(samples.flatMap((x) => x.out))).toEqual(new Set(nodes));
      expect(await slurmStates(lab, nodes)).toEqual(nodes.map((n) => [n, "IDLE"]));
      const images = await maasImages(lab);
      expect(nodes.map((n) => images.get(n))).toEqual(nodes.map(() => `ubuntu-gpu-${version}`));
      await expectNoDiff(p);
    }

    for (const bump of BUMPS) {
      it(
        `day 2: an image bump rolls every node of the three stacks in place through cdktf deploy '*' (no -target) ${bump.how}, one node of the partition out at a time`,
        () => rollImage(bump.version, bump.extra),
        DEPLOY_TIMEOUT_MS,
      );
    }

    it(
      "day 2: a bump whose canary nodes fail their gates halts with the evidence, wave 2 untouched; after the fix one deploy finishes it",
      async () => {
        const nodes = lab.info.nodes.map((n) => n.name);
        const canaryRack = lab.info.nodes[0].rack;
        const canary = nodes.filter((n) => rackOf(n) === canaryRack);
        const wave2 = nodes.filter((n) => rackOf(n) !== canaryRack);
        const failing = [canary[1], canary[2]];
        // GIVEN two canary nodes whose NCCL bandwidth will fall short after their reimage
        for (const node of failing) lab.world.faults.add({ kind: "marginal-nccl", node, value: 300 });
        await writeApp(p, lab, "2026.09.1");
        const sampler = sampleSlurm(lab, nodes, 50);
        // WHEN every stack is deployed
        const deploy = await p.run(["deploy", "*", "--auto-approve", ...CDKTF_FLAGS]);
        const samples = await sampler.stop();
        // THEN the deploy fails (it does not hang) naming the gate's measured value against its threshold
        expect(deploy.code, outputOf(deploy)).not.toBe(0);
        const out = outputOf(deploy).replace(/\s+/g, " ");
        expect(out).toContain("measured all_reduce busbw 300 GB/s; threshold ≥ 370 GB/s");
        expect(Math.max(...samples.map((x) => x.out.length))).toBe(1);
        // AND a failed node is held out of service by MAAS (Failed testing after the gate's own run, or Broken) with
        // its evidence; every other canary node is joined
        const statuses = new Map(await maasStatuses(lab, nodes));
        const broken = canary.filter((n) => ["Failed testing", "Broken"].includes(statuses.get(n) ?? ""));
        expect(broken.length, `${JSON.stringify([...statuses])}\n${outputOf(deploy)}`).toBeGreaterThanOrEqual(1);
        expect(broken.every((n) => failing.includes(n))).toBe(true);
        const states = new Map(await slurmStates(lab, nodes));
        for (const n of canary.filter((x) => !broken.includes(x))) expect(states.get(n), n).toBe("IDLE");
        // AND wave 2 never started: its nodes run the previous image, joined
        const images = await maasImages(lab);
        for (const n of wave2) expect([images.get(n), states.get(n)], n).toEqual(["ubuntu-gpu-2026.08.1", "IDLE"]);

        // WHEN the faults are cleared and the app deployed once more
        lab.world.faults.clear();
        const again = await p.run(["deploy", "*", "--auto-approve", ...CDKTF_FLAGS]);
        // THEN the rollout finishes: every node on the new image, joined, and nothing left to plan
        expect(again.code, outputOf(again)).toBe(0);
        expect(await slurmStates(lab, nodes)).toEqual(nodes.map((n) => [n, "IDLE"]));
        const after = await maasImages(lab);
        expect(nodes.map((n) => after.get(n))).toEqual(nodes.map(() => "ubuntu-gpu-2026.09.1"));
        await expectNoDiff(p);
      },
      DEPLOY_TIMEOUT_MS,
    );

    it(
      "keeps each stack's state in its own PostgreSQL row, and the engine takes the state lock",
      async () => {
        // THEN one state row per stack, each holding that stack's resources
        const rows = await pg.query(
          "SELECT table_schema FROM information_schema.tables WHERE table_name = 'states' ORDER BY table_schema",
        );
        const schemas = rows.map((r) => r[0]);
        // One schema per stack, named as RackformStack documents: rackform_<stack id> with non-alphanumerics as "_".
        const schemaOf = (stack: string) => `rackform_${stack.replace(/[^A-Za-z0-9]/g, "_")}`;
        expect(schemas).toEqual(
          p
            .stacks()
            .map((s) => schemaOf(s.name))
            .sort(),
        );
        for (const schema of schemas) {
          const [[count, size]] = await pg.query(`SELECT count(*), max(length(data)) FROM "${schema}".states`);
          expect([schema, count]).toEqual([schema, "1"]);
          expect(Number(size)).toBeGreaterThan(1000);
        }

        // WHEN another pipeline holds a wave-2 stack's state lock THEN cdktf diff of that stack fails to lock
        const stack = waves().second[0];
        const schema = schemaOf(stack);
        const release = await pg.holdLock(`SELECT pg_try_advisory_lock(id) FROM "${schema}".states`);
        try {
          const locked = await p.diff(stack);
          expect(locked.code, outputOf(locked)).not.toBe(0);
          expect(outputOf(locked)).toMatch(/Error acquiring the state lock/);
        } finally {
          await release();
        }
        // AND once released, the stack plans again with no changes
        const diff = await p.diff(stack);
        expect(diff.stdout, outputOf(diff)).toMatch(/No changes\./);
      },
      DEPLOY_TIMEOUT_MS,
    );

    it(
      "rackform watch --once reads every stack's state straight from PostgreSQL (postgres://…#schema) and counts each rack joined, creating nothing there",
      async () => {
        const schemaOf = (stack: string) => `rackform_${stack.replace(/[^A-Za-z0-9]/g, "_")}`;
        const tablesBefore = await pg.query("SELECT count(*) FROM information_schema.tables");
        // WHEN the watch is given each stack as LABEL=postgres://…#schema (the password only in PGPASSWORD)
        const sources = p.stacks().map((s) => `${s.name}=${pg.connStr}#${schemaOf(s.name)}`);
        const once = await capture(process.execPath, [CLI, "watch", ...sources, "--once"], ROOT, {
          ...process.env,
          TF_CLI_CONFIG_FILE: cliConfig,
          TERRAFORM_BINARY_NAME: engine(name).bin,
          PGPASSWORD: pg.password,
        });
        // THEN every rack row counts its 4 nodes joined, and nothing else
        expect(once.code, outputOf(once)).toBe(0);
        const rows = once.stdout.split("\n").filter((l) => /^\S+\s+4\s+(0\s+){10}4\s*$/.test(l));
        expect(rows, once.stdout).toHaveLength(3);
        // AND the read-only pg backend created no schema, table or index, and no secret was printed
        expect(await pg.query("SELECT count(*) FROM information_schema.tables")).toEqual(tablesBefore);
        expect(once.stdout + once.stderr).not.toContain(pg.password);
        for (const secret of secretsOf(lab)) expect(once.stdout + once.stderr).not.toContain(secret);
      },
      DEPLOY_TIMEOUT_MS,
    );
  });
});

/**
 * Points the project at a copy of the fleet example in its own directory (where the packed packages are installed),
 * with image `version` (served by the lab, sha256 of its bytes) when one is given, as a pipeline's image bump would
 * change the app. The example's maxUnavailable 1 stays.
 */
async function writeApp(p: CdktfProject, lab: Lab, version?: string): Promise<void> {
  let app = (await readFile(join(ROOT, "examples", "fleet-rollout", "main.ts"), "utf8")).replace(
    '"../lab-file.js"',
    JSON.stringify(join(ROOT, "examples", "lab-file.js")),
  );
  if (version !== undefined) {
    const file = `ubuntu-gpu-${version}.qcow2`;
    const bytes = `ubuntu-gpu-${version}`;
    lab.images.put(file, bytes);
    const sha = createHash("sha256").update(bytes).digest("hex");
    app = app
      .replace(/version: "[^"]+"/, `version: "${version}"`)
      .replace(/ubuntu-gpu-[\d.]+\.qcow2/, file)
      .replace(/sha256: "[0-9a-f]{64}"/, `sha256: "${sha}"`);
    expect(app).toContain(sha);
  }
  expect(app).toContain("maxUnavailable: 1");
  const main = join(p.dir, "main.ts");
  await writeFile(main, app);
  // @rackform/constructs and cdktf resolve from the app's own node_modules (the tarballs); tsx is the checkout's.
  const config = JSON.parse(await readFile(join(p.dir, "cdktf.json"), "utf8")) as { app: string };
  config.app = `${join(ROOT, "node_modules", ".bin", "tsx")} ${main}`;
  await writeFile(join(p.dir, "cdktf.json"), `${JSON.stringify(config, null, 2)}\n`);
}

/** The image each MAAS machine runs, by hostname. */
async function maasImages(lab: Lab): Promise<Map<string, string>> {
  const maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  try {
    return new Map((await maas.listMachines()).map((m) => [m.hostname, m.distroSeries]));
  } finally {
    await maas.close();
  }
}
