/**
 * A gate that attests, re-run by the node's cluster member in a rolling update (issue 34): the refresh that records
 * that run's verdict keeps attestation evidence of the node as it came back — signed answers measured after the run,
 * which `rackform attest verify` re-verifies offline like the first gate's — and not the first gate's evidence.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { attestVerify } from "../../../src/cli/attest-verify.js";
import { HttpConnectError } from "../../../src/clients/errors.js";
import { UNKNOWN } from "../../../src/framework/index.js";
import type { AcceptanceEvidence, Backend } from "../../../src/provider/backends/index.js";
import {
  type AcceptanceDeps,
  createAcceptance,
  readAcceptance,
  updateAcceptance,
} from "../../../src/provider/resources/acceptance-ops.js";
import type { AcceptancePlan, AcceptanceState } from "../../../src/provider/resources/acceptance-schema.js";
import { sha256Hex } from "../../../src/provider/resources/attestation-schema.js";
import { RolloutHandovers } from "../../../src/provider/shared/rollout-handover.js";
import { acceptancePlan, passingEvidence } from "../../support/acceptance-fixtures.js";
import { type Fault, fakeBmc, pki, reference } from "../../support/attest/fake-bmc.js";
import { FakeBackend } from "../../support/fake-backend.js";
import { typedRequest as req } from "../../support/typed-request.js";

const OLD = "ubuntu-gpu@1 sha256:aa";
const NEW = "ubuntu-gpu@2 sha256:bb";

const evidence = (measuredAt: string): AcceptanceEvidence => passingEvidence({ measured_at: measuredAt });

/** A deployed machine whose gate reports the evidence `gate.e` (a run changes it) and whose BMC has `faults`. */
function node() {
  const fake = new FakeBackend("maas");
  const m = fake.seed({ name: "r01-n02", state: "deployed", status: "Deployed" });
  const gate = { e: evidence("2026-11-01T00:00:00Z"), runs: 0, mark: "t1" };
  const facts = () => ({ ...fake.facts(m), testsMark: gate.mark });
  const backend: Backend = Object.assign(Object.create(fake), {
    runAcceptance: async () => {
      gate.runs++;
      gate.mark = `t${gate.runs + 1}`;
      gate.e = evidence(`2026-11-0${gate.runs + 1}T00:00:00Z`);
      return { outcome: { kind: "complete", facts: facts() }, evidence: gate.e };
    },
    read: async (id: string) => (fake.machines.has(id) ? facts() : undefined),
    lastAcceptance: async () => gate.e,
  });
  const bmc = { faults: {} as Record<string, Fault>, posts: 0, down: false };
  const rollouts = new RolloutHandovers();
  const deps: AcceptanceDeps = {
    backend: () => backend,
    bmc: () => {
      const b = fakeBmc(bmc.faults);
      if (bmc.down) b.componentIntegrity = () => Promise.reject(new HttpConnectError("connect ECONNREFUSED", {}));
      const post = b.spdmSignedMeasurements;
      b.spdmSignedMeasurements = (uri, r) => {
        bmc.posts++;
        return post(uri, r);
      };
      return b;
    },
    budget: { releaseFailed: async () => {} },
    rollouts,
  };
  return { m, gate, bmc, deps, rollouts, fake };
}

const attestation = {
  bmc_endpoint: "https://10.0.0.5",
  trust_anchors: [pki.root.pem],
  reference_values: reference,
  reference_sha256: sha256Hex(reference),
  components: ["GPU", "BMC"],
};

const planOf = (machineId: string, o: Partial<AcceptancePlan> = {}): AcceptancePlan =>
  acceptancePlan(machineId, { image_ref: OLD, attestation, ...o });

type Doc = { measured_at: string; passed: boolean; components: { id: string; nonce: string; passed: boolean }[] };
const doc = (s: AcceptanceState | null | undefined): Doc => JSON.parse(String(s?.attestation_evidence)) as Doc;

/** The first gate, then a rolling reimage's update, and the member's run of the gate it offered. */
async function rolled(faultsAtRun: Record<string, Fault> = {}) {
  const n = node();
  const id = `maas:${n.m.id}`;
  const first = await createAcceptance({ ...req(), plan: planOf(id) }, n.deps);
  if (!first) throw new Error("the first gate recorded nothing");
  const update = { ...req(), plan: { ...first, image_ref: NEW, passed: UNKNOWN }, state: first };
  const offered = await updateAcceptance(update, n.deps);
  n.bmc.faults = faultsAtRun;
  const step = { ...req(), machineId: id, rebooted: true };
  const outcome = await n.rollouts.take(id).gate?.run(step);
  return { ...n, first, offered: offered as AcceptanceState, outcome };
}

const dir = await mkdtemp(join(tmpdir(), "rf-rolling-attest-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("rackform_acceptance: a rolling gate's attestation evidence", () => {
  it("lands in attestation_evidence at the refresh that records the run, and re-verifies offline", async () => {
    // GIVEN a node whose first gate attested, re-gated by its member after a rolling reimage
    const { first, offered, outcome, bmc, deps, gate } = await rolled();
    expect([outcome, offered.passed, offered.attestation_evidence]).toEqual(["done", null, first.attestation_evidence]);
    const posts = bmc.posts;
    // WHEN the next refresh records the run's verdict
    const read = await readAcceptance({ ...req(), state: offered }, deps);
    // THEN the evidence is the node's as it came back: measured after the first gate, every nonce fresh, passed
    expect([read?.passed, read?.image_ref, read?.evidence]).toEqual([true, NEW, JSON.stringify(gate.e)]);
    const before = doc(first);
    const after = doc(read);
    expect(after.passed).toBe(true);
    expect(Date.parse(after.measured_at)).toBeGreaterThanOrEqual(Date.parse(before.measured_at));
    expect(after.components.map((c) => c.id)).toEqual(before.components.map((c) => c.id));
    const nonces = new Set(before.components.map((c) => c.nonce));
    expect(after.components.filter((c) => nonces.has(c.nonce))).toEqual([]);
    expect(bmc.posts).toBe(posts + after.components.length);
    // AND an auditor re-verifies it offline like the first gate's
    await writeFile(join(dir, "evidence.json"), String(read?.attestation_evidence));
    await writeFile(join(dir, "root.pem"), pki.root.pem);
    await writeFile(join(dir, "reference.json"), reference);
    const out: string[] = [];
    const args = [
      join(dir, "evidence.json"),
      "--anchors",
      join(dir, "root.pem"),
      "--reference",
      join(dir, "reference.json"),
    ];
    expect(await attestVerify(args, (s) => out.push(s))).toBe(0);
    // AND the refreshes after it keep that evidence without asking the BMC again
    const again = await readAcceptance({ ...req(), state: read as AcceptanceState }, deps);
    expect([again?.passed, again?.attestation_evidence]).toEqual([true, read?.attestation_evidence]);
    expect(bmc.posts).toBe(posts + after.components.length);
  });

  it("records the failure with its evidence when a component no longer attests after the run", async () => {
    // GIVEN a rolled node whose GPU_1 measures other firmware after the reimage (the member's run quarantined it)
    const { offered, outcome, deps } = await rolled({ GPU_1: "tamper" });
    expect(outcome).toBe("failed");
    // WHEN the next refresh records the run
    const read = await readAcceptance({ ...req(), state: offered }, deps);
    // THEN the gate failed, and its evidence names the component and the index
    expect(read?.passed).toBe(false);
    const failed = doc(read).components.filter((c) => !c.passed);
    expect(failed.map((c) => c.id)).toEqual(["GPU_1"]);
    expect(String(read?.attestation_evidence)).toMatch(/index 2/);
  });

  it("keeps the verdict pending, with a warning, while the BMC does not answer that refresh", async () => {
    const { offered, bmc, deps } = await rolled();
    bmc.down = true;
    const r = req();
    const held = await readAcceptance({ ...r, state: offered }, deps);
    expect([held?.passed, held?.attestation_evidence]).toEqual([null, offered.attestation_evidence]);
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["warning"]);
    bmc.down = false;
    expect((await readAcceptance({ ...req(), state: held as AcceptanceState }, deps))?.passed).toBe(true);
  });

  it("keeps the verdict pending, and asks no BMC, while the member has not run the gate", async () => {
    const n = node();
    const id = `maas:${n.m.id}`;
    const first = await createAcceptance({ ...req(), plan: planOf(id) }, n.deps);
    const offered = await updateAcceptance(
      { ...req(), plan: { ...(first as AcceptanceState), image_ref: NEW, passed: UNKNOWN }, state: first! },
      n.deps,
    );
    const posts = n.bmc.posts;
    const read = await readAcceptance({ ...req(), state: offered as AcceptanceState }, n.deps);
    expect([read?.passed, read?.attestation_evidence]).toEqual([null, first?.attestation_evidence]);
    expect(n.bmc.posts).toBe(posts);
  });
});
