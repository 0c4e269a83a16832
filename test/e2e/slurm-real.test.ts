/**
 * An 8-node lab rack (lab PDUs, BMCs and MAAS, as test/e2e/rack.test.ts) whose cluster members join Debian's REAL
 * slurmctld 22.05 through its real slurmrestd (test/setup/slurm.ts), under each engine (Terraform on the lab's r01
 * nodes, OpenTofu on r02: both share the run's controller). A node's real slurmd starts when the lab's deployed OS
 * would start it (the lab's own slurmd registering is the signal), so each member waits for a real registration.
 * Join against 22.05 is a read: its REST API cannot resume a node or set features (no node update before 23.02), so
 * slurm.conf lists each node with the features the configuration asks for, ReturnToService=2 makes a registered
 * node IDLE, and rackform confirms registration, state and features without a write. Day 2: a drain by hand
 * (scontrol) that rackform shows (warning, state and reason) and does not undo — its re-join fails naming scontrol,
 * as 22.05 offers no REST resume — then a resume by hand, after which the plan is empty.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SlurmClient } from "../../src/clients/slurm/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { joinedIn, rackConfig, resourceName, shownState, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, testLab } from "../support/rackform-e2e.js";
import { type RealSlurmd, type RealSlurmInfo, slurmCmd, startSlurmd } from "../support/real-slurm.js";

function realSlurm(): RealSlurmInfo {
  const info = inject("realSlurm");
  if (!info)
    throw new Error("no real Slurm: test/setup/slurm.ts starts it for the e2e projects (scripts/setup.sh installs it)");
  return info;
}

/**
 * Starts the real slurmd of each of `nodes` once the lab's deployed OS registers its own (lab) slurmd: the moment a
 * booted image would start slurmd. Returns a stop for the watcher and every slurmd it started.
 */
function bridgeSlurmds(lab: Lab, info: RealSlurmInfo, nodes: readonly string[]): () => Promise<void> {
  const started = new Map<string, RealSlurmd>();
  const timer = setInterval(() => {
    for (const n of nodes) {
      if (!started.has(n) && lab.backends?.slurm.hooks.node(n)) started.set(n, startSlurmd(info, n));
    }
  }, 100);
  return async () => {
    clearInterval(timer);
    for (const d of started.values()) await d.stop();
  };
}

let cliConfig: string;
let lab: Lab;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await testLab(16);
  await uploadGoldenImage(lab);
});
afterAll(async () => {
  await lab?.close();
});

describe.each(ENGINES)("an 8-node rack joining the real slurmctld 22.05 under %s", (name) => {
  let info: RealSlurmInfo;
  let nodes: string[];
  let w: Workdir;
  let stopSlurmds: (() => Promise<void>) | undefined;
  let slurm: SlurmClient;
  beforeAll(async () => {
    info = realSlurm();
    nodes = (name === "terraform" ? lab.info.nodes.slice(0, 8) : lab.info.nodes.slice(8, 16)).map((n) => n.name);
    const labSlurm = lab.info.slurm as { url: string; user: string };
    // The demo rack, its slurm block pointed at the real slurmrestd and the real token's user.
    const main = rackConfig(lab, "maas", nodes)
      .replace(`url   = ${JSON.stringify(labSlurm.url)}`, `url   = ${JSON.stringify(info.url)}`)
      .replace(`user  = ${JSON.stringify(labSlurm.user)}`, `user  = ${JSON.stringify(info.user)}`);
    expect(main).toContain(info.url);
    w = await Workdir.create(
      engine(name),
      cliConfig,
      { "main.tf": main },
      {
        TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
        TF_VAR_maas_api_key: lab.info.maas?.apiKey ?? "",
        TF_VAR_slurm_token: info.token,
      },
    );
    slurm = new SlurmClient({ url: info.url, user: info.user, token: info.token });
    stopSlurmds = bridgeSlurmds(lab, info, nodes);
  });
  afterAll(async () => {
    await slurm?.close();
    await stopSlurmds?.();
  });

  it("converges from outlets off to 8 nodes IDLE in the real slurmctld, each waiting for its real slurmd", {
    timeout: 200_000,
  }, async () => {
    // GIVEN the real controller lists the eight, none registered yet
    const before = await slurm.listNodes();
    expect(nodes.map((n) => before.find((x) => x.name === n)?.baseState)).toEqual(nodes.map(() => "UNKNOWN"));
    // WHEN apply (interrupted before the test's own timeout, so a wait that never ends is reported with what each
    // member saw: the provider's log lines of its registration wait and join)
    await w.ok(["init", "-no-color"]);
    const log = join(w.dir, "apply.log");
    const apply = await w.run(["apply", "-auto-approve", "-no-color"], {
      env: { TF_LOG_PROVIDER: "INFO", TF_LOG_PATH: log },
      interruptAfterMs: 150_000,
    });
    const waits = () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => /waiting for|joining the scheduler|did not admit|Still creating/.test(l))
        .slice(-40)
        .join("\n");
    expect(apply.code, `${apply.stdout}\n${apply.stderr}\n--- the members' log\n${waits()}`).toBe(0);
    // THEN every member joined, the real controller reports the eight IDLE with h100, and the next plan is empty
    expect(apply.stdout).toContain("Apply complete! Resources: 48 added, 0 changed, 0 destroyed.");
    expect(joinedIn(await shownState(w))).toEqual([...nodes].sort());
    const after = await slurm.listNodes();
    expect(nodes.map((n) => after.find((x) => x.name === n))).toEqual(
      nodes.map(() => expect.objectContaining({ schedulable: true, features: ["h100"], partitions: ["gpu"] })),
    );
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("shows a drain done by hand with scontrol, does not undo it, and is settled again after a resume by hand", async () => {
    const node = nodes[2];
    const member = `rackform_cluster_member.${resourceName(node)}`;
    // GIVEN an operator drains one node by hand (the real slurmctld records its author in reason_set_by_user)
    slurmCmd(info, "scontrol", ["update", `nodename=${node}`, "state=drain", "reason=hand: bad DIMM"]);
    // WHEN refreshing: the member records it as a person's drain, with the reason and the way back
    const refresh = await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
    const seen = (refresh.stdout + refresh.stderr).replace(/\s+/g, " ");
    expect(seen).toContain(`Node drained by a person: ${node}`);
    expect(seen).toContain("hand: bad DIMM");
    expect(seen).toContain(`scontrol update nodename=${node} state=resume`);
    const m = (await shownState(w)).find((r) => `${r.type}.${r.name}` === member);
    expect(m?.values).toMatchObject({ joined: false });
    expect(String(m?.values.state)).toContain("DRAIN");
    // AND an apply leaves it alone: nothing planned, the drain as the operator left it
    const apply = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("0 added, 0 changed, 0 destroyed");
    expect(await slurm.getNode(node, { fresh: true })).toMatchObject({ drain: true, reason: "hand: bad DIMM" });
    // WHEN the operator resumes it by hand THEN the member reads joined again and the plan is empty
    slurmCmd(info, "scontrol", ["update", `nodename=${node}`, "state=resume"]);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
