/**
 * Issue 34: trust at join. An 8-node MAAS + Slurm rack written as the demo writes it, with Secure Boot enforced by
 * each node's rackform_firmware and every gate attesting its node's SPDM components (GPUs and the BMC) against the
 * lab's root CA and the reference values it publishes. A node with a tampered GPU measurement and a node whose BMC
 * presents a chain from an unknown CA are quarantined with evidence naming the component (and index) while six join;
 * the evidence in state re-verifies offline with `rackform attest verify`; no private key of the lab is in state or
 * output. Secure Boot turned off by hand is drift healed in one apply, inside the budget. Bad inputs fail before any
 * request to a BMC. The lab on its `instant` profile.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedfishClient } from "../../src/clients/redfish/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { issue } from "../support/attest/spdm-builder.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { maasView } from "../support/lab-clients.js";
import { labControl } from "../support/lab-control.js";
import { rackConfig, rackStack, resourceName, slurmNodes, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

const run = promisify(execFile);
const CLI = join(process.cwd(), "dist", "cli", "main.js");

let lab: Lab;
let cliConfig: string;
let rootPem: string;
let reference: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await startLab({ nodes: 8, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
  await uploadGoldenImage(lab);
  rootPem = (await labControl(lab, "GET", "/attestation/root-ca")).text;
  reference = (await labControl(lab, "GET", "/attestation/reference-values")).text;
});
afterAll(async () => {
  await lab?.close();
});

const sha256 = (t: string) => createHash("sha256").update(t).digest("hex");
const trust = (o: { sha?: string; components?: string[] } = {}) => ({
  secureBoot: { enabled: true },
  attestation: {
    anchorsFile: "lab-root-ca.pem",
    referenceFile: "reference.json",
    referenceSha256: o.sha ?? sha256(reference),
    ...(o.components ? { components: o.components } : {}),
  },
});

describe.each(ENGINES)("trust at join on an 8-node MAAS + Slurm rack under %s", (name) => {
  let w: Workdir;
  let nodes: string[];
  let tampered: string;
  let stranger: string;

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    [tampered, stranger] = [nodes[2], nodes[5]];
    w = await rackStack(engine(name), cliConfig, lab, "maas", nodes, {
      maxUnavailable: 2,
      trust: trust({ components: ["GPU", "BMC"] }),
    });
    await w.write({ "lab-root-ca.pem": rootPem, "reference.json": reference });
  });

  it("converges with Secure Boot enforced and every node attested, but a tampered GPU and an unknown CA are quarantined with evidence", async () => {
    lab.world.faults.add({ kind: "attest-tamper", node: tampered, component: "GPU_3", index: 2 });
    lab.world.faults.add({ kind: "attest-unknown-ca", node: stranger, component: "BMC" });
    await w.ok(["init", "-no-color"]);
    const apply = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(apply.code).not.toBe(0);
    const out = folded(apply);
    expect(out).toContain(`(${tampered}) failed the gate`);
    expect(out).toMatch(
      /attestation: GPU_3 \(GPU\) measurement: index 2: measured [0-9a-f]+, the reference for \S+ expects [0-9a-f]+/,
    );
    expect(out).toContain(`(${stranger}) failed the gate`);
    expect(out).toMatch(/attestation: BMC \(BMC\) chain: /);
    expect(out).not.toMatch(/PRIVATE KEY/);
    const maas = await maasView(lab);
    for (const n of [tampered, stranger]) expect(maas.get(n), n).toMatch(/^(Broken|Failed testing)\//);
    const slurm = await slurmNodes(lab);
    const joined = nodes.filter((n) => slurm.get(n)?.schedulable === true);
    expect(joined.sort()).toEqual(nodes.filter((n) => n !== tampered && n !== stranger).sort());
    // Secure Boot enforced on every node this boot.
    const state = await readFile(join(w.dir, "terraform.tfstate"), "utf8");
    expect(state).not.toMatch(/PRIVATE KEY/);
    const shown = JSON.parse((await w.ok(["show", "-json", "-no-color"])).stdout) as {
      values: { root_module: { resources: { type: string; name: string; values: Record<string, unknown> }[] } };
    };
    const firmware = shown.values.root_module.resources.filter((r) => r.type === "rackform_firmware");
    expect(firmware).toHaveLength(8);
    for (const f of firmware)
      expect(f.values.secure_boot_status, f.name).toMatchObject({
        enabled: true,
        current_boot: "Enabled",
        missing: [],
      });
    // The evidence re-verifies offline: six nodes' components verified, the two failures named again.
    await w.ok(["show", "-json", "-no-color"]).then((r) => w.write({ "state.json": r.stdout }));
    const args = [CLI, "attest", "verify", join(w.dir, "state.json"), "--anchors", join(w.dir, "lab-root-ca.pem")];
    const verify: { code?: number; stdout: string } = await run(process.execPath, [
      ...args,
      "--reference",
      join(w.dir, "reference.json"),
    ]).catch((e: { code: number; stdout: string }) => e);
    expect(verify.code ?? 0).toBe(1);
    const text = verify.stdout;
    // Six nodes' BMC and GPUs, and every other component of the two quarantined nodes.
    expect(text.match(/: verified/g)?.length).toBeGreaterThanOrEqual(6 * 2);
    expect(text).toMatch(/GPU_3 \(GPU\): measurement: index 2/);
    expect(text).toMatch(/BMC \(BMC\): chain: /);
  });

  it("the faults cleared, one apply re-runs the two gates and the nodes join", async () => {
    lab.world.faults.clear();
    const apply = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(apply.code, folded(apply)).toBe(0);
    const slurm = await slurmNodes(lab);
    for (const n of nodes) expect(slurm.get(n)?.schedulable, n).toBe(true);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("Secure Boot turned off by hand on a running node is drift: one apply re-enables it inside the budget and the node rejoins", async () => {
    const n = lab.info.nodes[4];
    const r = resourceName(n.name);
    // A person turns Secure Boot off through the BMC (it takes effect at the next boot).
    const rf = new RedfishClient({ baseUrl: n.bmc.url, ...n.bmc, auth: "basic", ca: lab.info.ca });
    try {
      const system = await rf.getSystem();
      expect((await rf.setSecureBootEnable(system.odataId, false)).enable).toBe(false);
    } finally {
      await rf.close();
    }
    const plan = await w.run(["plan", "-no-color"]);
    expect(folded(plan)).toMatch(new RegExp(`rackform_firmware\\.${r} will be updated in-place`));
    const before = await attestedAt(r);
    const apply = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(apply.code, folded(apply)).toBe(0);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await slurmNodes(lab)).get(n.name)?.schedulable).toBe(true);
    // The gate the member re-ran: the refresh recording it keeps attestation evidence of the node as it came back.
    await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
    const after = await attestedAt(r);
    expect(after.passed).toBe(true);
    expect(Date.parse(after.measuredAt)).toBeGreaterThan(Date.parse(before.measuredAt));
  });

  /** When the attestation evidence state keeps for node resource `r` was measured, and its verdict. */
  async function attestedAt(r: string): Promise<{ measuredAt: string; passed: unknown }> {
    const shown = JSON.parse((await w.ok(["show", "-json", "-no-color"])).stdout) as {
      values: { root_module: { resources: { type: string; name: string; values: Record<string, unknown> }[] } };
    };
    const gate = shown.values.root_module.resources.find((x) => x.type === "rackform_acceptance" && x.name === r);
    const doc = JSON.parse(String(gate?.values.attestation_evidence)) as { measured_at: string; passed: unknown };
    return { measuredAt: doc.measured_at, passed: doc.passed };
  }

  it("bad inputs fail at plan, before any request to a BMC: a reference whose sha256 is not the pinned one, a trust anchor that is not a CA, an unknown component kind", async () => {
    const leaf = await issue({ subject: "CN=not a CA", ca: false });
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        "sha",
        { "main.tf": rackConfig(lab, "maas", nodes, { trust: trust({ sha: "0".repeat(64) }) }) },
        /Reference values do not match their pinned sha256/,
      ],
      [
        "anchor",
        { "main.tf": rackConfig(lab, "maas", nodes, { trust: trust() }), "lab-root-ca.pem": leaf.pem },
        /Invalid trust anchor.*is not a CA certificate/,
      ],
      [
        "kind",
        { "main.tf": rackConfig(lab, "maas", nodes, { trust: trust({ components: ["FPGA"] }) }) },
        /Unknown component kind/,
      ],
    ];
    for (const [what, files, message] of cases) {
      const bad = await rackStack(engine(name), cliConfig, lab, "maas", nodes, {});
      await bad.write({ "lab-root-ca.pem": rootPem, "reference.json": reference, ...files });
      await bad.ok(["init", "-no-color"]);
      const before = lab.requests.last();
      const plan = await bad.run(["plan", "-no-color"]);
      expect(plan.code, what).not.toBe(0);
      expect(folded(plan), what).toMatch(message);
      expect(lab.requests.since(before), what).toEqual([]);
    }
  });
});
