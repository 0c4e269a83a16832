/**
 * The rack-level job users hire rackform for, under the real engines: 8 nodes from outlets off to joined in Slurm,
 * through MAAS and through Ironic; and a rack with two faulty nodes where the faulty ones are quarantined with
 * measured-vs-expected evidence while their six neighbours join, then healed without touching the six.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine } from "../support/engines.js";
import {
  CHAIN,
  expectIdle,
  joinedIn,
  plannedChanges,
  rackStack,
  resourceName,
  shownState,
  slurmNodes,
  uploadGoldenImage,
} from "../support/rack.js";
import { builtProvider, freshInstall, outletOn, testLab } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

describe.each(ENGINES)("an 8-node rack under %s", (name) => {
  describe("from outlets off", () => {
    let lab: Lab;
    beforeAll(async () => {
      lab = await testLab(16);
      await uploadGoldenImage(lab);
    });
    afterAll(async () => {
      await lab?.close();
    });

    it.each(["maas", "ironic"] as const)(
      "an 8-node rack converges from all outlets off to 8 nodes joined in Slurm (via %s)",
      async (backend) => {
        // GIVEN eight unpowered nodes: the first half of the lab for MAAS, the second for Ironic
        const half = backend === "maas" ? lab.info.nodes.slice(0, 8) : lab.info.nodes.slice(8, 16);
        const nodes = half.map((n) => n.name);
        expect(nodes).toHaveLength(8);
        expect(nodes.filter((n) => outletOn(lab, n))).toEqual([]);
        const w = await rackStack(engine(name), cliConfig, lab, backend, nodes);
        await w.ok(["init", "-no-color"]);

        // WHEN apply
        const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);

        // THEN 48 resources, every cluster member joined, Slurm reports the eight IDLE, and the next plan is empty
        expect(apply.stdout).toContain("Apply complete! Resources: 48 added, 0 changed, 0 destroyed.");
        expect(nodes.filter((n) => !outletOn(lab, n))).toEqual([]);
        const state = await shownState(w);
        expect(joinedIn(state)).toEqual([...nodes].sort());
        const machines = state.filter((r) => r.type === "rackform_machine");
        expect(new Set(machines.map((m) => String(m.values.id).split(":")[0]))).toEqual(new Set([backend]));
        await expectIdle(lab, nodes);
        const b = lab.backends!;
        const from = { maas: b.maas.requests.length, ironic: b.ironic.requests.length, slurm: b.slurm.requests.length };
        const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
        expect(plan.code, plan.stdout + plan.stderr).toBe(0);

        // AND that no-op plan lists only the stack's own machines, at most one list per node, and reads nothing
        // per node but what drift detection needs (issue 12)
        expect(b.slurm.requests.length - from.slurm).toBeLessThanOrEqual(nodes.length);
        if (backend === "maas") {
          const sent = b.maas.requests.slice(from.maas);
          const lists = sent.filter((r) => r.method === "GET" && r.path.endsWith("/api/2.0/machines/"));
          expect(
            lists.filter((r) => !/(^|&)id=/.test(r.query)).map((r) => r.query),
            "whole-region lists",
          ).toEqual([]);
          expect(lists.length).toBeLessThanOrEqual(nodes.length);
          // Per node: nothing. The host's power was just read through its own BMC (rackform_bmc, read before the
          // machine and its deployment), so MAAS is not asked for it too; the acceptance evidence is not read again
          // while MAAS's test record of the machine stands (the list carries it); no machine is read on its own.
          const perNode = sent.filter((r) => !lists.includes(r) && !r.path.endsWith("/boot-resources/"));
          const shape = (r: (typeof sent)[number]) =>
            `${r.method} ${r.path.replace(/\/(machines|nodes)\/[^/]+\//, "/$1/{id}/")}${r.op ? ` op=${r.op}` : ""}`;
          expect(perNode.map(shape)).toEqual([]);
          expect(sent.length).toBeLessThanOrEqual(nodes.length);
        } else {
          const sent = b.ironic.requests.slice(from.ironic);
          // One shared field-selected node list and port list serve every node's machine, deployment and gate.
          expect(sent.filter((r) => /^\/v1\/nodes\/[^/]+/.test(r.path)).map((r) => r.path)).toEqual([]);
          expect(sent.length).toBeLessThanOrEqual(nodes.length);
        }
      },
    );
  });

  describe("with two faulty nodes", () => {
    let lab: Lab;
    let maas: MaasClient;
    beforeAll(async () => {
      lab = await testLab(8);
      await uploadGoldenImage(lab);
      maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    });
    afterAll(async () => {
      await maas?.close();
      await lab?.close();
    });

    it("two faulty nodes are quarantined with measured-vs-expected diagnostics while six join; healing them converges all eight without touching the six", async () => {
      const nodes = lab.info.nodes.map((n) => n.name);
      const nccl = nodes[2];
      const gpu = nodes[5];
      const healthy = nodes.filter((n) => n !== nccl && n !== gpu);
      expect(nodes.filter((n) => outletOn(lab, n))).toEqual([]);
      lab.world.faults.add({ kind: "marginal-nccl", node: nccl, value: 300 });
      lab.world.faults.add({ kind: "missing-gpu", node: gpu, gpus: 1 });
      const w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
      await w.ok(["init", "-no-color"]);

      // WHEN apply with the faults present
      const failed = await w.run(["apply", "-auto-approve", "-no-color"]);

      // THEN it fails naming measured values against thresholds for both nodes: the NCCL shortfall at the acceptance
      // gate, the missing GPU earlier, at rackform_bmc's conformance to the flavor (before the node is enrolled)
      expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
      const err = failed.stderr.replace(/\s+/g, " ");
      expect(err).toContain(`Error: Acceptance gate failed with rackform_acceptance.${resourceName(nccl)},`);
      expect(err).toContain(
        `(${nccl}) failed the gate: - nccl_min_busbw_gbps: measured all_reduce busbw 300 GB/s; threshold ≥ 370 GB/s`,
      );
      expect(err).toContain(
        `Error: Node does not conform to its expected baseline with rackform_bmc.${resourceName(gpu)},`,
      );
      expect(err).toContain("1 difference from expected: gpu_count: found 7, expected 8");
      expect(err.match(/Error: /g)).toHaveLength(2);

      // AND the two are never joined, the six are
      const state = await shownState(w);
      expect(joinedIn(state)).toEqual([...healthy].sort());
      const members = state.filter((r) => r.type === "rackform_cluster_member").map((r) => r.name);
      expect(members).not.toContain(resourceName(nccl));
      expect(members).not.toContain(resourceName(gpu));
      const slurm = await slurmNodes(lab);
      expect(slurm.get(nccl)?.state).not.toBe("IDLE");
      expect(slurm.get(gpu)?.state).not.toBe("IDLE");
      for (const n of healthy) expect(slurm.get(n)?.state, n).toBe("IDLE");
      // AND MAAS quarantines the node whose gate ran; the node without its GPU was never enrolled
      const machines = await maas.listMachines();
      const byHost = new Map(machines.map((m) => [m.hostname, m]));
      expect(byHost.get(nccl)?.statusName).toBe("Failed testing");
      expect(byHost.get(nccl)?.description).toBe(
        "rackform acceptance failed: nccl_min_busbw_gbps: measured all_reduce busbw 300 GB/s; threshold ≥ 370 GB/s",
      );
      expect(byHost.has(gpu)).toBe(false);
      expect(state.filter((r) => r.name === resourceName(gpu)).map((r) => r.type)).toEqual(["rackform_pdu_outlet"]);
      for (const n of healthy) expect(byHost.get(n)?.statusName, n).toBe("Deployed");
      const sixSystemIds = healthy.map((n) => byHost.get(n)?.systemId);

      // WHEN the faults are cleared (no operator step: the gate lifts rackform's own quarantine)
      lab.world.faults.clear();
      const changes = await plannedChanges(w);

      // THEN the plan leaves every resource of the six alone
      const sixAddresses = healthy.flatMap((n) => CHAIN.map((t) => `${t}.${resourceName(n)}`));
      const touched = changes.filter(
        (c) => sixAddresses.includes(c.address) && !["no-op", "read"].includes(c.actions.join()),
      );
      expect(touched).toEqual([]);
      expect(changes.filter((c) => sixAddresses.includes(c.address))).toHaveLength(36);

      // AND it re-runs the NCCL node's gate and walks the GPU node's whole chain from the BMC on
      const planned = (n: string) =>
        changes.filter((c) => c.name === resourceName(n) && c.actions.join() !== "no-op").map((c) => c.address);
      expect(planned(nccl).sort()).toEqual(
        [`rackform_acceptance.${resourceName(nccl)}`, `rackform_cluster_member.${resourceName(nccl)}`].sort(),
      );
      expect(planned(gpu).sort()).toEqual(
        CHAIN.slice(1)
          .map((t) => `${t}.${resourceName(gpu)}`)
          .sort(),
      );

      // WHEN that plan is applied THEN all eight are joined and IDLE, and the six are the same MAAS machines, Deployed
      await w.ok(["apply", "-no-color", "rack.tfplan"]);
      const healed = await shownState(w);
      expect(joinedIn(healed)).toEqual([...nodes].sort());
      const after = await slurmNodes(lab);
      expect(nodes.map((n) => [n, after.get(n)?.state])).toEqual(nodes.map((n) => [n, "IDLE"]));
      const again = new Map((await maas.listMachines()).map((m) => [m.hostname, m]));
      expect(healthy.map((n) => [again.get(n)?.systemId, again.get(n)?.statusName])).toEqual(
        sixSystemIds.map((id) => [id, "Deployed"]),
      );
      expect(again.get(gpu)?.statusName).toBe("Deployed");

      // AND the healed NCCL node went back to Deployed (not Ready), its quarantine note is gone,
      expect([again.get(nccl)?.statusName, again.get(nccl)?.description]).toEqual(["Deployed", ""]);
      // AND the next plan leaves all eight alone: one apply converged the rack.
      const next = await plannedChanges(w);
      expect(next).toHaveLength(48);
      expect(next.filter((c) => !["no-op", "read"].includes(c.actions.join()))).toEqual([]);
    });
  });
});
