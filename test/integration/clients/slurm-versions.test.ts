/**
 * SlurmClient's API version negotiation against the lab slurmrestd as 24.05 (v0.0.39–v0.0.41) and as 22.05
 * (v0.0.36–v0.0.38, read-only nodes): the client reads /openapi/v3 once and speaks the newest version it knows.
 * test/contract/slurm runs the same against Debian's real 22.05.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SlurmClient, SlurmError } from "../../../src/clients/slurm/index.js";
import { createSlurmApi, type ListeningServer, type SlurmApi } from "../../../src/lab/scheduler/index.js";

const USER = "rackform";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LWp3dA.slurm-secret-signature";

const open: { srv: ListeningServer; client: SlurmClient }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.client.close();
    await o.srv.close();
  }
});

async function lab(release: "24.05" | "22.05", token = TOKEN): Promise<{ api: SlurmApi; client: SlurmClient }> {
  const api = createSlurmApi({ jwtTokens: { [USER]: TOKEN }, release });
  const srv = await api.listen("127.0.0.1", 0);
  api.hooks.registerNode("gpu-001", { gres: "gpu:h100:8", features: ["h100"] });
  const client = new SlurmClient({ url: srv.url, user: USER, token, http: { retry: { maxAttempts: 1 } } });
  open.push({ srv, client });
  return { api, client };
}

async function caught(p: Promise<unknown>): Promise<SlurmError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SlurmError) return e;
    throw e;
  }
  throw new Error("expected a SlurmError");
}

describe("SlurmClient version negotiation", () => {
  it("speaks v0.0.41 to a 24.05 slurmrestd, asking /openapi/v3 once", async () => {
    const { api, client } = await lab("24.05");
    await client.getNode("gpu-001");
    await client.drain("gpu-001", "maintenance");
    expect((await client.apiVersion()).name).toBe("v0.0.41");
    expect(api.requests.filter((r) => r.path === "/openapi/v3")).toHaveLength(1);
    expect(api.requests.filter((r) => r.path.startsWith("/slurm/")).every((r) => r.path.includes("/v0.0.41/"))).toBe(
      true,
    );
  });

  it("reads a 22.05 slurmrestd through v0.0.38: lower-case state and flags, csv features", async () => {
    const { api, client } = await lab("22.05");
    api.hooks.registerNode("gpu-002", { features: ["h100", "ib"] });
    await client.getNode("gpu-001");
    expect((await client.apiVersion()).name).toBe("v0.0.38");
    const n = await client.getNode("gpu-002");
    expect(n).toMatchObject({ state: ["IDLE"], schedulable: true, features: ["h100", "ib"] });
  });

  it("fails with RACKFORM_ERR_SLURM_UNSUPPORTED for a drain on 22.05, without sending it", async () => {
    const { api, client } = await lab("22.05");
    const e = await caught(client.drain("gpu-001", "maintenance"));
    expect(e.code).toBe("RACKFORM_ERR_SLURM_UNSUPPORTED");
    expect(e.message).toContain("scontrol update nodename=gpu-001");
    expect(api.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("fails with RACKFORM_ERR_SLURM_AUTH for a bad token on 22.05 (HTTP 500, errno -1) and leaves it out of the message", async () => {
    const { client } = await lab("22.05", "forged-jwt-secret");
    const e = await caught(client.listNodes());
    expect(e.code).toBe("RACKFORM_ERR_SLURM_AUTH");
    expect(e.message).not.toContain("forged-jwt-secret");
  });

  it("fails with RACKFORM_ERR_SLURM_NOT_FOUND for an unknown node on 22.05 (HTTP 500, errno 2018)", async () => {
    const { client } = await lab("22.05");
    expect((await caught(client.getNode("nope"))).code).toBe("RACKFORM_ERR_SLURM_NOT_FOUND");
  });

  it("a pinned apiVersion skips negotiation", async () => {
    const { api } = await lab("24.05");
    const srvUrl = `http://127.0.0.1:${new URL(open[0].srv.url).port}`;
    const pinned = new SlurmClient({ url: srvUrl, user: USER, token: TOKEN, apiVersion: "v0.0.40" });
    await pinned.listNodes();
    await pinned.close();
    expect(api.requests.map((r) => r.path)).toEqual(["/slurm/v0.0.40/nodes"]);
  });
});
