/** SlurmClient against the lab slurmrestd on loopback: batching, admission, drain, errors and redaction. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SlurmClient, SlurmError } from "../../../src/clients/slurm/index.js";
import { createSlurmApi, type ListeningServer, type SlurmApi } from "../../../src/lab/scheduler/index.js";

const USER = "rackform";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LWp3dA.slurm-secret-signature";

let api: SlurmApi;
let srv: ListeningServer;
let client: SlurmClient;
const logs: string[] = [];

beforeEach(async () => {
  api = createSlurmApi({ jwtTokens: { [USER]: TOKEN, viewer: "viewer-jwt-secret" }, operators: [USER] });
  srv = await api.listen("127.0.0.1", 0);
  api.hooks.registerNode("gpu-001", { gres: "gpu:h100:8", features: [], state: "DOWN", reason: "awaiting acceptance" });
  api.hooks.registerNode("gpu-002", { gres: "gpu:h100:8", features: ["h100"] });
  logs.length = 0;
  client = new SlurmClient({
    url: srv.url,
    user: USER,
    token: TOKEN,
    http: { log: (l) => logs.push(l), retry: { maxAttempts: 1 } },
  });
});
afterEach(async () => {
  await client.close();
  await srv.close();
});

async function caught(p: Promise<unknown>): Promise<SlurmError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SlurmError) return e;
    throw e;
  }
  throw new Error("expected a SlurmError");
}

describe("SlurmClient reads", () => {
  it("serves many concurrent getNode calls with one GET /nodes", async () => {
    const nodes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.getNode(i % 2 ? "gpu-001" : "gpu-002")),
    );
    expect(nodes.map((n) => n.name)).toContain("gpu-001");
    expect(client.listRequests).toBe(1);
    expect(api.requests.filter((r) => r.path.endsWith("/nodes"))).toHaveLength(1);
  });

  it("with nodeCacheMaxAgeMs, reuses a list for sequential reads until a write or the window ends", async () => {
    let t = 0;
    const cached = new SlurmClient({ url: srv.url, user: USER, token: TOKEN, nodeCacheMaxAgeMs: 5_000, now: () => t });
    for (const n of ["gpu-001", "gpu-002", "gpu-001"]) await cached.getNode(n);
    expect(cached.listRequests).toBe(1);
    await cached.drain("gpu-002", "reimage");
    expect((await cached.getNode("gpu-002")).drain).toBe(true);
    expect(cached.listRequests).toBe(2);
    t += 6_000;
    await cached.getNode("gpu-001");
    expect(cached.listRequests).toBe(3);
    await cached.close();
  });

  it("fails with RACKFORM_ERR_SLURM_NOT_FOUND for a node slurmd never registered", async () => {
    const e = await caught(client.getNode("gpu-999"));
    expect(e.code).toBe("RACKFORM_ERR_SLURM_NOT_FOUND");
    expect(e.message).toContain("gpu-999");
  });
});

describe("SlurmClient admission", () => {
  it("resumes a DOWN node with its features, and a repeat changes nothing", async () => {
    const n = await client.resume("gpu-001", { features: ["h100", "ib-ndr"] });
    expect(n).toMatchObject({ schedulable: true, baseState: "IDLE", features: ["h100", "ib-ndr"] });
    expect(api.hooks.node("gpu-001")?.activeFeatures).toEqual(["h100", "ib-ndr"]);
    const posts = api.requests.filter((r) => r.method === "POST").length;
    await client.resume("gpu-001", { features: ["ib-ndr", "h100"] });
    expect(api.requests.filter((r) => r.method === "POST").length).toBe(posts);
  });

  it("sets features alone with setFeatures", async () => {
    await client.setFeatures("gpu-002", ["h100", "nvlink"]);
    expect((await client.getNode("gpu-002")).features).toEqual(["h100", "nvlink"]);
  });
});

describe("SlurmClient drain", () => {
  it("drains: draining while a job runs, drained once it ends", async () => {
    const job = api.hooks.startJob("gpu-002");
    await client.drain("gpu-002", "rackform: reimage");
    expect(await client.getNode("gpu-002")).toMatchObject({ draining: true, drained: false });
    const waiting = client.waitDrained("gpu-002", { timeoutMs: 60_000, pollMs: 10 });
    setTimeout(() => api.hooks.endJob(job), 30);
    const n = await waiting;
    expect(n).toMatchObject({ drained: true, reason: "rackform: reimage", state: ["IDLE", "DRAIN"] });
  });

  it("polls fresh lists while waiting, even with a node cache window", async () => {
    const cached = new SlurmClient({ url: srv.url, user: USER, token: TOKEN, nodeCacheMaxAgeMs: 3_600_000 });
    const job = api.hooks.startJob("gpu-002");
    await cached.drain("gpu-002", "reimage");
    await cached.getNode("gpu-002");
    const waiting = cached.waitDrained("gpu-002", { timeoutMs: 60_000, pollMs: 10 });
    setTimeout(() => api.hooks.endJob(job), 30);
    expect((await waiting).drained).toBe(true);
    await cached.close();
  });

  it("fails with RACKFORM_ERR_SLURM_DRAIN_TIMEOUT when the job outlives the timeout", async () => {
    api.hooks.startJob("gpu-002");
    await client.drain("gpu-002", "reimage");
    let t = 0;
    const timed = new SlurmClient({
      url: srv.url,
      user: USER,
      token: TOKEN,
      now: () => t,
      sleep: async (ms) => void (t += ms),
    });
    const e = await caught(timed.waitDrained("gpu-002", { timeoutMs: 1_000, pollMs: 100 }));
    await timed.close();
    expect(e.code).toBe("RACKFORM_ERR_SLURM_DRAIN_TIMEOUT");
    expect(e.details).toMatchObject({ state: ["ALLOCATED", "DRAIN"] });
  });

  it("fails with RACKFORM_ERR_SLURM_DRAIN_CANCELLED when someone resumes the node meanwhile", async () => {
    api.hooks.startJob("gpu-002");
    await client.drain("gpu-002", "reimage");
    await fetch(`${srv.url}/slurm/v0.0.41/node/gpu-002`, {
      method: "POST",
      headers: { "x-slurm-user-name": USER, "x-slurm-user-token": TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ state: ["UNDRAIN"] }),
    });
    const e = await caught(client.waitDrained("gpu-002", { timeoutMs: 10_000, pollMs: 10 }));
    expect(e.code).toBe("RACKFORM_ERR_SLURM_DRAIN_CANCELLED");
  });

  it("fails drain without a reason before calling Slurm", async () => {
    await expect(client.drain("gpu-002", " ")).rejects.toMatchObject({ code: "RACKFORM_ERR_CLIENT_CONFIG" });
  });
});

describe("SlurmClient node removal", () => {
  it("deletes a dynamic node (slurmd -Z); the next read no longer finds it", async () => {
    api.hooks.registerNode("gpu-009", { dynamic: true });
    expect((await client.getNode("gpu-009")).state).toEqual(["IDLE", "DYNAMIC_NORM"]);
    await client.deleteNode("gpu-009");
    expect((await caught(client.getNode("gpu-009"))).code).toBe("RACKFORM_ERR_SLURM_NOT_FOUND");
    expect((await caught(client.deleteNode("gpu-009"))).code).toBe("RACKFORM_ERR_SLURM_NOT_FOUND");
  });

  it("is refused for a node slurm.conf lists (2028) and for a dynamic node still running a job (2016)", async () => {
    const conf = await caught(client.deleteNode("gpu-002"));
    expect(conf.code).toBe("RACKFORM_ERR_SLURM_REJECTED");
    expect(conf.slurmErrors.map((x) => [x.error_number, x.description])).toEqual([
      [2028, "Failure to delete node gpu-002: Can't delete non-dynamic node 'gpu-002'."],
    ]);
    api.hooks.registerNode("gpu-009", { dynamic: true });
    const job = api.hooks.startJob("gpu-009");
    const busy = await caught(client.deleteNode("gpu-009"));
    expect(busy.slurmErrors.map((x) => x.error_number)).toEqual([2016]);
    api.hooks.endJob(job);
    await client.deleteNode("gpu-009");
  });

  it("sets a node DOWN with a reason, which a lost slurmd later keeps (as slurmctld keeps an operator's reason)", async () => {
    await client.down("gpu-002", "removed from the rack");
    api.hooks.nodeLost("gpu-002");
    const n = await client.getNode("gpu-002", { fresh: true });
    expect(n.state).toEqual(["DOWN", "NOT_RESPONDING"]);
    expect(n.reason).toBe("removed from the rack");
  });
});

describe("SlurmClient errors", () => {
  it("fails with RACKFORM_ERR_SLURM_AUTH on a bad token, and never shows the token", async () => {
    const bad = new SlurmClient({
      url: srv.url,
      user: USER,
      token: "wrong-secret-jwt-value",
      http: { retry: { maxAttempts: 1 } },
    });
    const e = await caught(bad.listNodes());
    await bad.close();
    expect(e.code).toBe("RACKFORM_ERR_SLURM_AUTH");
    expect(`${e.message}${e.stack}`).not.toContain("wrong-secret-jwt-value");
  });

  it("fails with RACKFORM_ERR_SLURM_FORBIDDEN when the user may not update nodes", async () => {
    const viewer = new SlurmClient({ url: srv.url, user: "viewer", token: "viewer-jwt-secret" });
    const e = await caught(viewer.drain("gpu-002", "x"));
    await viewer.close();
    expect(e.code).toBe("RACKFORM_ERR_SLURM_FORBIDDEN");
    expect(e.slurmErrors[0].error_number).toBe(2002);
  });

  it("fails with RACKFORM_ERR_SLURM_UNAVAILABLE when slurmrestd cannot reach slurmctld", async () => {
    api.hooks.failNext(1);
    const e = await caught(client.listNodes());
    expect(e.code).toBe("RACKFORM_ERR_SLURM_UNAVAILABLE");
    expect((await client.listNodes()).length).toBe(2);
  });

  it("never writes the token to the log", async () => {
    await client.resume("gpu-001");
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join("\n")).not.toContain(TOKEN);
  });
});
