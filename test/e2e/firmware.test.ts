/**
 * rackform_firmware under the real engines against the lab's BMCs (instant profile, no backends): create checks
 * everything, pushes the images for the next reset, stages the BIOS settings and resets the host once (a host that
 * was off is left off); the plan names exactly the components and settings that move; a setting changed by hand is
 * an in-place fix; bad inputs fail before anything is written to the BMC; a bad signature's task messages are the
 * evidence; a re-apply follows a running task instead of starting a second; import by the BMC's address.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Clock, defaultSpec, type Lab, labFirmwareFile, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, providerPids, providersExited } from "../support/rackform-e2e.js";
import { sleep, until } from "../support/until.js";

let lab: Lab;
let cliConfig: string;

beforeAll(async () => {
  const stateDir = await mkdtemp(join(tmpdir(), "rf-lab-fw-"));
  const spec = defaultSpec({ nodes: 8, vendors: ["dell"], initialOutlet: "On" });
  lab = await startLab({ spec, profile: "instant", stateDir, backends: false });
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
});

const BIOS = "2.99.1";
const BMC = "7.99.10.00";

function component(c: "bios" | "bmc", version: string, badSignature = false) {
  const f = labFirmwareFile(c, version, { badSignature });
  return { version, url: `${lab.images.url}${f.name}`, sha256: f.sha256 };
}

interface FwOpts {
  readonly components?: Record<string, { version: string; url: string; sha256: string }>;
  readonly bios?: Record<string, string>;
}

function fwHcl(node: string, o: FwOpts): string {
  const n = lab.info.nodes.find((x) => x.name === node)!;
  const comps = Object.entries(o.components ?? {})
    .map(
      ([k, t]) => `    ${JSON.stringify(k)} = { version = "${t.version}", url = "${t.url}", sha256 = "${t.sha256}" }`,
    )
    .join("\n");
  const bios = Object.entries(o.bios ?? {})
    .map(([k, v]) => `    ${k} = ${JSON.stringify(v)}`)
    .join("\n");
  return `resource "rackform_firmware" ${JSON.stringify(node)} {
  endpoint = ${JSON.stringify(n.bmc.url)}
  components = {
${comps}
  }
  bios = {
${bios}
  }
}
`;
}

/** Writes to the node's BMC (anything but GET and HEAD, sessions aside) in the lab's request log since `from`. */
function writesTo(node: string, from: number): string[] {
  const n = lab.info.nodes.find((x) => x.name === node)!;
  const address = new URL(n.bmc.url).hostname;
  return lab.requests
    .since(from)
    .filter((r) => r.address === address && r.method !== "GET" && r.method !== "HEAD" && !/Session/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_firmware under %s", (name, i) => {
  const nodeA = `r01-n0${1 + i * 4}`;
  const nodeB = `r01-n0${2 + i * 4}`;
  const nodeC = `r01-n0${3 + i * 4}`;
  const node = (n: string) => lab.world.node(n)!;
  let w: Workdir;

  beforeAll(async () => {
    w = await Workdir.create(engine(name), cliConfig, {});
  });

  it("GIVEN a node on an old BIOS and BMC firmware with SR-IOV off WHEN apply THEN one reset brings both versions and the settings, the host is left off, and the next plan is empty", async () => {
    const fw = { components: { BIOS: component("bios", BIOS), "iDRAC firmware": component("bmc", BMC) } };
    const hcl = fwHcl(nodeA, { ...fw, bios: { SriovGlobalEnable: "Enabled", NumaNodesPerSocket: "2" } });
    await w.write({ "main.tf": providerBlock(lab) + hcl });
    await w.ok(["init", "-no-color"]);
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    expect(node(nodeA).firmware).toMatchObject({ bios: BIOS, bmc: BMC });
    expect(node(nodeA).bios.current).toMatchObject({ SriovGlobalEnable: "Enabled", NumaNodesPerSocket: 2 });
    expect(lab.world.powerState(node(nodeA))).toBe("Off");
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("GIVEN a setting changed by hand and a new BIOS version WHEN plan THEN exactly those move, in place, and apply converges", async () => {
    node(nodeA).bios.current.SriovGlobalEnable = "Disabled";
    const drift = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(drift.code, drift.stderr).toBe(2);
    expect(drift.stdout).toContain("1 to change");
    expect(drift.stdout).toMatch(/"SriovGlobalEnable"\s+=\s+"Disabled" -> "Enabled"/);
    expect(drift.stdout).not.toMatch(/must be replaced/);
    const next = "2.99.2";
    const fw = { components: { BIOS: component("bios", next), "iDRAC firmware": component("bmc", BMC) } };
    await w.write({
      "main.tf":
        providerBlock(lab) + fwHcl(nodeA, { ...fw, bios: { SriovGlobalEnable: "Enabled", NumaNodesPerSocket: "2" } }),
    });
    const plan = await w.ok(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/"BIOS"\s+=\s+"2\.99\.1" -> "2\.99\.2"/);
    expect(plan.stdout).not.toMatch(/"iDRAC firmware"\s+=\s+"[^"]+" ->/);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(node(nodeA).firmware.bios).toBe(next);
    expect(node(nodeA).bios.current.SriovGlobalEnable).toBe("Enabled");
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("GIVEN bad inputs WHEN apply THEN each fails with a diagnostic naming it, and nothing is written to the BMC", async () => {
    const good = component("bios", BIOS);
    const cases: [FwOpts, RegExp][] = [
      [{ bios: { NoSuchSetting: "On" } }, /Unknown BIOS attribute[\s\S]*NoSuchSetting/],
      [{ bios: { SysProfile: "Turbo" } }, /BIOS value not allowed[\s\S]*Allowed values: PerfPerWattOptimizedDapc/],
      [{ bios: { SystemModelName: "X" } }, /Read-only BIOS attribute[\s\S]*SystemModelName/],
      [{ components: { BIOS: { ...good, sha256: "0".repeat(64) } } }, /digest mismatch[\s\S]*not the 0{64}/],
      [{ components: { BIOS: { ...good, url: `${lab.images.url}missing.rfimg` } } }, /not available[\s\S]*404/],
      [{ components: { Frobnicator: good } }, /Unknown firmware component[\s\S]*Frobnicator/],
    ];
    for (const [opts, message] of cases) {
      const from = lab.requests.last();
      await w.write({ "main.tf": providerBlock(lab) + fwHcl(nodeB, opts) });
      const r = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(r.code, r.stdout).not.toBe(0);
      expect(r.stderr.replace(/[\s│]+/g, " ")).toMatch(message);
      expect(writesTo(nodeB, from)).toEqual([]);
    }
  });

  it("GIVEN an image with a bad signature WHEN apply THEN the task's message is the evidence, the create is tainted, and the node keeps its version", async () => {
    const before = node(nodeC).firmware.bios;
    const bad = component("bios", "2.99.3", true);
    await w.write({ "main.tf": providerBlock(lab) + fwHcl(nodeC, { components: { BIOS: bad } }) });
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Firmware update failed");
    expect(r.stderr).toMatch(/signature verification/);
    expect(node(nodeC).firmware.bios).toBe(before);
    const show = await w.ok(["state", "show", "-no-color", `rackform_firmware.${nodeC}`]);
    expect(show.stdout).toContain("tainted");
    expect(show.stdout).toMatch(/signature verification/);
  });

  it("GIVEN a node converged by hand WHEN import by the BMC's address THEN the next plan shows nothing to change", async () => {
    const fw = { components: { BIOS: component("bios", BIOS) } };
    const n = lab.info.nodes.find((x) => x.name === nodeB)!;
    // The node already runs the baseline (as after an apply elsewhere).
    node(nodeB).firmware.bios = BIOS;
    const wi = await Workdir.create(engine(name), cliConfig, {});
    await wi.write({ "main.tf": providerBlock(lab) + fwHcl(nodeB, fw) });
    await wi.ok(["init", "-no-color"]);
    await wi.ok(["import", "-no-color", `rackform_firmware.${nodeB}`, new URL(n.bmc.url).origin]);
    const plan = await wi.run(["plan", "-detailed-exitcode", "-no-color"]);
    // The import records the BMC only: the baseline and settings are taken in place, with nothing to push.
    expect([0, 2]).toContain(plan.code);
    await wi.ok(["apply", "-auto-approve", "-no-color"]);
    const again = await wi.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(writesTo(nodeB, 0).filter((x) => /UpdateService/.test(x))).toEqual([]);
  });
});

/** The system clock that can be held still (an update task then stays running) and let go again. */
class HeldClock implements Clock {
  private offset = 0;
  private heldAt: number | undefined;
  now(): number {
    return this.heldAt ?? Date.now() + this.offset;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, Math.max(0, ms)));
  }
  hold(): void {
    this.heldAt = this.now();
  }
  release(): void {
    if (this.heldAt === undefined) return;
    this.offset = this.heldAt - Date.now();
    this.heldAt = undefined;
  }
}

const SLOW = { timeoutMs: 60_000, everyMs: 50 };

describe.each(ENGINES.map((n, i) => [n, i] as const))("SIGKILL of %s during a firmware update", (name, i) => {
  it("the re-apply follows the task still running instead of starting a second, and converges", async () => {
    // GIVEN a lab whose update tasks take time (demo profile), its clock held still once the push is in
    const clock = new HeldClock();
    const stateDir = await mkdtemp(join(tmpdir(), "rf-lab-fwkill-"));
    const spec = defaultSpec({ nodes: 2, vendors: ["dell"], initialOutlet: "On" });
    const killLab = await startLab({ spec, profile: "demo", clock, stateDir, backends: false });
    try {
      const n = killLab.info.nodes[i].name;
      const f = labFirmwareFile("bios", BIOS);
      const hcl = `resource "rackform_firmware" "n" {
  endpoint   = ${JSON.stringify(killLab.info.nodes[i].bmc.url)}
  components = { BIOS = { version = "${BIOS}", url = "${killLab.images.url}${f.name}", sha256 = "${f.sha256}" } }
}
`;
      const w = await Workdir.create(engine(name), cliConfig, { "main.tf": providerBlock(killLab) + hcl });
      await w.ok(["init", "-no-color"]);
      const node = killLab.world.node(n)!;
      await sleep(1_500); // the BMCs boot (the demo profile's bmcBootMs) before time is held
      clock.hold();
      let enginePid = 0;
      const run = w.run(["apply", "-auto-approve", "-no-color"], { onSpawn: (pid) => (enginePid = pid) });
      // WHEN the engine is killed while the BMC runs the update task
      await until("the update task to start", () => node.tasks.length > 0, SLOW);
      const pids = await providerPids(enginePid);
      process.kill(enginePid, "SIGKILL");
      expect((await run).signal).toBe("SIGKILL");
      await providersExited(pids, SLOW.timeoutMs);
      expect(killLab.world.taskPercent(node.tasks[0])).toBeLessThan(100);
      // AND applied again while the task still runs
      const since = killLab.requests.last();
      const again = w.run(["apply", "-auto-approve", "-no-color", "-lock=false"]);
      await until("the re-apply to poll the running task", () =>
        killLab.requests.since(since).some((e) => e.method === "GET" && e.path.includes(`/${node.tasks[0].id}`)),
      );
      await sleep(1_000);
      // THEN no second update was started, nor even asked for (a BMC refuses one while a task runs), while the
      // first ran; once it ends the node converges
      expect(node.tasks).toHaveLength(1);
      const pushes = killLab.requests.since(since).filter((e) => e.method === "POST" && /UpdateService/.test(e.path));
      expect(pushes).toEqual([]);
      clock.release();
      const r = await again;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const [first, ...later] = node.tasks;
      for (const t of later) expect(t.startedAt).toBeGreaterThanOrEqual(first.startedAt + first.durationMs);
      expect(node.firmware.bios).toBe(BIOS);
      expect((await w.run(["plan", "-detailed-exitcode", "-no-color"])).code).toBe(0);
    } finally {
      clock.release();
      await killLab.close();
    }
  }, 180_000);
});
