/**
 * The health remediation ladder in the constructs: a HealthPolicy on a rolling Rack (or a Fleet's racks) makes each
 * node's deployment follow its BMC's health with the policy's steps, and the gate and the member follow the
 * deployment's step (the member with the policy's max_unhealthy); without a policy nothing of the ladder is written;
 * a policy on a rack that does not roll, or with bad steps or budget, fails at synth before anything is written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type App, Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import {
  Fleet,
  HealthPolicy,
  type HealthPolicyProps,
  KubernetesCluster,
  type MaxUnavailable,
  Rack,
  RackformStack,
  RackformValidationError,
  type RemediationStep,
  SlurmCluster,
} from "../../constructs/lib/index.js";
import {
  nodes,
  pdus,
  REDFISH,
  rackProps,
  ref,
  resources,
  type SynthJson,
  shared,
  synthJson,
  written,
} from "./support.js";

/** The attributes only the ladder writes, by resource type. */
const LADDER_KEYS: Record<string, readonly string[]> = {
  rackform_deployment: ["bmc_health", "remediation_steps", "remediation"],
  rackform_acceptance: ["remediation"],
  rackform_cluster_member: ["remediation", "max_unhealthy"],
};

interface RackOptions {
  readonly health?: HealthPolicyProps;
  readonly maxUnavailable?: MaxUnavailable;
  readonly nodeCount?: number;
}

/** Builds stack "row" with rack "r12" on Slurm (budget `maxUnavailable`) and, given `health`, a policy "ladder". */
function buildRack(app: App, o: RackOptions): { stack: RackformStack; rack: Rack } {
  const stack = new RackformStack(app, "row");
  const s = shared(stack);
  const cluster = new SlurmCluster(stack, "gpu", {
    url: "http://127.0.0.1:6820",
    user: "root",
    ...(o.maxUnavailable !== undefined ? { maxUnavailable: o.maxUnavailable } : {}),
  });
  const health = o.health ? { health: new HealthPolicy(stack, "ladder", o.health) } : {};
  const rack = new Rack(stack, "r12", {
    ...rackProps({ ...s, cluster }, "r12", { nodes: nodes("r12", o.nodeCount ?? 8) }),
    ...health,
  });
  return { stack, rack };
}

const synthRack = (o: RackOptions): SynthJson => synthJson(buildRack(Testing.app(), o).stack);

/** Runs `build` and the app's synth; returns the RackformValidationError thrown, after checking nothing was written. */
function failure(build: (app: App) => void): RackformValidationError {
  const app = Testing.app();
  let error: unknown;
  try {
    build(app);
    app.synth();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RackformValidationError);
  expect(written(app)).toEqual([]);
  return error as RackformValidationError;
}

/** The warnings cdktf recorded for stack `stack` in the app's manifest (what `cdktf synth` prints). */
function warnings(app: App, stack: string): string[] {
  const manifest = JSON.parse(readFileSync(join(app.outdir, "manifest.json"), "utf8")) as {
    stacks: Record<string, { annotations: { level: string; message: string }[] }>;
  };
  return manifest.stacks[stack].annotations.filter((a) => a.level === "@cdktf/warn").map((a) => a.message);
}

describe("HealthPolicy on a Rack", () => {
  it("wires every node's ladder: the deployment follows the BMC's health, the gate and the member its step", () => {
    // GIVEN a rolling rack (Slurm, maxUnavailable 2) with a default HealthPolicy / WHEN it synthesizes
    const json = synthRack({ health: {}, maxUnavailable: 2 });
    // THEN each deployment follows its BMC's health with both steps, in ladder order
    const deployments = resources(json, "rackform_deployment");
    expect(Object.keys(deployments)).toHaveLength(8);
    expect(deployments.r12_n03_deployment).toMatchObject({
      rolling: true,
      bmc_health: ref("rackform_bmc.r12_n03_bmc.health"),
      remediation_steps: ["power_cycle", "reimage"],
    });
    // AND the gate and the member follow that node's step; the member sets no max_unhealthy (no limit)
    expect(resources(json, "rackform_acceptance").r12_n03_acceptance.remediation).toBe(
      ref("rackform_deployment.r12_n03_deployment.remediation"),
    );
    const member = resources(json, "rackform_cluster_member").r12_n03_member;
    expect(member).toMatchObject({
      max_unavailable: 2,
      remediation: ref("rackform_deployment.r12_n03_deployment.remediation"),
    });
    expect(member).not.toHaveProperty("max_unhealthy");
    // AND every node follows its own chain, never a neighbour's
    for (const n of nodes("r12")) {
      const id = n.name.replaceAll("-", "_");
      expect(resources(json, "rackform_deployment")[`${id}_deployment`].bmc_health).toBe(
        ref(`rackform_bmc.${id}_bmc.health`),
      );
      expect(resources(json, "rackform_cluster_member")[`${id}_member`].remediation).toBe(
        ref(`rackform_deployment.${id}_deployment.remediation`),
      );
    }
  });

  it("with the scheduler signal, reads the rack's nodes from the scheduler once and adds each node's findings", () => {
    // GIVEN a policy counting the BMC and the scheduler / WHEN the rack synthesizes
    const json = synthRack({ health: { signals: ["bmc", "scheduler"] }, maxUnavailable: 1 });
    // THEN one data rackform_scheduler_health reads the Slurm nodes of the rack
    const data = Object.entries(
      (json as { data?: Record<string, Record<string, Record<string, unknown>>> }).data?.rackform_scheduler_health ??
        {},
    );
    expect(data).toHaveLength(1);
    const [dataId, read] = data[0];
    expect(read).toMatchObject({ scheduler: "slurm", nodes: nodes("r12").map((n) => n.name) });
    // AND each deployment follows its BMC's findings and its own node's scheduler findings together
    expect(resources(json, "rackform_deployment").r12_n03_deployment.bmc_health).toBe(
      `\${concat(rackform_bmc.r12_n03_bmc.health, data.rackform_scheduler_health.${dataId}.findings["r12-n03"])}`,
    );
    // AND the gate still follows the BMC alone (a scheduler finding walks the ladder; it does not fail the gate)
    expect(resources(json, "rackform_acceptance").r12_n03_acceptance.bmc_health).toBe(
      ref("rackform_bmc.r12_n03_bmc.health"),
    );
  });

  it("with the scheduler signal alone, follows only the scheduler's findings; by default, only the BMC's", () => {
    const only = synthRack({ health: { signals: ["scheduler"] }, maxUnavailable: 1 });
    const bmcHealth = String(resources(only, "rackform_deployment").r12_n01_deployment.bmc_health);
    expect(bmcHealth).toMatch(/^\$\{data\.rackform_scheduler_health\.[^.]+\.findings\["r12-n01"\]\}$/);
    const plain = synthRack({ health: {}, maxUnavailable: 1 });
    expect((plain as { data?: Record<string, unknown> }).data?.rackform_scheduler_health).toBeUndefined();
  });

  it("fails on an empty or unknown list of signals", () => {
    const empty = failure((app) => new HealthPolicy(app, "ladder", { signals: [] }));
    expect(empty.message).toContain("ladder/signals");
    const bad = failure((app) => new HealthPolicy(app, "ladder", { signals: ["dcgm" as unknown as "bmc"] }));
    expect(bad.message).toContain('"bmc" or "scheduler"');
  });

  it("writes the policy's steps and max_unhealthy", () => {
    // GIVEN a policy that skips the power cycle and lets 2 nodes take a step per apply / WHEN the rack synthesizes
    const json = synthRack({ health: { remediationSteps: ["reimage"], maxUnhealthy: 2 }, maxUnavailable: 3 });
    // THEN the deployments list only the reimage, and the members carry the unhealthy budget
    for (const d of Object.values(resources(json, "rackform_deployment"))) {
      expect(d.remediation_steps).toEqual(["reimage"]);
    }
    for (const m of Object.values(resources(json, "rackform_cluster_member"))) {
      expect(m).toMatchObject({ max_unhealthy: 2, max_unavailable: 3 });
    }
  });

  it("with evidenceMaxAge, writes it on each gate and has each member follow the gate's recheck", () => {
    // GIVEN a policy whose evidence stands a week / WHEN the rack synthesizes
    const json = synthRack({ health: { evidenceMaxAge: "168h" }, maxUnavailable: 1 });
    // THEN each gate carries the age and each member follows its gate's recheck
    expect(resources(json, "rackform_acceptance").r12_n01_acceptance.evidence_max_age).toBe("168h");
    expect(resources(json, "rackform_cluster_member").r12_n01_member.recheck).toBe(
      ref("rackform_acceptance.r12_n01_acceptance.recheck"),
    );
    // AND without it, neither is written
    const plain = synthRack({ health: {}, maxUnavailable: 1 });
    expect(resources(plain, "rackform_acceptance").r12_n01_acceptance.evidence_max_age).toBeUndefined();
    expect(resources(plain, "rackform_cluster_member").r12_n01_member.recheck).toBeUndefined();
  });

  it("fails on an evidenceMaxAge shorter than a minute", () => {
    const e = failure((app) => new HealthPolicy(app, "ladder", { evidenceMaxAge: "30s" }));
    expect(e.message).toContain('ladder/evidenceMaxAge: "30s" is shorter than a minute');
  });

  it("writes an empty list of steps, which goes straight to repair", () => {
    const json = synthRack({ health: { remediationSteps: [] }, maxUnavailable: 1 });
    expect(resources(json, "rackform_deployment").r12_n01_deployment.remediation_steps).toEqual([]);
  });

  it("writes nothing of the ladder without a policy, rolling or not", () => {
    // GIVEN racks without health, with and without a disruption budget / WHEN they synthesize
    for (const maxUnavailable of [undefined, 2] as const) {
      const json = synthRack({ maxUnavailable });
      // THEN no ladder attribute is on any node's deployment, gate or member
      for (const [type, keys] of Object.entries(LADDER_KEYS)) {
        const all = Object.values(resources(json, type));
        expect(all).toHaveLength(8);
        for (const r of all) for (const k of keys) expect(r).not.toHaveProperty(k);
      }
      // AND the gate still follows the BMC's health as before (a Critical component fails the re-run gate)
      expect(resources(json, "rackform_acceptance").r12_n01_acceptance.bmc_health).toBe(
        ref("rackform_bmc.r12_n01_bmc.health"),
      );
    }
  });

  it("warns, and still synthesizes, when maxUnhealthy is not below the rack's nodes", () => {
    // GIVEN a policy allowing 8 unhealthy nodes on an 8-node rack / WHEN the app synthesizes
    const app = Testing.app();
    buildRack(app, { health: { maxUnhealthy: 8 }, maxUnavailable: 2 });
    app.synth();
    // THEN cdktf records one warning naming the prop, the rack and the fix, and the members still get the value
    expect(warnings(app, "row")).toEqual([
      "row/ladder/maxUnhealthy: 8 is not below the 8 nodes of rack row/r12, so it limits nothing there — use 1 to 7 " +
        "on this rack to hold back a rack-wide failure (usually the fabric or power), or leave it out",
    ]);
    expect(written(app).length).toBeGreaterThan(0);
    // AND a value below the rack's nodes warns nothing
    const quiet = Testing.app();
    buildRack(quiet, { health: { maxUnhealthy: 7 }, maxUnavailable: 2 });
    quiet.synth();
    expect(warnings(quiet, "row")).toEqual([]);
  });
});

describe("HealthPolicy through a Fleet", () => {
  function fleet(health: { fleet?: HealthPolicyProps; r2?: HealthPolicyProps }, maxUnavailable: MaxUnavailable = 1) {
    const app = Testing.app();
    const s = shared(app);
    const cluster = new KubernetesCluster(app, "k8s", { url: "https://127.0.0.1:6443", maxUnavailable });
    const policy = (id: string, p?: HealthPolicyProps) => (p ? { health: new HealthPolicy(app, id, p) } : {});
    return new Fleet(app, "fleet", {
      racks: ["r1", "r2"].map((name) => ({
        name,
        pdus: pdus(name),
        nodes: nodes(name, 4),
        ...(name === "r2" ? policy("r2-ladder", health.r2) : {}),
      })),
      ...s,
      cluster,
      redfish: REDFISH,
      ...policy("ladder", health.fleet),
    });
  }

  it("gives every rack the fleet's policy, unless a rack has its own", () => {
    // GIVEN a fleet policy of both steps and a rack r2 that only reimages, at most 1 node per apply
    const f = fleet({ fleet: {}, r2: { remediationSteps: ["reimage"], maxUnhealthy: 1 } });
    // WHEN each rack's stack synthesizes / THEN r1 takes the fleet's ladder and r2 its own
    const r1 = synthJson(f.stackOf("r1"));
    const r2 = synthJson(f.stackOf("r2"));
    expect(resources(r1, "rackform_deployment").r1_n01_deployment.remediation_steps).toEqual([
      "power_cycle",
      "reimage",
    ]);
    expect(resources(r1, "rackform_cluster_member").r1_n01_member).not.toHaveProperty("max_unhealthy");
    expect(resources(r2, "rackform_deployment").r2_n01_deployment.remediation_steps).toEqual(["reimage"]);
    expect(resources(r2, "rackform_cluster_member").r2_n01_member).toMatchObject({
      remediation: ref("rackform_deployment.r2_n01_deployment.remediation"),
      max_unhealthy: 1,
    });
  });

  it("writes nothing of the ladder for racks without a policy", () => {
    const f = fleet({});
    for (const name of ["r1", "r2"]) {
      const json = synthJson(f.stackOf(name));
      for (const [type, keys] of Object.entries(LADDER_KEYS)) {
        for (const r of Object.values(resources(json, type))) for (const k of keys) expect(r).not.toHaveProperty(k);
      }
    }
  });

  it("fails when the fleet's cluster has no budget, at the first rack built", () => {
    const e = failure(() => fleet({ fleet: {} }, "all"));
    expect(e.constructPath).toBe("fleet-r1/r1");
    expect(e.problems.map((p) => p.path)).toEqual(["fleet-r1/r1/health"]);
  });
});

describe("HealthPolicy validation", () => {
  it("fails on a rack whose cluster sets no disruption budget, naming the cluster and the fix", () => {
    // GIVEN a HealthPolicy on a rack whose Slurm cluster has no maxUnavailable (so the rack does not roll)
    // WHEN the rack is built / THEN synth fails at the rack's health before anything is written
    const e = failure((app) => buildRack(app, { health: {} }));
    expect(e.constructPath).toBe("row/r12");
    expect(e.message).toBe(
      'row/r12/health: health policy "row/ladder" needs a disruption budget, but cluster "row/gpu" sets no ' +
        'maxUnavailable (left out, or "all"), so the rack does not roll and no member could carry a remediation ' +
        'step out — set maxUnavailable on cluster "row/gpu" (how many nodes may be out of service at once, e.g. 1) ' +
        "so the rack rolls, or leave health out",
    );
  });

  it('fails on a cluster whose budget is "all"', () => {
    const e = failure((app) => buildRack(app, { health: {}, maxUnavailable: "all" }));
    expect(e.problems.map((p) => p.path)).toEqual(["row/r12/health"]);
  });

  it("fails on a step listed twice, or after a later one, naming each and the order", () => {
    // GIVEN steps repeated and out of ladder order / WHEN the policy is built
    const fix = 'list each step at most once, in ladder order: ["powerCycle","reimage"] or a part of it';
    const twice = failure((app) => new HealthPolicy(app, "ladder", { remediationSteps: ["reimage", "reimage"] }));
    // THEN one problem per bad step, at the policy
    expect(twice.constructPath).toBe("ladder");
    expect(twice.message).toBe(`ladder/remediationSteps[1]: "reimage" is already remediationSteps[0] — ${fix}`);
    const reversed = failure((app) => new HealthPolicy(app, "ladder", { remediationSteps: ["reimage", "powerCycle"] }));
    expect(reversed.message).toBe(`ladder/remediationSteps[1]: "powerCycle" comes after "reimage" — ${fix}`);
  });

  it("fails on a step the ladder does not have", () => {
    const e = failure((app) => new HealthPolicy(app, "ladder", { remediationSteps: ["drain" as RemediationStep] }));
    expect(e.message).toBe(
      'ladder/remediationSteps[0]: "drain" is not a remediation step, "powerCycle" or "reimage" — use "powerCycle" ' +
        'or "reimage" (quarantine for repair always follows the last step)',
    );
  });

  it("fails on a maxUnhealthy that is not a whole number of nodes, at least 1", () => {
    for (const bad of [0, 1.5, -2]) {
      const e = failure((app) => new HealthPolicy(app, "ladder", { maxUnhealthy: bad }));
      expect(e.message).toBe(
        `ladder/maxUnhealthy: ${bad} is not a whole number of nodes, at least 1 — give how many nodes of a budget ` +
          "may take a remediation step in one apply, e.g. 2, or leave it out for no limit",
      );
    }
  });

  it("fails on an unknown prop, naming the known ones", () => {
    const e = failure((app) => new HealthPolicy(app, "ladder", { signal: ["bmc"] } as unknown as HealthPolicyProps));
    expect(e.message).toBe(
      'ladder: has no property "signal" — use one of: remediationSteps, evidenceMaxAge, signals, maxUnhealthy',
    );
  });
});
