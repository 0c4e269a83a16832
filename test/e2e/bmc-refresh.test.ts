/**
 * Issue 12: what a no-op plan of rackform_bmc (and the node's rackform_firmware, issue 29) costs each BMC, counted in the lab's request log, under the real
 * engines — and that the cheap refresh still finds drift, records a changed power state and a component's health (issue 30). One BMC per feature mode: `$expand` and ETags (one of them
 * with a boot override, which changes the System after create), `$expand` without ETags, and neither.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../src/lab/index.js";
import { LOG_PLACEMENT } from "../../src/lab/redfish/log-service.js";
import type { NicPort } from "../../src/lab/world/model.js";
import type { Quirk } from "../../src/lab/world/quirks.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock } from "../support/rackform-e2e.js";

const MODES: readonly { quirks: Quirk[]; boot?: boolean; cheap: boolean }[] = [
  { quirks: [], boot: true, cheap: true },
  { quirks: [], cheap: true },
  { quirks: ["no-etags"], cheap: true },
  { quirks: ["no-expand-query", "no-etags"], cheap: false },
];

describe.each(ENGINES)("rackform_bmc refresh cost under %s", (name) => {
  let lab: Lab;
  let w: Workdir;
  const dirs: string[] = [];
  const nodes = () => lab.info.nodes.map((n) => n.name);

  beforeAll(async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "rf-refresh-e2e-"));
    dirs.push(stateDir);
    lab = await startLab({ nodes: MODES.length, profile: "instant", stateDir });
    const cliConfig = await freshInstall([builtProvider()]);
    dirs.push(dirname(cliConfig));
    const hcl = lab.info.nodes.map((n, i) => {
      const node = lab.world.node(n.name)!;
      (node.spec as { quirks?: Quirk[] }).quirks = MODES[i].quirks;
      lab.world.setOutlet(n.pdu, n.outlet, "On");
      return `resource "rackform_bmc" ${JSON.stringify(n.name)} {
  endpoint = ${JSON.stringify(n.bmc.url)}
  expected = {
    gpu_count = ${node.gpus.length}
    firmware  = { BIOS = ${JSON.stringify(node.firmware.bios)} }
  }
${MODES[i].boot ? '  boot_source_override_target = "Pxe"\n' : ""}}

# The node's BIOS settings held too: its refresh reads through what the BMC's refresh found (no request of its own).
resource "rackform_firmware" ${JSON.stringify(n.name)} {
  endpoint = rackform_bmc.${n.name}.endpoint
  bios     = { BootMode = "Uefi" }
}
`;
    });
    w = await Workdir.create(engine(name), cliConfig, { "main.tf": providerBlock(lab) + hcl.join("\n") });
    dirs.push(w.dir);
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });
  afterAll(async () => {
    await lab?.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("a no-op plan right after apply: 5 requests per BMC with $expand (304s where ETags exist), the full read without", async () => {
    for (let round = 1; round <= 2; round++) {
      const before = lab.requests.last();
      const r = await w.run(["plan", "-no-color", "-detailed-exitcode"]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      for (const [i, n] of nodes().entries()) {
        const sent = lab.requests.since(before).filter((e) => e.target === n);
        const lines = sent.map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
        if (MODES[i].cheap) {
          expect(lines.length, `${n} round ${round}:\n${lines.join("\n")}`).toBeLessThanOrEqual(5);
          const rechecks = lines.filter((l) => l.includes("$expand"));
          expect(rechecks.length, n).toBe(2);
          const etags = !MODES[i].quirks.includes("no-etags");
          // A System whose expansion carries its LogService (linked from the System on this vendor's BMC) reads anew
          // each time, its DateTime being the BMC's clock: 200, judged unchanged by its content (nothing re-read).
          const clocked = LOG_PLACEMENT[lab.world.node(n)!.spec.vendor].under === "Systems";
          for (const l of rechecks) {
            const system = l.includes("/Systems/");
            expect(l, n).toMatch(etags && !(system && clocked) ? / 304$/ : / 200$/);
          }
        } else {
          // No $expand: every linked resource is read, as before issue 12 (correctness first).
          expect(lines.length, n).toBeGreaterThan(30);
        }
      }
    }
  });

  it("hosts' power switched by hand: the refresh still costs 5 requests per BMC with $expand and records it", async () => {
    const was = new Map(nodes().map((n) => [n, lab.world.powerState(lab.world.node(n)!)]));
    for (const n of nodes()) lab.world.setHostPower(lab.world.node(n)!, was.get(n) !== "On");
    const before = lab.requests.last();
    await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
    for (const [i, n] of nodes().entries()) {
      const sent = lab.requests.since(before).filter((e) => e.target === n);
      if (MODES[i].cheap) expect(sent.length, n).toBeLessThanOrEqual(5);
    }
    const state = JSON.parse((await w.ok(["show", "-json", "-no-color"])).stdout) as {
      values: { root_module: { resources: { type: string; name: string; values: Record<string, unknown> }[] } };
    };
    for (const r of state.values.root_module.resources.filter((x) => x.type === "rackform_bmc")) {
      expect(r.values.power_state, r.name).toBe(lab.world.powerState(lab.world.node(r.name)!));
      expect(r.values.power_state, r.name).not.toBe(was.get(r.name));
    }
    // Recorded: the next plan is back to the unchanged case.
    const again = lab.requests.last();
    expect((await w.run(["plan", "-no-color", "-detailed-exitcode"])).code).toBe(0);
    for (const [i, n] of nodes().entries())
      if (MODES[i].cheap)
        expect(lab.requests.since(again).filter((e) => e.target === n).length, n).toBeLessThanOrEqual(5);
  });

  it("a GPU its BMC reports Critical is found by the refresh in every mode, at no extra request, then cleared", async () => {
    const faults = nodes().map((n) => lab.world.faults.add({ kind: "gpu-health", node: n }));
    const health = async () => {
      const state = JSON.parse((await w.ok(["show", "-json", "-no-color"])).stdout) as {
        values: { root_module: { resources: { type: string; name: string; values: Record<string, unknown> }[] } };
      };
      const bmcs = state.values.root_module.resources.filter((r) => r.type === "rackform_bmc");
      return new Map(bmcs.map((r) => [r.name, r.values.health as Record<string, string>[]]));
    };
    try {
      // WHEN a scheduled plan runs: a warning names the sick GPU of each node, and the cheap refresh stays cheap
      const before = lab.requests.last();
      const plan = await w.run(["plan", "-no-color"]);
      expect(plan.code, plan.stderr).toBe(0);
      const out = (plan.stdout + plan.stderr).replace(/[\s│]+/g, " ");
      for (const n of nodes())
        expect(out).toContain(
          `Node health: 1 component not OK: ${new URL(lab.info.nodes.find((x) => x.name === n)!.bmc.url).origin}`,
        );
      for (const [i, n] of nodes().entries())
        if (MODES[i].cheap)
          expect(lab.requests.since(before).filter((e) => e.target === n).length, n).toBeLessThanOrEqual(5);
      // AND a refresh records the finding with when it was first seen, kept by the next refresh
      await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
      const first = await health();
      for (const n of nodes()) {
        expect(first.get(n), n).toEqual([
          expect.objectContaining({ kind: "gpu", health: "Critical", component: "GPU 1", since: expect.any(String) }),
        ]);
      }
      await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
      const again = await health();
      for (const n of nodes()) expect(again.get(n)?.[0]?.since, n).toBe(first.get(n)?.[0]?.since);
    } finally {
      for (const f of faults) lab.world.faults.remove(f.id);
    }
    // THEN once the BMC reports it OK again, the refresh clears it
    await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
    for (const [n, h] of await health()) expect(h, n).toEqual([]);
  });

  it("a GPU lost, a NIC's MAC replaced and a firmware version changed are recorded by the refresh in every mode", async () => {
    const restore: (() => void)[] = [];
    for (const n of nodes()) {
      const node = lab.world.node(n)!;
      const gpu = lab.world.faults.add({ kind: "missing-gpu", node: n, gpus: 1 });
      const fw = lab.world.faults.add({ kind: "firmware-drift", node: n, component: "nic", version: "9.9.9" });
      const ports = node.ports;
      (node as unknown as { ports: NicPort[] }).ports = ports.map((p, i) =>
        i === 0 ? { ...p, mac: `02:aa:bb:${p.mac.slice(9)}` } : p,
      );
      restore.push(() => {
        lab.world.faults.remove(gpu.id);
        lab.world.faults.remove(fw.id);
        (node as unknown as { ports: readonly NicPort[] }).ports = ports;
      });
    }
    try {
      const plan = await w.run(["plan", "-no-color", "-detailed-exitcode"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
      const state = JSON.parse((await w.ok(["show", "-json", "-no-color"])).stdout) as {
        values: { root_module: { resources: { name: string; values: Record<string, unknown> }[] } };
      };
      for (const n of nodes()) {
        const v = state.values.root_module.resources.find((r) => r.name === n)!.values;
        const node = lab.world.node(n)!;
        expect(v.gpu_count, n).toBe(node.gpus.length - 1);
        expect(v.conformant, n).toBe(false);
        expect((v.macs as string[])[0], n).toBe(node.ports[0].mac.toUpperCase());
        expect(Object.values(v.firmware as Record<string, string>), n).toContain("9.9.9");
      }
    } finally {
      for (const f of restore) f();
    }
  });
});
