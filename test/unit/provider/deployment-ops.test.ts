/**
 * rackform_deployment's handlers called directly with fake deps: the in-memory backend, a recording budget, and
 * image.url checks that answer as told. No provider, no server, no lab.
 */
import { describe, expect, it } from "vitest";
import { HttpConnectError, RackformClientError } from "../../../src/clients/errors.js";
import { type Diagnostics, formatPath, type PrivateState, UNKNOWN } from "../../../src/framework/index.js";
import type { Backend, DeployOptions, Outcome } from "../../../src/provider/backends/index.js";
import {
  createDeployment,
  deleteDeployment,
  importDeployment,
  readDeployment,
  updateDeployment,
} from "../../../src/provider/resources/deployment-ops.js";
import { planDeployment, validateDeployment } from "../../../src/provider/resources/deployment-plan.js";
import type { DeploymentConfig, DeploymentState } from "../../../src/provider/resources/deployment-schema.js";
import { deploymentDeps as fakeDeps, image, LABEL, maas, plan, recorded, SHA } from "../../support/deployment-fakes.js";
import { FakeBackend, type FakeMachine } from "../../support/fake-backend.js";
import { typedRequest } from "../../support/typed-request.js";

const req = () => typedRequest();
const summaries = (d: Diagnostics) => d.items.map((x) => `${x.severity} ${x.summary}`);

/** A backend whose `method` fails with `e`. */
function failing(fake: FakeBackend, method: keyof Backend, e: Error): Backend {
  return Object.assign(Object.create(fake), { [method]: () => Promise.reject(e) });
}

describe("rackform_deployment create", () => {
  it("deploys the image and records the backend's facts, the host powered on", async () => {
    const { fake, m } = maas();
    const { deps, budget } = fakeDeps(fake);
    const r = req();
    const s = await createDeployment({ ...r, plan: plan(`maas:${m.id}`) }, deps);
    expect(summaries(r.diagnostics)).toEqual([]);
    expect(s).toEqual(recorded(m));
    expect(fake.calls).toEqual([`deploy ${m.id}`]);
    expect(budget).toEqual([]);
  });

  it("fails an Ironic plan without image.url before any backend call, and gives back its drain slot", async () => {
    const fake = new FakeBackend("ironic");
    const { deps, budget, checked } = fakeDeps(fake);
    const r = req();
    expect(await createDeployment({ ...r, plan: plan("ironic:n-1") }, deps)).toBeUndefined();
    expect(r.diagnostics.items.map((d) => `${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      "Ironic needs image.url @ image.url",
    ]);
    expect([fake.calls, checked]).toEqual([[], []]);
    expect(budget).toEqual(["releaseFailed ironic:n-1: failed to deploy"]);
  });

  it("checks an Ironic image.url first: one that does not answer sends nothing to the backend", async () => {
    const fake = new FakeBackend("ironic");
    const m = fake.seed({ name: "n1", state: "ready" });
    const url = "https://images.example.com/ubuntu.qcow2";
    const p = plan(`ironic:${m.id}`, { image: { ...image, url } });
    const down = fakeDeps(fake, "HEAD answered HTTP 404");
    const r = req();
    expect(await createDeployment({ ...r, plan: p }, down.deps)).toBeUndefined();
    expect([summaries(r.diagnostics), down.checked, fake.calls]).toEqual([
      ["error Image URL does not answer"],
      [`answers ${url}`],
      [],
    ]);
    const up = fakeDeps(fake);
    const s = await createDeployment({ ...req(), plan: p }, up.deps);
    expect(s?.deployed_image).toBe(`${url} sha256:${SHA}`);
    expect(fake.calls).toEqual([`deploy ${m.id}`]);
  });

  it("a malformed machine id is an error at machine_id", async () => {
    const r = req();
    expect(await createDeployment({ ...r, plan: plan("nope") }, fakeDeps(new FakeBackend()).deps)).toBeUndefined();
    expect(r.diagnostics.items.map((d) => `${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      "Invalid machine_id @ machine_id",
    ]);
  });

  it("a failed deploy is recorded (tainted) with the backend's evidence", async () => {
    const { fake, m } = maas();
    const b = Object.assign(Object.create(fake), {
      deploy: async (id: string, _o: DeployOptions): Promise<Outcome> => {
        Object.assign(m, { state: "failed", status: "Failed deployment" });
        return { kind: "failed", facts: fake.facts(fake.machines.get(id) as FakeMachine), message: "curtin failed" };
      },
    });
    const { deps, budget } = fakeDeps(b);
    const r = req();
    const s = await createDeployment({ ...r, plan: plan(`maas:${m.id}`) }, deps);
    expect(summaries(r.diagnostics)).toEqual(["error Deployment failed"]);
    expect(r.diagnostics.items[0].detail).toContain("curtin failed");
    expect(s).toMatchObject({ id: `maas:${m.id}`, status: "Failed deployment", power_state: "on" });
    expect(budget).toEqual([`releaseFailed maas:${m.id}: failed to deploy`]);
  });

  it("a deploy that throws once started is kept as tainted unless the machine is free again", async () => {
    const { fake, m } = maas();
    const b = failing(fake, "deploy", new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "409 Conflict", {}));
    m.state = "deploying";
    const r = req();
    const s = await createDeployment({ ...r, plan: plan(`maas:${m.id}`) }, fakeDeps(b).deps);
    expect(summaries(r.diagnostics)).toContain("error Deployment kept as tainted");
    expect(s?.id).toBe(`maas:${m.id}`);
    m.state = "ready";
    expect(await createDeployment({ ...req(), plan: plan(`maas:${m.id}`) }, fakeDeps(b).deps)).toBeUndefined();
  });
});

describe("rackform_deployment read", () => {
  it("reads the facts and host power; a machine released by hand is gone", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: LABEL, power: "off" });
    const { deps } = fakeDeps(fake);
    const st = recorded(m);
    expect(await readDeployment({ ...req(), state: st }, deps)).toEqual({ ...st, power_state: "off" });
    expect(fake.calls).toEqual([`read ${m.id}`, `powerState ${m.id}`]);
    Object.assign(m, { state: "ready", status: "Ready" });
    expect(await readDeployment({ ...req(), state: st }, deps)).toBeNull();
  });

  it("a host this plan saw on through its BMC is not asked again; an unanswering BMC is a known 'unknown'", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: LABEL, power: "unknown" });
    const { deps } = fakeDeps(fake);
    const seen = { ...deps, sightings: { seenOn: (id: string) => id === `maas:${m.id}` } };
    expect(await readDeployment({ ...req(), state: recorded(m) }, seen)).toEqual(recorded(m));
    expect(fake.calls).toEqual([`read ${m.id}`]);
    const r = req();
    expect((await readDeployment({ ...r, state: recorded(m) }, deps))?.power_state).toBe("unknown");
    expect(summaries(r.diagnostics)).toEqual(["warning Host power unknown: n1"]);
  });

  it("keeps the recorded state: a warning when the backend does not answer, an error when it refuses", async () => {
    const { fake, m } = maas();
    const st = recorded(m);
    const r = req();
    const down = failing(fake, "read", new HttpConnectError("connect ECONNREFUSED", {}));
    expect(await readDeployment({ ...r, state: st }, fakeDeps(down).deps)).toBe(st);
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["warning"]);
    const r2 = req();
    const refused = new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "401 Unauthorized", { status: 401 });
    expect(await readDeployment({ ...r2, state: st }, fakeDeps(failing(fake, "read", refused)).deps)).toBe(st);
    expect(r2.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
  });

  it("warns per node when an Ironic deployment's image.url no longer answers, unless check_url is false", async () => {
    const fake = new FakeBackend("ironic");
    const m = fake.seed({ name: "n7", state: "deployed", status: "active", power: "on" });
    const url = "https://images.example.com/ubuntu.qcow2";
    const st: DeploymentState = {
      ...recorded(m, { image: { ...image, url } }),
      id: `ironic:${m.id}`,
      machine_id: `ironic:${m.id}`,
    };
    const { deps, checked } = fakeDeps(fake, "HEAD answered HTTP 404");
    const r = req();
    await readDeployment({ ...r, state: st }, deps);
    expect(r.diagnostics.items.map((d) => `${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      "Image URL no longer answers: n7 @ image.url",
    ]);
    expect(checked).toEqual([`problem ${url}`]);
    const r2 = req();
    await readDeployment({ ...r2, state: { ...st, image: { ...st.image, check_url: false } } }, deps);
    expect(r2.diagnostics.items).toEqual([]);
  });
});

describe("rackform_deployment update, delete, import", () => {
  it("update powers on a host found off and records the refreshed status", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: LABEL, power: "off" });
    const st = recorded(m, { power_state: "off" });
    const p = { ...plan(`maas:${m.id}`), id: st.id, power_state: "on" };
    const s = await updateDeployment({ ...req(), plan: p, state: st }, fakeDeps(fake).deps);
    expect(fake.calls).toEqual([`powerOn ${m.id}`, `read ${m.id}`]);
    expect(s).toEqual({ ...st, power_state: "on" });
  });

  it("update of a machine gone from the backend is an error that records nothing", async () => {
    const { fake, m } = maas();
    const st = recorded(m);
    fake.machines.delete(m.id);
    const r = req();
    expect(await updateDeployment({ ...r, plan: plan(m.id), state: st }, fakeDeps(fake).deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Machine not found"]);
  });

  it("delete releases with erase; a failed release stays in state and gives back the drain slot", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed" });
    const ok = fakeDeps(fake);
    await deleteDeployment({ ...req(), state: recorded(m) }, ok.deps);
    expect([fake.calls, ok.budget]).toEqual([[`release ${m.id}`], ["tearingDown"]]);
    const b = Object.assign(Object.create(fake), {
      release: async (): Promise<Outcome> => ({ kind: "failed", facts: fake.facts(m), message: "disk erase failed" }),
    });
    const bad = fakeDeps(b);
    const r = req();
    await deleteDeployment({ ...r, state: recorded(m) }, bad.deps);
    expect(summaries(r.diagnostics)).toEqual(["error Release failed: n1"]);
    expect(bad.budget).toEqual(["tearingDown", `release maas:${m.id}: failed to release`]);
  });

  it("import takes the machine id; anything else is an error", () => {
    expect(importDeployment({ ...req(), id: "maas:4y3h7n" })).toEqual({
      id: "maas:4y3h7n",
      machine_id: "maas:4y3h7n",
      erase_on_destroy: true,
    });
    const r = req();
    expect(importDeployment({ ...r, id: "4y3h7n" })).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Invalid import id for rackform_deployment"]);
  });
});

describe("rackform_deployment plan", () => {
  const m = { id: "abc" } as FakeMachine;
  const config = (o: Partial<DeploymentConfig> = {}): DeploymentConfig => ({ ...recorded(m), ...o });
  const planned = (state: DeploymentState | null, p: DeploymentConfig | null) => {
    const r = { ...req(), private: {}, config: p, plan: p, state };
    const out = planDeployment(r);
    return { out, replaces: (out?.requiresReplace ?? []).map((x) => formatPath(x)) };
  };

  it("plans only image_ref on create, nothing on destroy, and a host found off back on in place", () => {
    expect(planned(null, config()).out?.plan?.image_ref).toBe(`ubuntu-gpu@2026.06.2 sha256:${SHA}`);
    expect(planned(recorded(m), null).out).toBeUndefined();
    const off = planned(recorded(m, { power_state: "off" }), config({ power_state: "off" }));
    expect([off.out?.plan?.power_state, off.replaces]).toEqual(["on", []]);
  });

  it("a new image version or user data replaces; a new signature does not", () => {
    const v = planned(recorded(m), config({ image: { ...image, version: "2026.07.1" }, user_data: "#cloud-config" }));
    expect(v.replaces).toEqual(["user_data", "image.version"]);
    expect(planned(recorded(m), config({ image: { ...image, signature: "sig" } })).replaces).toEqual([]);
  });

  it("an image changed out of band replaces through deployed_image; right after an import only a machine change does", () => {
    const oob = planned(recorded(m, { deployed_image: "custom/other" }), config({ deployed_image: "custom/other" }));
    expect([oob.replaces, oob.out?.plan?.deployed_image]).toEqual([["deployed_image"], LABEL]);
    const imported = { ...recorded(m), image: null } as unknown as DeploymentState;
    expect(planned(imported, config({ user_data: "#cloud-config" })).replaces).toEqual([]);
    const unknownImage = planned(
      recorded(m, { deployed_image: "custom/other" }),
      config({ image: { ...image, version: UNKNOWN }, deployed_image: "custom/other" }),
    );
    expect([unknownImage.replaces, unknownImage.out?.plan?.deployed_image]).toEqual([
      ["image.version", "deployed_image"],
      UNKNOWN,
    ]);
  });

  it("validation flags one of deploy_kernel/deploy_ramdisk on Ironic and Ironic settings on MAAS", () => {
    const r = req();
    validateDeployment({
      ...r,
      config: config({ machine_id: "ironic:x", deploy_kernel: "http://i/k", image: { ...image, url: "http://i/img" } }),
    });
    expect(r.diagnostics.items.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      "error Set deploy_kernel and deploy_ramdisk together @ deploy_ramdisk",
    ]);
    const r2 = req();
    validateDeployment({ ...r2, config: config({ deploy_kernel: "http://i/k", deploy_ramdisk: UNKNOWN }) });
    expect(r2.diagnostics.items.map((d) => `${d.severity} ${d.summary}`)).toEqual([
      "warning deploy_kernel is ignored by MAAS",
    ]);
  });
});

describe("rackform_deployment rolling", () => {
  const NEXT = { ...image, version: "2026.07.1" };
  const NEXT_LABEL = "custom/ubuntu-gpu-2026.07.1";

  it("once rolling is recorded, a new image plans in place; switched on with the image, it still replaces", () => {
    const m = { id: "abc" } as FakeMachine;
    const planOf = (state: DeploymentState, priv: PrivateState = {}) => {
      const p = { ...state, image: NEXT, rolling: true };
      const out = planDeployment({ ...req(), private: priv, config: p, plan: p, state });
      return { out, replaces: (out?.requiresReplace ?? []).map((x) => formatPath(x)) };
    };
    const rolled = planOf(recorded(m, { rolling: true }));
    expect(rolled.replaces).toEqual([]);
    expect(rolled.out?.plan?.image_ref).toBe(`ubuntu-gpu@2026.07.1 sha256:${SHA}`);
    expect(planOf(recorded(m)).replaces).toEqual(["image.version"]);
    // A reimage offered before and not done (the backend still reports the old image) is offered again.
    const again = { ...recorded(m, { rolling: true }), image: NEXT };
    const p = { ...again };
    const pending = planDeployment({ ...req(), private: { rolling_from: LABEL }, config: p, plan: p, state: again });
    expect([pending?.plan?.deployed_image, pending?.requiresReplace]).toEqual([UNKNOWN, []]);
    // Without that mark, the same state is an image changed out of band: a replacement.
    const oob = planDeployment({ ...req(), private: {}, config: p, plan: p, state: again });
    expect(oob?.requiresReplace?.map((x) => formatPath(x))).toEqual(["deployed_image"]);
  });

  it("the update records the image, offers the reimage to the member, and the offer releases and deploys", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: LABEL, power: "on" });
    const st = recorded(m, { rolling: true });
    const { deps, rollouts } = fakeDeps(fake);
    const r = req();
    const s = await updateDeployment({ ...r, plan: { ...st, image: NEXT, deployed_image: UNKNOWN }, state: st }, deps);
    // THEN the state records the new image while deployed_image still says what runs; nothing was deployed yet
    expect([s?.image.version, s?.deployed_image]).toEqual(["2026.07.1", LABEL]);
    expect(fake.calls).toEqual([`read ${m.id}`]);
    expect(r.private.value).toEqual({ rolling_from: LABEL });
    // WHEN the member runs the offer
    const offers = rollouts.take(`maas:${m.id}`);
    const step = { ...req(), machineId: `maas:${m.id}`, rebooted: false };
    expect(await offers.reimage?.run(step)).toBe("done");
    // THEN the machine was released and deployed with the new image
    expect(fake.calls.slice(1)).toEqual([`release ${m.id}`, `deploy ${m.id}`]);
    expect(m.image).toBe(NEXT_LABEL);
    expect(step.diagnostics.items).toEqual([]);
  });

  it("a new image whose url does not answer is refused at the update: nothing offered, nothing recorded", async () => {
    const fake = new FakeBackend("ironic");
    const m = fake.seed({ name: "n1", state: "deployed", status: "active" });
    const url = "https://images.example.com/ubuntu.qcow2";
    const st = { ...recorded(m, { rolling: true }), machine_id: `ironic:${m.id}`, image: { ...image, url } };
    const { deps, rollouts } = fakeDeps(fake, "HEAD answered HTTP 404");
    const r = req();
    const s = await updateDeployment(
      { ...r, plan: { ...st, image: { ...NEXT, url }, deployed_image: UNKNOWN }, state: st },
      deps,
    );
    // THEN the error names the url, the state stays as recorded, and the member gets no reimage to carry out
    expect(r.diagnostics.items.map((d) => `${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      "Image URL does not answer @ ",
    ]);
    expect(s).toBe(st);
    expect(rollouts.take(`ironic:${m.id}`)).toEqual({});
    expect(r.private.value).toEqual({});
  });

  it("an update that changes no image offers nothing", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: LABEL, power: "on" });
    const st = recorded(m, { rolling: true });
    const { deps, rollouts } = fakeDeps(fake);
    const r = typedRequest({ rolling_from: "custom/old" });
    await updateDeployment({ ...r, plan: { ...st, timeouts: null }, state: st }, deps);
    expect(rollouts.take(`maas:${m.id}`)).toEqual({});
    expect(r.private.value).toEqual({});
  });
});
