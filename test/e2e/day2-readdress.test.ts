/**
 * Day-2 re-addressing under the real engines (issue 35): a converged 2-node rack on MAAS and on Ironic, written as the
 * demo writes it, whose BMC or PDU is moved to another address through the lab's control API (a new port on its
 * management address: the old one stops answering), then the configuration edited as an operator would. For each
 * backend: the plan updates only that BMC (and its machine, which hands the backend the new address) or the PDU's
 * outlets, in place; one apply converges; the backend powers the node through the new address; the next plan is
 * empty. A trailing slash plans nothing; another node's BMC at the new address fails that node's apply naming both
 * systems and changes nothing; an http:// endpoint is refused at plan.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { labControl } from "../support/lab-control.js";
import { plannedChanges, rackStack, resourceName, shownState, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

type Backend = "maas" | "ironic";
const BACKENDS: readonly Backend[] = ["maas", "ironic"];

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** Moves a BMC (`/nodes/<name>/bmc/move`) or PDU (`/pdus/<id>/move`) to a new port; its new URL. */
async function move(lab: Lab, path: string): Promise<string> {
  const r = await labControl(lab, "POST", path, {});
  expect(r.status, path).toBe(200);
  return r.json.url;
}

/** Powers the node through its backend (MAAS asks its BMC for the power state, Ironic reboots it): the backend's view. */
async function powerThroughBackend(lab: Lab, backend: Backend, name: string): Promise<string> {
  if (backend === "maas") {
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      const m = (await c.listMachines()).find((x) => x.hostname === name)!;
      return await c.queryPowerState(m.systemId);
    } finally {
      await c.close();
    }
  }
  const c = new IronicClient({ url: lab.info.ironic!.url });
  try {
    await c.setPowerState(name, "rebooting");
    const n = await c.waitForPowerState(name, "power on", { timeoutMs: 60_000, pollMs: 200 });
    return n.powerState ?? "";
  } finally {
    await c.close();
  }
}

describe.each(ENGINES)("day-2 re-addressing under %s", (name) => {
  describe.each(BACKENDS)("on %s", (backend) => {
    let lab: Lab;
    let w: Workdir;
    let nodes: string[];
    const r = (i: number) => resourceName(nodes[i]);
    const mainTf = () => readFile(join(w.dir, "main.tf"), "utf8");
    /** Replaces `from` by `to` everywhere in main.tf (the operator's edit). */
    const edit = async (from: string, to: string) => {
      const tf = await mainTf();
      expect(tf).toContain(`"${from}"`);
      await w.write({ "main.tf": tf.replaceAll(`"${from}"`, `"${to}"`) });
    };
    const changesOf = async () =>
      (await plannedChanges(w))
        .filter((c) => !["no-op", "read"].includes(c.actions.join()))
        .map((c) => `${c.address} ${c.actions.join()}`)
        .sort();
    const emptyPlan = async () => {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    };

    beforeAll(async () => {
      // Three nodes, two in the stack: the third is hardware the stack does not manage (another node of the stack
      // at the same address is refused at plan as a duplicate, before any identity check).
      lab = await startLab({ nodes: 3, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
      if (backend === "maas") await uploadGoldenImage(lab);
      nodes = lab.info.nodes.slice(0, 2).map((n) => n.name);
      w = await rackStack(engine(name), cliConfig, lab, backend, nodes);
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
    });
    afterAll(async () => {
      await lab?.close();
    });

    /** Runs `f` on an edited main.tf, and puts the original back whatever happens. */
    const editing = async (f: () => Promise<void>) => {
      const tf = await mainTf();
      try {
        await f();
      } finally {
        await w.write({ "main.tf": tf });
      }
    };

    // (The default port is covered by test/unit/provider/endpoint.test.ts: the lab's services are not on 443.)
    it("a trailing slash, /redfish/v1 or upper case in a BMC or PDU endpoint plans no change", async () => {
      await editing(async () => {
        const bmc = lab.info.nodes[0].bmc.url;
        const pdu = lab.info.pdus[0].url;
        await edit(bmc, `${bmc.toUpperCase().replace("HTTPS://", "https://")}/`);
        await edit(pdu, `${pdu}/redfish/v1/`);
        await emptyPlan();
      });
    });

    it("an http:// BMC endpoint is refused at plan, naming the attribute and the opt-in", async () => {
      await editing(async () => {
        await edit(lab.info.nodes[1].bmc.url, lab.info.nodes[1].bmc.url.replace("https://", "http://"));
        const plan = await w.run(["plan", "-no-color"]);
        expect(plan.code).not.toBe(0);
        expect(folded(plan)).toContain("Plain HTTP Redfish endpoint refused");
        expect(folded(plan)).toContain(`rackform_bmc.${r(1)}`);
        expect(folded(plan)).toContain("allow_http = true");
      });
      await emptyPlan();
    });

    it("another node's BMC at the new address: the apply fails for that node naming both systems, and changes nothing", async () => {
      const before = await shownState(w);
      const stranger = lab.info.nodes[2];
      const [mine, theirs] = [lab.world.node(nodes[1])!, lab.world.node(stranger.name)!];
      lab.world.setOutlet(stranger.pdu, stranger.outlet, "On"); // its BMC boots and answers
      await editing(async () => {
        await edit(lab.info.nodes[1].bmc.url, stranger.bmc.url);
        const planned = await w.run(["plan", "-out=rack.tfplan", "-no-color"]);
        expect(planned.code, planned.stdout + planned.stderr).toBe(0);
        expect(folded(planned)).toContain("A different system answers at the new BMC address");
        expect(planned.stdout).not.toContain("forces replacement");
        const apply = await w.run(["apply", "-no-color", "rack.tfplan"]);
        expect(apply.code).not.toBe(0);
        const out = folded(apply);
        expect(out).toContain("A different system answers at the new BMC address");
        expect(out).toContain(`serial ${mine.serial}`);
        expect(out).toContain(`serial ${theirs.serial}`);
        expect(out).toContain("-replace");
        // Nothing changed: the state holds the old address and the same machine.
        const after = await shownState(w);
        const values = (s: typeof before, a: string) => s.find((x) => x.address === a)?.values;
        expect(values(after, `rackform_bmc.${r(1)}`)?.endpoint).toBe(lab.info.nodes[1].bmc.url);
        const handed = (v: Record<string, unknown> | undefined) => [v?.id, v?.bmc_endpoint];
        expect(handed(values(after, `rackform_machine.${r(1)}`))).toEqual(
          handed(values(before, `rackform_machine.${r(1)}`)),
        );
        // And the backend still powers the node through its own BMC.
        expect(await powerThroughBackend(lab, backend, nodes[1])).toMatch(/^(on|power on)$/);
      });
      await emptyPlan();
    });

    it("a BMC moved to a new address: its BMC and machine update in place, the backend follows, the next plan is empty", async () => {
      const old = lab.info.nodes[1].bmc.url;
      const moved = await move(lab, `/nodes/${nodes[1]}/bmc/move`);
      await edit(old, moved);
      // A refreshing plan finds the old address silent; whatever it plans is in place and on that node only.
      const refreshed = await changesOf();
      expect(refreshed).toContain(`rackform_bmc.${r(1)} update`);
      expect(refreshed).toContain(`rackform_machine.${r(1)} update`);
      expect(refreshed.filter((c) => !c.endsWith(`.${r(1)} update`))).toEqual([]);
      // The change in code itself (-refresh=false, as a reviewer plans an edit): the BMC and its machine, in place.
      await w.ok(["plan", "-refresh=false", "-out=rack.tfplan", "-no-color"]);
      const json = JSON.parse((await w.ok(["show", "-json", "-no-color", "rack.tfplan"])).stdout) as {
        resource_changes: { address: string; change: { actions: string[] } }[];
      };
      const changes = json.resource_changes
        .filter((c) => !["no-op", "read"].includes(c.change.actions.join()))
        .map((c) => `${c.address} ${c.change.actions.join()}`)
        .sort();
      expect(changes).toEqual([`rackform_bmc.${r(1)} update`, `rackform_machine.${r(1)} update`]);
      const id = (await shownState(w)).find((x) => x.address === `rackform_bmc.${r(1)}`)?.values.id;
      await w.ok(["apply", "-no-color", "rack.tfplan"]);
      const after = (await shownState(w)).find((x) => x.address === `rackform_bmc.${r(1)}`)?.values;
      expect([after?.endpoint, after?.id]).toEqual([moved, id]);
      // The backend powers the node through the new address (the old one refuses connections now).
      expect(await powerThroughBackend(lab, backend, nodes[1])).toMatch(/^(on|power on)$/);
      await emptyPlan();
    });

    it("a PDU moved to a new address: its outlets update in place and nothing else; the next plan is empty", async () => {
      const pdu = lab.info.pdus[0];
      const fed = lab.info.nodes
        .filter((n) => n.pdu === pdu.id && nodes.includes(n.name))
        .map((n) => resourceName(n.name));
      expect(fed.length).toBeGreaterThan(0);
      const moved = await move(lab, `/pdus/${pdu.id}/move`);
      await edit(pdu.url, moved);
      const plan = await w.run(["plan", "-no-color"]);
      expect(plan.stdout).not.toContain("must be replaced");
      expect(await changesOf()).toEqual(fed.map((n) => `rackform_pdu_outlet.${n} update`).sort());
      await w.ok(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      for (const n of fed) {
        const o = (await shownState(w)).find((x) => x.address === `rackform_pdu_outlet.${n}`)?.values;
        expect([o?.endpoint, o?.power_state], n).toEqual([moved, "On"]);
      }
      await emptyPlan();
    });
  });
});
