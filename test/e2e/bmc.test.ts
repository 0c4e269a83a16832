/**
 * rackform_bmc under the real engines against the lab: create after the outlets come on (depends_on), computed
 * inventory in state, no-op plan, a node with a missing GPU failing alone, drift as a planned re-check, import, destroy
 * that only forgets — for Terraform and for OpenTofu.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, engine, folded, Workdir } from "../support/engines.js";
import { e2eGround, outletOn, outletResources, providerBlock } from "../support/rackform-e2e.js";

const ground = e2eGround(8);

function bmcResources(nodes: readonly string[], extra = ""): string {
  return nodes
    .map((name) => {
      const n = ground.lab.info.nodes.find((x) => x.name === name)!;
      const bios = ground.lab.world.node(name)!.firmware.bios;
      return `resource "rackform_bmc" ${JSON.stringify(name)} {
  endpoint   = ${JSON.stringify(n.bmc.url)}
  expected = {
    gpu_model = "H100"
    gpu_count = 8
    firmware  = { BIOS = ${JSON.stringify(bios)} }
  }
  depends_on = [rackform_pdu_outlet.${name}]
${extra}
}
`;
    })
    .join("\n");
}

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_bmc under %s", (name, i) => {
  // Each engine owns its own nodes of the shared lab; the third of them loses a GPU.
  const nodes = [`r01-n0${1 + i * 4}`, `r01-n0${2 + i * 4}`, `r01-n0${3 + i * 4}`];
  const [good, other, bad] = nodes;
  let w: Workdir;

  beforeAll(async () => {
    w = await Workdir.create(engine(name), ground.cliConfig, {
      "main.tf": providerBlock(ground.lab) + outletResources(ground.lab, nodes, "On") + bmcResources(nodes),
    });
    await w.ok(["init", "-no-color"]);
  });

  it("GIVEN one node missing a GPU WHEN apply THEN it fails alone with the measured-vs-expected list; the others are created", async () => {
    const f = ground.lab.world.faults.add({ kind: "missing-gpu", node: bad, gpus: 1 });
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    ground.lab.world.faults.remove(f.id);
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    expect(folded(r)).toContain("Node does not conform to its expected baseline");
    expect(folded(r)).toContain("gpu_count: found 7, expected 8");
    expect(r.stderr).toContain(`rackform_bmc.${bad}`);
    for (const n of nodes) expect(outletOn(ground.lab, n)).toBe(true);
    const list = await w.ok(["state", "list"]);
    expect(list.stdout).toContain(`rackform_bmc.${good}`);
    expect(list.stdout).toContain(`rackform_bmc.${other}`);
    expect(list.stdout).not.toContain(`rackform_bmc.${bad}`);
  });

  it("GIVEN the GPU back WHEN apply THEN the node is created with its inventory and the next plan is empty", async () => {
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    const show = await w.ok(["state", "show", "-no-color", `rackform_bmc.${bad}`]);
    const n = ground.lab.world.node(bad)!;
    expect(show.stdout).toMatch(/gpu_count\s+= 8/);
    expect(show.stdout).toMatch(/conformant\s+= true/);
    expect(show.stdout).toContain(`/redfish/v1/Systems/${n.systemId}"`);
    for (const p of n.ports) expect(show.stdout).toContain(p.mac.toUpperCase());
    expect(show.stdout).toContain(n.gpus[7].serial);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("GIVEN firmware changed out of band WHEN plan THEN it warns with the difference and plans a re-check that records it", async () => {
    const n = ground.lab.world.node(good)!;
    const f = ground.lab.world.faults.add({
      kind: "firmware-drift",
      node: good,
      component: "bios",
      version: "0.0.1-rogue",
    });
    try {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      const bmcUrl = ground.lab.info.nodes.find((x) => x.name === good)!.bmc.url;
      expect(folded(plan)).toContain(`Node no longer conforms to its expected baseline: ${bmcUrl}`);
      expect(folded(plan)).toContain(`firmware["BIOS"]: found 0.0.1-rogue, expected ${n.firmware.bios}`);
      expect(plan.stdout).toMatch(/conformant\s+= false -> \(known after apply\)/);
      // Drift is never destruction: the inventory stays known, so nothing built on the MACs would be replaced.
      expect(plan.stdout).not.toMatch(/macs\s+= .*\(known after apply\)/);
      expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
      // The re-check records what it finds (a warning, not an error that would stop what is built on this BMC).
      const apply = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(folded(apply)).toContain(`Node still does not conform to its expected baseline: ${bmcUrl}`);
      expect(folded(apply)).toContain(`firmware["BIOS"]: found 0.0.1-rogue, expected ${n.firmware.bios}`);
      const still = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(still.code, "the drift stays visible until the node conforms").toBe(2);
    } finally {
      ground.lab.world.faults.remove(f.id);
    }
    const healed = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(healed.code, healed.stdout + healed.stderr).toBe(0);
  });

  it("GIVEN an existing BMC WHEN imported by its endpoint THEN the state holds its system and the plan is empty", async () => {
    const n = ground.lab.info.nodes.find((x) => x.name === other)!;
    const w2 = await Workdir.create(engine(name), ground.cliConfig, {
      "main.tf": `${providerBlock(ground.lab)}resource "rackform_bmc" "x" {\n  endpoint = ${JSON.stringify(n.bmc.url)}\n}\n`,
    });
    await w2.ok(["init", "-no-color"]);
    await w2.ok(["import", "-no-color", "rackform_bmc.x", n.bmc.url]);
    const show = await w2.ok(["state", "show", "-no-color", "rackform_bmc.x"]);
    expect(show.stdout).toContain(`"${n.bmc.url}/redfish/v1/Systems/${ground.lab.world.node(other)!.systemId}"`);
    expect(show.stdout).toMatch(/gpu_count\s+= 8/);
    const plan = await w2.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const bad = await w2.run(["import", "-no-color", "rackform_bmc.y", "bmc-7"]);
    expect(bad.code).not.toBe(0);
  });

  it("fails plan on bad input, naming each attribute, without a request to any BMC or printing the password", async () => {
    const password = ground.lab.info.pdus[0].password;
    const w3 = await Workdir.create(engine(name), ground.cliConfig, {
      "main.tf": `${providerBlock(ground.lab)}resource "rackform_bmc" "x" {
  endpoint = "https://admin:hunter2@127.10.1.1"
  expected = { macs = ["0C:42:A1:00:00:01", "nope"] }
  boot_source_override_enabled = "Once"
}
`,
    });
    await w3.ok(["init", "-no-color"]);
    const before = ground.lab.requests.last();
    const r = await w3.run(["plan", "-no-color"], { env: { TF_LOG: "debug" } });
    expect(r.code).not.toBe(0);
    expect(folded(r)).toContain("contains credentials");
    expect(folded(r)).toContain('"nope" is not a MAC address');
    expect(folded(r)).toContain("boot_source_override_enabled needs boot_source_override_target");
    expect(ground.lab.requests.last(), "requests reached the lab").toBe(before);
    expect(r.stdout + r.stderr).not.toContain(password);
  });

  it("WHEN destroy THEN the BMCs are only forgotten: nothing is changed on them and their outlets stay on", async () => {
    const since = ground.lab.requests.last();
    const d = await w.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(d.stdout).toContain("6 destroyed");
    const addresses = new Set(
      nodes.map((n) => new URL(ground.lab.info.nodes.find((x) => x.name === n)!.bmc.url).hostname),
    );
    const writes = ground.lab.requests
      .since(since)
      .filter((e) => addresses.has(e.address) && e.method !== "GET" && !e.path.includes("/SessionService/Sessions"));
    expect(writes).toEqual([]);
    for (const n of nodes) expect(outletOn(ground.lab, n)).toBe(true);
  });
});
