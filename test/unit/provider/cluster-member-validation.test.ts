/**
 * rackform_cluster_member's config checks through the provider server: every problem is a diagnostic with an attribute
 * path, reported at validate time before any scheduler is called (a counting server stands in for slurmrestd and the
 * Kubernetes API, answering 401 to everything), and the provider's slurm/kubernetes blocks with their env fallbacks.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer as httpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, Diagnostics, formatPath, type Value } from "../../../src/framework/index.js";
import { type ProviderData, providerSchema, resolveConfig } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { clusterMemberSchema } from "../../../src/provider/resources/cluster-member-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";

const T = "rackform_cluster_member";
const SLURM_TOKEN = "jwt-SECRET-never-shown";
const KUBE_TOKEN = "bearer-SECRET-never-shown";
let counter: Server;
let url = "";
let hits = 0;
let srv: ProviderServer;

const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);
const member = (set: Record<string, Value>) =>
  configOf(clusterMemberSchema, { node: "gpu-01", scheduler: "slurm", ...set });

async function validate(set: Record<string, Value>) {
  const config = member(set);
  const before = hits;
  const v = await srv.validateResourceConfig({ typeName: T, config });
  expect(hits, "validation called a scheduler").toBe(before);
  return v.diagnostics;
}

async function configured(set: Record<string, Value>): Promise<ProviderServer> {
  const s = createServer(rackformProvider());
  const r = await s.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, set) });
  expect(r.diagnostics).toEqual([]);
  return s;
}

async function create(s: ProviderServer, set: Record<string, Value>) {
  const config = member(set);
  const p = await s.planResourceChange({
    typeName: T,
    priorState: null,
    proposedNewState: proposedNew(clusterMemberSchema, config, null),
    config,
    priorPrivate: new Uint8Array(0),
  });
  expect(p.diagnostics).toEqual([]);
  return s.applyResourceChange({
    typeName: T,
    priorState: null,
    plannedState: p.plannedState,
    config,
    plannedPrivate: p.plannedPrivate,
  });
}

beforeAll(async () => {
  counter = httpServer((_req, res) => {
    hits++;
    res.writeHead(401, { "content-type": "text/plain" }).end("Authentication failure");
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  srv = await configured({
    slurm: { url, user: "rackform", token: SLURM_TOKEN },
    kubernetes: { url, token: KUBE_TOKEN, ca_file: null },
  });
});
afterAll(async () => {
  await new Promise((r) => counter.close(r));
});

describe("rackform_cluster_member validation", () => {
  it("fails an unknown scheduler, naming the choices", async () => {
    const d = await validate({ scheduler: "pbs" });
    expect(lines(d)).toEqual(["error Invalid attribute value @ scheduler"]);
    expect(d[0].detail).toContain('"slurm", "kubernetes"');
  });

  it("fails Kubernetes settings on a Slurm member and Slurm features on a Kubernetes one", async () => {
    expect(
      lines(await validate({ labels: { a: "b" }, taints: [{ key: "k", value: null, effect: "NoSchedule" }] })),
    ).toEqual(["error labels is Kubernetes-only @ labels", "error taints is Kubernetes-only @ taints"]);
    const d = await validate({ scheduler: "kubernetes", features: ["h100"] });
    expect(lines(d)).toEqual(["error features is Slurm-only @ features"]);
    expect(d[0].detail).toContain("use labels");
  });

  it("fails node names the scheduler would not accept as one node", async () => {
    expect(lines(await validate({ node: "gpu[01-04]" }))).toEqual(["error Invalid Slurm node name @ node"]);
    expect(lines(await validate({ node: "GPU_01", scheduler: "kubernetes" }))).toEqual([
      "error Invalid Kubernetes node name @ node",
    ]);
    expect(await validate({ node: "gpu-01.r01.example.com", scheduler: "kubernetes" })).toEqual([]);
  });

  it("fails a Slurm feature that is a constraint expression", async () => {
    const d = await validate({ features: ["h100", "h100&nvlink"] });
    expect(lines(d)).toEqual(["error Invalid Slurm feature @ features"]);
    expect(d[0].detail).toContain('"h100&nvlink"');
  });

  it("fails bad label keys and values with the label's path", async () => {
    const d = await validate({
      scheduler: "kubernetes",
      labels: { "bad key": "x", "nvidia.com/gpu.product": "H100 SXM", "rackform.io/rack": "r01" },
    });
    expect(lines(d)).toEqual([
      'error Invalid label key @ labels["bad key"]',
      'error Invalid label value @ labels["nvidia.com/gpu.product"]',
    ]);
  });

  it("fails a bad taint effect, a duplicate key and the reserved unschedulable taint", async () => {
    const t = (key: string, effect: string) => ({ key, value: null, effect });
    const d = await validate({
      scheduler: "kubernetes",
      taints: [
        t("nvidia.com/gpu", "Sometimes"),
        t("nvidia.com/gpu", "NoExecute"),
        t("node.kubernetes.io/unschedulable", "NoSchedule"),
      ],
    });
    expect(lines(d).sort()).toEqual([
      "error Duplicate taint key @ taints[1].key",
      "error Invalid attribute value @ taints[0].effect",
      "error Reserved taint key @ taints[2].key",
    ]);
  });

  it("fails a malformed timeout", async () => {
    const d = await validate({ timeouts: { create: null, read: null, update: null, delete: "soon" } });
    expect(lines(d)).toEqual(["error Invalid duration @ timeouts.delete"]);
  });

  it("fails when the member's scheduler has no provider block, naming the settings and env vars", async () => {
    const bare = await configured({});
    const before = hits;
    const r = await create(bare, {});
    expect(lines(r.diagnostics)).toEqual(["error Slurm is not configured @ scheduler"]);
    expect(r.diagnostics[0].detail).toContain("RACKFORM_SLURM_TOKEN");
    expect(hits).toBe(before);
  });

  it("reports a refused token without ever showing it", async () => {
    const r = await create(srv, {});
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Failed to join Slurm"]);
    expect(r.diagnostics[0].detail).toContain("RACKFORM_ERR_SLURM_AUTH");
    const k = await create(srv, { scheduler: "kubernetes" });
    expect(k.diagnostics[0].detail).toContain("RACKFORM_ERR_KUBERNETES_AUTH");
    expect(JSON.stringify([r, k])).not.toMatch(/SECRET/);
  });
});

describe("a scheduler that cannot be reached", () => {
  it("names the provider's slurm.url / kubernetes.url and points at scheduler", async () => {
    const dead = "http://127.0.0.1:1";
    const s = await configured({
      slurm: { url: dead, user: "rackform", token: SLURM_TOKEN },
      kubernetes: { url: dead, token: KUBE_TOKEN, ca_file: null },
    });
    for (const scheduler of ["slurm", "kubernetes"]) {
      const r = await create(s, { scheduler, timeouts: { create: "2s", read: null, update: null, delete: null } });
      expect(lines(r.diagnostics), scheduler).toEqual([
        `error Failed to join ${scheduler === "slurm" ? "Slurm" : "Kubernetes"} @ scheduler`,
      ]);
      expect(r.diagnostics[0].detail).toContain(`Check the provider's \`${scheduler}.url\`.`);
      expect(r.diagnostics[0].detail).toContain("RACKFORM_ERR_HTTP_CONNECT");
    }
  });
});

describe("provider slurm and kubernetes blocks", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const resolve = (set: Record<string, Value>) => {
    const diags = new Diagnostics();
    const data = resolveConfig(configOf(providerSchema, set), diags) as ProviderData | undefined;
    return { data, diags: diags.items };
  };

  it("falls back to RACKFORM_SLURM_* and RACKFORM_KUBERNETES_* when the blocks are absent", () => {
    process.env.RACKFORM_SLURM_URL = "http://127.0.0.1:6820";
    process.env.RACKFORM_SLURM_USER = "rackform";
    process.env.RACKFORM_SLURM_TOKEN = SLURM_TOKEN;
    process.env.RACKFORM_KUBERNETES_URL = "https://127.0.0.1:6443";
    process.env.RACKFORM_KUBERNETES_TOKEN = KUBE_TOKEN;
    const { data, diags } = resolve({});
    expect(diags).toEqual([]);
    expect(data?.schedulers.slurmSettings).toEqual({
      url: "http://127.0.0.1:6820",
      user: "rackform",
      token: SLURM_TOKEN,
    });
    expect(data?.schedulers.kubernetesSettings?.url).toBe("https://127.0.0.1:6443");
  });

  it("fails a Slurm URL without a token, without echoing anything secret", () => {
    const { data, diags } = resolve({ slurm: { url: "http://127.0.0.1:6820", user: "rackform", token: null } });
    expect(data).toBeUndefined();
    expect(lines(diags)).toEqual(["error Incomplete Slurm settings @ slurm.token"]);
  });

  it("fails an unreadable Kubernetes CA file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-cm-"));
    const notPem = join(dir, "ca.txt");
    await writeFile(notPem, "hello");
    const { diags } = resolve({ kubernetes: { url: "https://127.0.0.1:6443", token: KUBE_TOKEN, ca_file: notPem } });
    expect(lines(diags)).toEqual(["error Cannot read the Kubernetes CA bundle @ kubernetes.ca_file"]);
    expect(diags[0].detail).toContain("no PEM certificate");
  });
});
