/** The lab slurmrestd speaks data_parser v0.0.41: auth headers, node states, updates and the errors[] envelope. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSlurmApi, type ListeningServer, type SlurmApi } from "../../../src/lab/scheduler/index.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire; each test asserts the shape it reads.
type Wire = Record<string, any>;

const USER = "rackform";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.lab-jwt.sig";
const V = "/slurm/v0.0.41";

let api: SlurmApi;
let srv: ListeningServer;

beforeEach(async () => {
  api = createSlurmApi({
    jwtTokens: { [USER]: TOKEN, viewer: "viewer-jwt" },
    operators: [USER],
    clock: { now: () => Date.UTC(2026, 0, 1) },
  });
  srv = await api.listen("127.0.0.1", 0);
  api.hooks.registerNode("gpu-001", { gres: "gpu:h100:8", features: ["h100"], partitions: ["gpu"] });
});
afterEach(async () => {
  await srv.close();
  api.stop();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  auth: Record<string, string> = { "x-slurm-user-name": USER, "x-slurm-user-token": TOKEN },
) {
  const res = await fetch(`${srv.url}${path}`, {
    method,
    headers: { ...auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as Wire };
}

const state = async (node = "gpu-001") => (await call("GET", `${V}/node/${node}`)).json.nodes[0].state;

describe("lab slurmrestd authentication", () => {
  it("fails with 401 without X-SLURM-USER-TOKEN, with a wrong token, or with another user's name", async () => {
    expect((await call("GET", `${V}/nodes`, undefined, {})).status).toBe(401);
    expect(
      (await call("GET", `${V}/nodes`, undefined, { "x-slurm-user-name": USER, "x-slurm-user-token": "nope" })).status,
    ).toBe(401);
    expect(
      (await call("GET", `${V}/nodes`, undefined, { "x-slurm-user-name": "viewer", "x-slurm-user-token": TOKEN }))
        .status,
    ).toBe(401);
  });

  it("fails with ESLURM_ACCESS_DENIED in errors[] (HTTP 500, as Slurm 24.05) when a non-operator updates a node", async () => {
    const r = await call(
      "POST",
      `${V}/node/gpu-001`,
      { state: ["DRAIN"], reason: "x" },
      { "x-slurm-user-name": "viewer", "x-slurm-user-token": "viewer-jwt" },
    );
    expect(r.status).toBe(500);
    expect(r.json.errors[0]).toMatchObject({ error_number: 2002, error: "Access/permission denied" });
  });
});

describe("lab slurmrestd nodes", () => {
  it("lists registered nodes with v0.0.41 fields: state array, csv arrays, gres, no_val structs, meta", async () => {
    const r = await call("GET", `${V}/nodes`);
    expect(r.status).toBe(200);
    expect(r.json.errors).toEqual([]);
    expect(r.json.last_update).toMatchObject({ set: true, infinite: false });
    expect(r.json.meta.plugin.data_parser).toBe("data_parser/v0.0.41");
    const n = r.json.nodes[0];
    expect(n).toMatchObject({
      name: "gpu-001",
      state: ["IDLE"],
      gres: "gpu:h100:8",
      features: ["h100"],
      active_features: ["h100"],
      partitions: ["gpu"],
      reason: "",
    });
    expect(n.tres).toContain("gres/gpu=8");
  });

  it("fails with ESLURM_INVALID_NODE_NAME in errors[] for an unknown node", async () => {
    const r = await call("GET", `${V}/node/nope`);
    expect(r.status).toBe(500);
    expect(r.json.errors).toEqual([
      expect.objectContaining({
        error_number: 2018,
        error: "Invalid node name specified",
        description: "Failure to query node nope",
      }),
    ]);
  });

  it("deletes only a dynamic node (DYNAMIC_NORM), as slurmctld's delete_nodes(); a slurm.conf node or a stranger fails in errors[]", async () => {
    api.hooks.registerNode("dyn-001", { dynamic: true });
    expect(await state("dyn-001")).toEqual(["IDLE", "DYNAMIC_NORM"]);
    const conf = await call("DELETE", `${V}/node/gpu-001`);
    expect(conf.status).toBe(500);
    expect(conf.json.errors).toEqual([
      {
        error_number: 2028,
        error: "Invalid node state specified",
        description: "Failure to delete node gpu-001: Can't delete non-dynamic node 'gpu-001'.",
        source: "slurm_delete_node()",
      },
    ]);
    const viewer = { "x-slurm-user-name": "viewer", "x-slurm-user-token": "viewer-jwt" };
    expect((await call("DELETE", `${V}/node/dyn-001`, undefined, viewer)).json.errors[0].error_number).toBe(2002);
    const ok = await call("DELETE", `${V}/node/dyn-001`);
    expect(ok.status).toBe(200);
    expect(ok.json.errors).toEqual([]);
    expect(api.hooks.node("dyn-001")).toBeUndefined();
    expect((await call("DELETE", `${V}/node/dyn-001`)).json.errors[0].error_number).toBe(2018);
  });

  it("walks DRAIN → draining (ALLOCATED+DRAIN) while a job runs → drained (IDLE+DRAIN) after it ends → RESUME", async () => {
    const job = api.hooks.startJob("gpu-001");
    expect(await state()).toEqual(["ALLOCATED"]);
    expect((await call("POST", `${V}/node/gpu-001`, { state: ["DRAIN"], reason: "reimage" })).status).toBe(200);
    expect(await state()).toEqual(["ALLOCATED", "DRAIN"]);
    api.hooks.endJob(job);
    expect(await state()).toEqual(["IDLE", "DRAIN"]);
    const drained = (await call("GET", `${V}/node/gpu-001`)).json.nodes[0];
    expect(drained).toMatchObject({ reason: "reimage", reason_set_by_user: USER });
    expect((await call("POST", `${V}/node/gpu-001`, { state: ["RESUME"] })).status).toBe(200);
    expect(await state()).toEqual(["IDLE"]);
    expect((await call("GET", `${V}/node/gpu-001`)).json.nodes[0].reason).toBe("");
  });

  it("fails to DRAIN or DOWN without a reason, and to RESUME a node that is already up", async () => {
    const drain = await call("POST", `${V}/node/gpu-001`, { state: ["DRAIN"] });
    expect(drain.status).toBe(500);
    expect(drain.json.errors[0].error_number).toBe(2028);
    const resume = await call("POST", `${V}/node/gpu-001`, { state: ["RESUME"] });
    expect(resume.json.errors[0]).toMatchObject({ error_number: 2028, error: "Invalid node state specified" });
  });

  it("DOWN kills running jobs; UNDRAIN clears only the DRAIN flag", async () => {
    api.hooks.startJob("gpu-001");
    await call("POST", `${V}/node/gpu-001`, { state: ["DOWN"], reason: "bad gpu" });
    expect(await state()).toEqual(["DOWN"]);
    await call("POST", `${V}/node/gpu-001`, { state: ["RESUME"] });
    await call("POST", `${V}/node/gpu-001`, { state: ["DRAIN"], reason: "x" });
    await call("POST", `${V}/node/gpu-001`, { state: ["UNDRAIN"] });
    expect(await state()).toEqual(["IDLE"]);
  });

  it("updates features (active follow), features_act and comment", async () => {
    await call("POST", `${V}/node/gpu-001`, { features: ["h100", "ib"], comment: "rack r12" });
    let n = (await call("GET", `${V}/node/gpu-001`)).json.nodes[0];
    expect(n).toMatchObject({ features: ["h100", "ib"], active_features: ["h100", "ib"], comment: "rack r12" });
    await call("POST", `${V}/node/gpu-001`, { features_act: ["h100"] });
    n = (await call("GET", `${V}/node/gpu-001`)).json.nodes[0];
    expect(n.active_features).toEqual(["h100"]);
  });

  it("fails with 400 on unparseable bodies and unknown fields, 404 on unknown URLs, errors[1007] when slurmctld is unreachable", async () => {
    const bad = await fetch(`${srv.url}${V}/node/gpu-001`, {
      method: "POST",
      headers: { "x-slurm-user-name": USER, "x-slurm-user-token": TOKEN },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expect((await call("POST", `${V}/node/gpu-001`, { colour: "red" })).status).toBe(400);
    expect((await call("GET", "/slurm/v0.0.38/nodes")).status).toBe(404);
    api.hooks.failNext(1);
    const down = await call("GET", `${V}/nodes`);
    expect(down.status).toBe(500);
    expect(down.json.errors[0].error_number).toBe(1007);
    expect((await call("GET", `${V}/nodes`)).status).toBe(200);
  });
});
