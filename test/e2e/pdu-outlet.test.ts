/**
 * rackform_pdu_outlet under the real engines against the lab's Redfish PDUs:
 * converge, no-op plan, drift, import, destroy — for Terraform and for OpenTofu.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { e2eGround, outletOn, outletResources, providerBlock } from "../support/rackform-e2e.js";

const ground = e2eGround(8);

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_pdu_outlet under %s", (name, i) => {
  // Each engine owns its own nodes of the shared lab.
  const nodes = [`r01-n0${1 + i * 4}`, `r01-n0${2 + i * 4}`];
  let w: Workdir;

  beforeAll(async () => {
    w = await Workdir.create(engine(name), ground.cliConfig, {});
  });

  it("GIVEN outlets off WHEN apply THEN the lab's outlets are on and the next plan is empty", async () => {
    for (const n of nodes) expect(outletOn(ground.lab, n)).toBe(false);
    await w.write({ "main.tf": providerBlock(ground.lab) + outletResources(ground.lab, nodes, "On") });
    await w.ok(["init", "-no-color"]);
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("2 added, 0 changed, 0 destroyed");
    for (const n of nodes) expect(outletOn(ground.lab, n)).toBe(true);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("GIVEN an outlet flipped behind the engine's back WHEN plan THEN it shows the repair, and apply repairs it", async () => {
    const n = ground.lab.info.nodes.find((x) => x.name === nodes[0])!;
    ground.lab.world.setOutlet(n.pdu, n.outlet, "Off");
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/power_state\s+= "Off" -> "On"/);
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(outletOn(ground.lab, nodes[0])).toBe(true);
  });

  it("GIVEN an existing outlet WHEN imported into an empty state THEN the state matches and plan is empty", async () => {
    const n = ground.lab.info.nodes.find((x) => x.name === nodes[1])!;
    const pdu = ground.lab.info.pdus.find((p) => p.id === n.pdu)!;
    const id = `${pdu.url}/redfish/v1/PowerEquipment/RackPDUs/${n.pdu}/Outlets/${n.outlet}`;
    const w2 = await Workdir.create(engine(name), ground.cliConfig, {
      "main.tf": providerBlock(ground.lab) + outletResources(ground.lab, [nodes[1]], "On"),
    });
    await w2.ok(["init", "-no-color"]);
    await w2.ok(["import", "-no-color", `rackform_pdu_outlet.${nodes[1]}`, id]);
    const show = await w2.ok(["state", "show", "-no-color", `rackform_pdu_outlet.${nodes[1]}`]);
    expect(show.stdout).toContain(`id                     = "${id}"`);
    expect(show.stdout).toContain('power_state            = "On"');
    const plan = await w2.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("GIVEN an import id that is not an outlet URL WHEN imported THEN the error shows the expected form", async () => {
    const r = await w.run(["import", "-no-color", `rackform_pdu_outlet.${nodes[1]}`, "outlet-7"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Invalid import id for rackform_pdu_outlet");
    expect(r.stderr).toContain("/redfish/v1/PowerEquipment/RackPDUs/r01-pdu-a/Outlets/7");
  });

  it("GIVEN power_state_on_destroy = Off WHEN destroy THEN the outlets are switched off", async () => {
    await w.write({
      "main.tf":
        providerBlock(ground.lab) + outletResources(ground.lab, nodes, "On", '  power_state_on_destroy = "Off"'),
    });
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    const d = await w.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(d.stdout).toContain("2 destroyed");
    for (const n of nodes) expect(outletOn(ground.lab, n)).toBe(false);
  });
});
