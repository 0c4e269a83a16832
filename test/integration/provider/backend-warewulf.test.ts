/**
 * The Warewulf adapter against the lab's warewulfd and its Redfish BMCs (instant profile, 10 ms polls): find before
 * enroll (a crashed run's node is found by name, MAC or BMC and never defined twice), commission (the node boots from
 * the network once so warewulfd sees it, then is off), deploy (image imported and built, overlays, a PXE boot through
 * Redfish, deployed when /status shows runtime after that boot; a repeat completes at once), the scheduler join from
 * the user data tag, quarantine and its lifting, the acceptance gate (rackform's runtime overlay and request/result
 * tags: pass, fail with evidence, a crashed run taken up, never started twice), an install failure
 * as a failed Outcome, release and remove (repeat-safe). No BMC password reaches a log line.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCore } from "../../../src/clients/http/core.js";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { WarewulfClient } from "../../../src/clients/warewulf/index.js";
import { createLogger } from "../../../src/framework/index.js";
import { type Lab, startLab } from "../../../src/lab/index.js";
import type { ImageSpec } from "../../../src/provider/backends/index.js";
import { WAREWULF_ACCEPTANCE, WarewulfBackend } from "../../../src/provider/backends/index.js";
import { until } from "../../support/until.js";
import { enrollSpecOf } from "./backend-support.js";

let lab: Lab;
let stateDir: string;
let core: HttpCore;
let client: WarewulfClient;
let backend: WarewulfBackend;
const logLines: string[] = [];
const log = createLogger({ write: (l) => logLines.push(l) });
const op = () => ({ log, signal: AbortSignal.timeout(20_000), pollMs: 10 });
const spec = (i: number) => enrollSpecOf(lab, i);
const IMAGE: ImageSpec = {
  name: "rocky",
  version: "9.4",
  url: "docker://ghcr.io/example/rocky:9.4",
  sha256: "a".repeat(64),
};

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "rf-warewulf-backend-"));
  lab = await startLab({ nodes: 3, profile: "instant", stateDir });
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  const ww = lab.info.warewulf;
  if (!ww) throw new Error("the lab serves no warewulfd");
  core = new HttpCore({ tls: { ca: await readFile(lab.info.ca, "utf8") }, log: (l) => logLines.push(l) });
  client = new WarewulfClient({ url: ww.url, username: ww.username, password: ww.password, core });
  const clients = new Map<string, RedfishClient>();
  backend = new WarewulfBackend(client, {
    redfish: (address, username, password) => {
      const key = `${address}#${username}#${password}`;
      let c = clients.get(key);
      if (!c) clients.set(key, (c = new RedfishClient({ baseUrl: address, username, password, core })));
      return c;
    },
    pollMs: 10,
    redact: (s) => core.redactor.add(s),
  });
});

afterAll(async () => {
  await core?.close();
  await lab?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe("WarewulfBackend against the lab warewulfd", () => {
  it("finds nothing, enrolls once, and finds the node by name, MAC and BMC afterwards (crash-resume)", async () => {
    const s = spec(0);
    expect(await backend.find(s)).toBeUndefined();
    expect(await backend.enroll(s)).toBe(s.name);
    // A re-apply after a crash that lost the id: find-before-enroll finds the node by any part of its identity.
    const byMac = await backend.find({ name: "other-name", macs: s.macs, bmcAddress: "https://192.0.2.1" });
    expect(byMac?.facts.id).toBe(s.name);
    expect(byMac?.matchedBy).toEqual(["mac"]);
    const all = await backend.find(s);
    expect(all?.matchedBy).toEqual(["name", "mac", "bmc"]);
    expect(all?.facts).toMatchObject({ state: "enrolled", status: "never seen" });
    // An enroll that lands twice (its answer lost) leaves one node.
    expect(await backend.enroll(s)).toBe(s.name);
    expect((await client.listNodes()).map((n) => n.id)).toEqual([s.name]);
    const node = await client.getNode(s.name, { raw: true });
    expect(node?.fields.profiles).toEqual(["default"]);
    expect(node?.fields["network devices"]?.default?.hwaddr).toBe(s.macs[0].toLowerCase());
  });

  it("commissions: the node boots from the network once, is seen by warewulfd, and is off again", async () => {
    const s = spec(0);
    const out = await backend.commission(s.name, op());
    expect(out.kind).toBe("complete");
    expect(out.facts.state).toBe("ready");
    expect(await backend.powerState(s.name)).toBe("off");
    expect((await backend.commission(s.name, op())).kind).toBe("complete");
  });

  it("deploys: imports and builds the image, boots through Redfish, deployed at runtime; the node joins Slurm", async () => {
    const s = spec(0);
    const out = await backend.deploy(s.name, {
      ...op(),
      image: IMAGE,
      userData: "#cloud-config\n# rackform-join: slurm\n",
    });
    expect(out.kind).toBe("complete");
    expect(out.facts).toMatchObject({ state: "deployed", image: "rocky-9.4", status: "stage runtime" });
    expect((await client.getImage("rocky-9.4"))?.buildtime).toBeGreaterThan(0);
    expect(await backend.powerState(s.name)).toBe("on");
    const since = lab.world.node(s.name)?.power.since;
    const again = await backend.deploy(s.name, { ...op(), image: IMAGE });
    expect(again.kind).toBe("complete");
    expect(lab.world.node(s.name)?.power.since).toBe(since);
    await until(`${s.name} registered with Slurm`, () => lab.backends?.slurm.hooks.node(s.name), { everyMs: 10 });
    expect(lab.backends?.slurm.hooks.node(s.name)).toBeDefined();
  });

  it("quarantines with a tag, reads it as broken, and lifts only its own quarantine", async () => {
    const s = spec(0);
    await backend.quarantine(s.name, "rackform acceptance failed: 7 of 8 GPUs");
    expect((await backend.read(s.name))?.state).toBe("broken");
    expect(await backend.liftQuarantine(s.name)).toBe(true);
    expect(await backend.liftQuarantine(s.name)).toBe(false);
    expect((await backend.read(s.name))?.state).toBe("deployed");
    await backend.quarantine(s.name, "taken out by hand");
    expect(await backend.liftQuarantine(s.name)).toBe(false);
    // PATCH cannot clear a field (mergo skips empty values): the operator's way back is a PUT of the node without it.
    await client.patchNode(s.name, { tags: { rackform_quarantine: "" } });
    expect((await backend.read(s.name))?.state).toBe("broken");
    const raw = await client.getNode(s.name, { raw: true });
    const { rackform_quarantine: _hand, ...tags } = raw?.fields.tags ?? {};
    await client.putNode(s.name, { ...raw?.fields, tags });
    expect((await backend.read(s.name))?.state).toBe("deployed");
  });

  it("marks a health remedy as a node tag, read back by the next refresh; the other tags stay", async () => {
    const s = spec(0);
    const before = (await client.getNode(s.name, { raw: true }))?.fields.tags ?? {};
    await backend.noteRemedy(s.name, "power_cycle:1@2026-11-27T10:05:00.000Z");
    expect(await backend.lastRemedy(s.name)).toBe("power_cycle:1@2026-11-27T10:05:00.000Z");
    expect((await client.getNode(s.name, { raw: true }))?.fields.tags).toEqual({
      ...before,
      rackform_remedy: "power_cycle:1@2026-11-27T10:05:00.000Z",
    });
  });

  it("runs the gate as rackform's runtime overlay: passes with evidence, and the run is consumed", async () => {
    const s = spec(0);
    const run = await backend.runAcceptance(s.name, { ...op(), params: { dcgmLevel: 3, burnIn: "1m" } });
    expect(run.outcome.kind).toBe("complete");
    expect(run.evidence).toMatchObject({ format: "rackform-acceptance/v1", node: s.name, passed: true });
    const raw = await client.getNode(s.name, { raw: true });
    expect(raw?.fields.tags?.[WAREWULF_ACCEPTANCE.request]).toBeUndefined();
    expect(raw?.fields["runtime overlay"] ?? []).not.toContain(WAREWULF_ACCEPTANCE.overlay);
    expect(await backend.lastAcceptance(s.name)).toEqual(run.evidence);
    expect((await backend.read(s.name))?.state).toBe("deployed");
  });

  it("reports a failing gate with measured-vs-expected evidence (marginal NCCL)", async () => {
    const s = spec(0);
    lab.world.faults.add({ kind: "marginal-nccl", node: s.name, value: 300 });
    try {
      const run = await backend.runAcceptance(s.name, { ...op(), params: { dcgmLevel: 3, burnIn: "1m" } });
      expect(run.outcome.kind).toBe("failed");
      if (run.outcome.kind === "failed") expect(run.outcome.message).toContain("busbw 300 GB/s");
      expect(run.evidence).toMatchObject({ passed: false, nccl: { busbw_gbps: 300, passed: false } });
      // The resource quarantines it; a re-run (the way back) lifts rackform's tag first, then the gate decides.
      await backend.quarantine(s.name, "rackform acceptance failed: nccl");
    } finally {
      lab.world.faults.clear();
    }
    const again = await backend.runAcceptance(s.name, { ...op(), params: { dcgmLevel: 3, burnIn: "1m" } });
    expect(again.outcome.kind).toBe("complete");
    expect((await backend.read(s.name))?.state).toBe("deployed");
  });

  it("takes up a run a crashed apply left (running or finished) and never starts a second", async () => {
    const s = spec(0);
    const params = { dcgmLevel: 2, burnIn: "30m" };
    const runOf = async () => {
      const raw = await client.getNode(s.name, { raw: true });
      const tag = raw?.fields.tags?.[WAREWULF_ACCEPTANCE.result] ?? "";
      return JSON.parse(Buffer.from(tag, "base64").toString("utf8")).run as string;
    };
    // GIVEN a request the crashed run wrote, whose result the node has written meanwhile
    const left = {
      run: "crashed-1",
      dcgm_level: 2,
      burn_in: "30m",
    };
    const raw = await client.getNode(s.name, { raw: true });
    const overlays = [...(raw?.fields["runtime overlay"] ?? []), WAREWULF_ACCEPTANCE.overlay];
    const request = Buffer.from(JSON.stringify(left)).toString("base64");
    await client.patchNode(s.name, {
      "runtime overlay": overlays,
      tags: { [WAREWULF_ACCEPTANCE.request]: request },
    });
    await until("run crashed-1", async () => (await runOf().catch(() => "")) === "crashed-1", { everyMs: 10 });
    expect(await runOf()).toBe("crashed-1");
    // WHEN the gate is run again with the same parameters THEN that result is read, no new run starts
    const run = await backend.runAcceptance(s.name, { ...op(), params });
    expect(run.outcome.kind).toBe("complete");
    expect(await runOf()).toBe("crashed-1");
    expect(logLines.join("\n")).toContain("taking up the acceptance run already requested");
    // AND the next run is a new one
    await backend.runAcceptance(s.name, { ...op(), params });
    expect(await runOf()).not.toBe("crashed-1");
  });

  it("reports an install failure (the image not found at boot) as a failed Outcome", async () => {
    const s = spec(1);
    await backend.enroll(s);
    lab.world.faults.add({ kind: "deploy-failure", node: s.name });
    const out = await backend.deploy(s.name, { ...op(), image: IMAGE });
    expect(out.kind).toBe("failed");
    if (out.kind === "failed") expect(out.message).toContain("stopped at stage image: warewulfd sent NOT_FOUND");
    expect(out.facts.state).toBe("failed");
  });

  it("refuses to deploy an image Warewulf lacks and cannot import (no docker:// url)", async () => {
    const s = spec(2);
    await backend.enroll(s);
    const out = await backend.deploy(s.name, { ...op(), image: { ...IMAGE, version: "10", url: "https://x/i.qcow2" } });
    expect(out).toMatchObject({ kind: "failed" });
    if (out.kind === "failed") expect(out.fix).toContain("wwctl image import");
  });

  it("releases (off, image forgotten) and removes, both repeat-safe", async () => {
    const s = spec(0);
    const rel = await backend.release(s.name, { ...op(), erase: false });
    expect(rel?.facts.state).toBe("ready");
    expect(await backend.powerState(s.name)).toBe("off");
    expect((await client.getNode(s.name, { raw: true }))?.fields["image name"]).toBeUndefined();
    await backend.remove(s.name, op());
    await backend.remove(s.name, op());
    expect(await backend.read(s.name)).toBeUndefined();
    expect(await backend.release(s.name, { ...op(), erase: false })).toBeUndefined();
  });

  it("never logs a BMC or API password", () => {
    const text = logLines.join("\n");
    expect(text).not.toContain(spec(0).bmcPassword);
    expect(text).not.toContain(lab.info.warewulf?.password ?? "none");
  });
});
