/**
 * The examples as users run them: `cdktf deploy '*' --auto-approve` under Terraform and under OpenTofu
 * (TERRAFORM_BINARY_NAME), against the lab. Each converges (machines deployed, nodes joined in Slurm) and `cdktf diff`
 * afterwards shows no changes for every stack. The fleet proves its rollout: a wave-1 acceptance failure halts the
 * deploy before any request reaches a wave-2 BMC, and its state lives in PostgreSQL with locking: that one is
 * examples-fleet.test.ts, so the two run side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../src/clients/ironic/index.js";
import type { Lab } from "../../src/lab/index.js";
import { CdktfProject, outputOf } from "../support/cdktf.js";
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
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

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
        await synthStacks(p);
        const nodes = lab.info.nodes.map((n) => n.name);

        // WHEN cdktf deploys every stack
        const deploy = await p.deploy();

        // THEN it converges, prints no secret, and MAAS and Slurm agree
        expect(deploy.code, outputOf(deploy)).toBe(0);
        // 4 nodes × 6 chain resources, and the image the Image construct puts in place first
        expect(deploy.stdout).toMatch(/Apply complete! Resources: 25 added, 0 changed, 0 destroyed\./);
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
        // 4 nodes × 6 chain resources, and the image the Image construct puts in place first
        expect(deploy.stdout).toMatch(/Apply complete! Resources: 25 added, 0 changed, 0 destroyed\./);
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
});
