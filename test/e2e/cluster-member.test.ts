/**
 * rackform_cluster_member under the real engines (Terraform and OpenTofu) with the built provider, against the lab's
 * slurmrestd and Kubernetes API on loopback: Slurm join, hand-drain drift re-joined, a replacement that only drains
 * and rejoins, destroy draining a running job and then leaving Slurm (a slurm.conf node: DOWN with its reason);
 * Kubernetes join, and destroy deleting the Node. Credentials come from the RACKFORM_* environment and must never reach state or output.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlurmClient } from "../../src/clients/slurm/index.js";
import {
  createKubernetesApi,
  createSlurmApi,
  type KubernetesApi,
  type ListeningServer,
  type SlurmApi,
} from "../../src/lab/scheduler/index.js";
import { ENGINES, engine, folded, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";
import { until } from "../support/until.js";

const SLURM_TOKEN = "e2e-slurm-jwt-SECRET";
const KUBE_TOKEN = "e2e-kube-token-SECRET";
let slurm: SlurmApi;
let kube: KubernetesApi;
let servers: ListeningServer[] = [];
let cliConfig: string;

beforeAll(async () => {
  slurm = createSlurmApi({ jwtTokens: { rackform: SLURM_TOKEN } });
  kube = createKubernetesApi({ token: KUBE_TOKEN });
  servers = [await slurm.listen("127.0.0.1", 0), await kube.listen("127.0.0.1", 0)];
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const env = () => ({
  RACKFORM_SLURM_URL: servers[0].url,
  RACKFORM_SLURM_USER: "rackform",
  RACKFORM_SLURM_TOKEN: SLURM_TOKEN,
  RACKFORM_KUBERNETES_URL: servers[1].url,
  RACKFORM_KUBERNETES_TOKEN: KUBE_TOKEN,
});

const HEADER = `terraform {
  required_providers {
    rackform = { source = "rackform/rackform" }
  }
}
provider "rackform" {}
`;

const slurmMember = (node: string) => `resource "rackform_cluster_member" "slurm" {
  node      = "${node}"
  scheduler = "slurm"
  features  = ["h100", "nvlink4"]
  timeouts {
    delete = "2m"
  }
}
`;

const kubeMember = (node: string) => `resource "rackform_cluster_member" "k8s" {
  node      = "${node}"
  scheduler = "kubernetes"
  labels    = { "nvidia.com/gpu.product" = "H100" }
  taints = [{ key = "nvidia.com/gpu", value = "present", effect = "NoSchedule" }]
}
`;

async function expectNoSecrets(w: Workdir, ...outputs: { stdout: string; stderr: string }[]) {
  const state = await readFile(join(w.dir, "terraform.tfstate"), "utf8").catch(() => "");
  for (const text of [state, ...outputs.flatMap((o) => [o.stdout, o.stderr])]) {
    expect(text).not.toContain(SLURM_TOKEN);
    expect(text).not.toContain(KUBE_TOKEN);
  }
}

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_cluster_member under %s", (name, i) => {
  const sNode = `gpu-s${i}`;
  const kNode = `gpu-k${i}`;
  let w: Workdir;

  beforeAll(async () => {
    w = await Workdir.create(engine(name), cliConfig, {}, env());
  });

  it("GIVEN a registered DOWN Slurm node WHEN apply THEN it is IDLE with its features and the next plan is empty", async () => {
    slurm.hooks.registerNode(sNode, { state: "DOWN", reason: "Not responding" });
    await w.write({ "main.tf": HEADER + slurmMember(sNode) });
    await w.ok(["init", "-no-color"]);
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    const n = slurm.hooks.node(sNode)!;
    expect(n.down).toBe(false);
    expect([...n.features].sort()).toEqual(["h100", "nvlink4"]);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    await expectNoSecrets(w, apply, plan);
  });

  it("GIVEN the node drained by a person WHEN plan THEN nothing changes and the plan says why; a drain of rackform's own left behind is re-joined", async () => {
    const c = new SlurmClient({ url: servers[0].url, user: "rackform", token: SLURM_TOKEN });
    try {
      await c.drain(sNode, "maintenance by hand");
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(folded(plan)).toContain(`Node drained by a person: ${sNode}`);
      expect(slurm.hooks.node(sNode)!.drain).toBe(true);
      // A drain of rackform's (an apply killed between its drain and the rejoin) is drift: re-joined
      await c.drain(sNode, "rackform: leaving");
    } finally {
      await c.close();
    }
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/joined\s+= false -> true/);
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(slurm.hooks.node(sNode)!.drain).toBe(false);
  });

  it("GIVEN apply -replace (as a reimage recycles a member) WHEN apply THEN the node drains and rejoins, never deleted", async () => {
    const before = slurm.requests.length;
    const r = await w.ok(["apply", "-auto-approve", "-no-color", "-replace=rackform_cluster_member.slurm"]);
    expect(r.stdout).toContain("1 added, 0 changed, 1 destroyed");
    const writes = slurm.requests.slice(before).filter((q) => q.method !== "GET" && q.path.endsWith(`/node/${sNode}`));
    // DRAIN, then RESUME: the destroy half of a replacement only drains (the engine hands it the plan's private data)
    expect(writes.map((q) => q.method)).toEqual(["POST", "POST"]);
    expect(slurm.hooks.node(sNode)).toMatchObject({ drain: false, down: false });
  });

  it("GIVEN a running job WHEN destroy THEN the node drains, destroy waits for the job, and nothing is killed", async () => {
    const job = slurm.hooks.startJob(sNode);
    const d = w.run(["destroy", "-auto-approve", "-no-color"]);
    await until("the node is DRAIN-flagged", () => slurm.hooks.node(sNode)!.drain, { timeoutMs: 30_000, everyMs: 50 });
    expect(slurm.hooks.node(sNode)!.jobs.has(job)).toBe(true);
    expect(slurm.hooks.node(sNode)!.reason).toBe("rackform: leaving");
    slurm.hooks.endJob(job);
    const r = await d;
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("1 destroyed");
    // Destroyed for good: slurmctld refuses to delete a node slurm.conf lists, so it stays DOWN, saying why
    expect(slurm.hooks.node(sNode)).toMatchObject({
      drain: true,
      down: true,
      reason: "rackform: removed from the rack; delete it from slurm.conf",
    });
    expect((r.stdout + r.stderr).replace(/\s+/g, " ")).toContain(`Warning: Node stays listed in Slurm: ${sNode}`);
    await expectNoSecrets(w, r);
  });

  it("GIVEN a cordoned Kubernetes node WHEN apply THEN it has the labels and taint, is uncordoned, and plan is empty", async () => {
    kube.hooks.registerNode(kNode, { unschedulable: true });
    const w2 = await Workdir.create(engine(name), cliConfig, { "main.tf": HEADER + kubeMember(kNode) }, env());
    await w2.ok(["init", "-no-color"]);
    const apply = await w2.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    const n = kube.hooks.node(kNode)! as unknown as {
      metadata: { labels: Record<string, string> };
      spec: { unschedulable?: boolean; taints?: { key: string }[] };
    };
    expect(n.spec.unschedulable ?? false).toBe(false);
    expect(n.metadata.labels["nvidia.com/gpu.product"]).toBe("H100");
    expect(n.spec.taints?.map((t) => t.key)).toEqual(["nvidia.com/gpu"]);
    const plan = await w2.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // WHEN destroyed for good THEN the Node object is deleted after its drain
    const gone = await w2.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(gone.stdout).toContain("1 destroyed");
    expect(kube.hooks.node(kNode)).toBeUndefined();
    await expectNoSecrets(w2, apply, plan, gone);
  });
});
