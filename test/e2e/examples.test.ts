/**
 * The examples as users run them: `cdktf deploy '*' --auto-approve` under Terraform and under OpenTofu
 * (TERRAFORM_BINARY_NAME), against the lab. Each converges (machines deployed, nodes joined in Slurm) and `cdktf diff`
 * afterwards shows no changes for every stack. The fleet proves its rollout: a wave-1 acceptance failure halts the
 * deploy before any request reaches a wave-2 BMC, and its state lives in PostgreSQL with locking.
 */
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imagesOf, uploadImages } from "../../src/cli/demo.js";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { defaultSpec, type Lab, startLab } from "../../src/lab/index.js";
import { CdktfProject, outputOf } from "../support/cdktf.js";
import { ENGINES, engine } from "../support/engines.js";
import type { Postgres } from "../support/postgres.js";
import { slurmNodes } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";
import { testDatabase } from "../support/shared-counterparts.js";

/** A deploy of a rack on a shared 2-core machine can take minutes; this only stops a hung test. */
const DEPLOY_TIMEOUT_MS = 600_000;

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** A lab of `racks` racks of `perRack` nodes, instant timings, its lab file written; the fastest profile that works. */
async function rackLab(racks: number, perRack: number): Promise<{ lab: Lab; labFile: string }> {
  const dir = await mkdtemp(join(tmpdir(), "rf-examples-lab-"));
  const spec = defaultSpec({ nodes: racks * perRack, nodesPerRack: perRack });
  const lab = await startLab({ spec, profile: "instant", stateDir: dir });
  const labFile = join(dir, "lab.json");
  lab.writeInfo(labFile);
  return { lab, labFile };
}

/** What an example needs from its environment: the lab file and the secrets as TF_VAR_* (never in the code). */
function exampleEnv(lab: Lab, labFile: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    RACKFORM_LAB_FILE: labFile,
    TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
    TF_VAR_maas_api_key: lab.info.maas!.apiKey,
    TF_VAR_slurm_token: lab.info.slurm!.token,
    ...extra,
  };
}

/** Secrets of the lab that must never appear in cdktf's or the engine's output. */
const secretsOf = (lab: Lab) => [lab.info.nodes[0].bmc.password, lab.info.maas!.apiKey, lab.info.slurm!.token];

/** Synthesizes and uploads the golden images the stacks deploy to the lab MAAS, as an operator does first. */
async function synthAndUpload(p: CdktfProject, lab: Lab): Promise<void> {
  const synth = await p.run(["synth", "--no-color"]);
  expect(synth.code, outputOf(synth)).toBe(0);
  const stacks = p.stacks().map((s) => JSON.parse(readFileSync(join(s.workingDirectory, "cdk.tf.json"), "utf8")));
  await uploadImages(lab.info, imagesOf(stacks));
}

/** Every stack's `cdktf diff` reports no changes. */
async function expectNoDiff(p: CdktfProject): Promise<void> {
  for (const s of p.stacks()) {
    const diff = await p.diff(s.name);
    expect(diff.code, outputOf(diff)).toBe(0);
    expect(diff.stdout, `${s.name}\n${outputOf(diff)}`).toMatch(
      /No changes\. Your infrastructure matches the configuration\./,
    );
  }
}

/** Slurm states of `nodes`, as [name, state] pairs. */
async function slurmStates(lab: Lab, nodes: readonly string[]): Promise<[string, string | undefined][]> {
  const slurm = await slurmNodes(lab);
  return nodes.map((n) => [n, slurm.get(n)?.state]);
}

/** MAAS statuses of `nodes`, as [hostname, status] pairs. */
async function maasStatuses(lab: Lab, nodes: readonly string[]): Promise<[string, string | undefined][]> {
  const maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  try {
    const machines = new Map((await maas.listMachines()).map((m) => [m.hostname, m.statusName]));
    return nodes.map((n) => [n, machines.get(n)]);
  } finally {
    await maas.close();
  }
}

describe.each(ENGINES)("the examples under %s", (name) => {
  describe("gpu-rack (MAAS, Slurm)", () => {
    let lab: Lab;
    let labFile: string;
    beforeAll(async () => {
      ({ lab, labFile } = await rackLab(1, 4));
    });
    afterAll(async () => {
      await lab?.close();
    });

    it(
      "cdktf deploy converges the rack: every machine Deployed in MAAS, every node IDLE in Slurm; cdktf diff shows no changes",
      async () => {
        // GIVEN the example and a lab rack of four unpowered nodes
        const p = await CdktfProject.create("gpu-rack", engine(name), cliConfig, exampleEnv(lab, labFile));
        await synthAndUpload(p, lab);
        const nodes = lab.info.nodes.map((n) => n.name);

        // WHEN cdktf deploys every stack
        const deploy = await p.deploy();

        // THEN it converges, prints no secret, and MAAS and Slurm agree
        expect(deploy.code, outputOf(deploy)).toBe(0);
        expect(deploy.stdout).toMatch(/Apply complete! Resources: 24 added, 0 changed, 0 destroyed\./);
        for (const secret of secretsOf(lab)) expect(deploy.stdout + deploy.stderr).not.toContain(secret);
        expect(await maasStatuses(lab, nodes)).toEqual(nodes.map((n) => [n, "Deployed"]));
        expect(await slurmStates(lab, nodes)).toEqual(nodes.map((n) => [n, "IDLE"]));

        // AND a second look changes nothing
        await expectNoDiff(p);
      },
      DEPLOY_TIMEOUT_MS,
    );
  });

  describe("ironic-rack (Ironic, Slurm)", () => {
    let lab: Lab;
    let labFile: string;
    beforeAll(async () => {
      ({ lab, labFile } = await rackLab(1, 4));
    });
    afterAll(async () => {
      await lab?.close();
    });

    it(
      "cdktf deploy converges the rack: every Ironic node active, every node IDLE in Slurm; cdktf diff shows no changes",
      async () => {
        const p = await CdktfProject.create("ironic-rack", engine(name), cliConfig, exampleEnv(lab, labFile));
        const nodes = lab.info.nodes.map((n) => n.name);

        const deploy = await p.deploy();

        expect(deploy.code, outputOf(deploy)).toBe(0);
        expect(deploy.stdout).toMatch(/Apply complete! Resources: 24 added, 0 changed, 0 destroyed\./);
        for (const secret of secretsOf(lab)) expect(deploy.stdout + deploy.stderr).not.toContain(secret);
        const ironic = new IronicClient({ url: lab.info.ironic!.url });
        try {
          const byName = new Map((await ironic.listNodes()).map((n) => [n.name, n.provisionState]));
          expect(nodes.map((n) => [n, byName.get(n)])).toEqual(nodes.map((n) => [n, "active"]));
        } finally {
          await ironic.close();
        }
        expect(await slurmStates(lab, nodes)).toEqual(nodes.map((n) => [n, "IDLE"]));
        await expectNoDiff(p);
      },
      DEPLOY_TIMEOUT_MS,
    );
  });

  describe("fleet-rollout (3 racks, 2 waves, state in PostgreSQL)", () => {
    let lab: Lab;
    let labFile: string;
    let pg: Postgres;
    let p: CdktfProject;
    beforeAll(async () => {
      pg = await testDatabase(name);
      ({ lab, labFile } = await rackLab(3, 2));
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
      await synthAndUpload(p, lab);
    });
    afterAll(async () => {
      await lab?.close();
      await pg?.stop();
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
  });
});
