/**
 * rackform's SlurmClient against Debian's real slurmrestd 22.05.8 (test/setup/slurm.ts): it negotiates v0.0.38, the
 * newest version 22.05 serves, reads a node a real slurmd registered, and fails with typed codes for an unknown node,
 * a forged token and every write — 22.05's REST API has no node update or delete (they came with 23.02's v0.0.39),
 * so rackform refuses them before sending anything and names scontrol instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlurmClient } from "../../../src/clients/slurm/index.js";
import { type RealSlurmd, startSlurmd } from "../../support/real-slurm.js";
import { until } from "../../support/until.js";
import { caught, client, realSlurm } from "./support.js";

const NODE = "ct-n1";
let slurmd: RealSlurmd;
let c: SlurmClient;

beforeAll(async () => {
  const info = realSlurm();
  slurmd = startSlurmd(info, NODE);
  c = client(info);
  await until(
    () => `${NODE}'s slurmd to register`,
    async () => (await c.getNode(NODE)).schedulable,
    { timeoutMs: 30_000, everyMs: 200 },
  );
});
afterAll(async () => {
  await c?.close();
  await slurmd?.stop();
});

describe("SlurmClient against the real slurmrestd 22.05", () => {
  it("negotiates v0.0.38, the newest version the server lists at /openapi/v3", async () => {
    expect((await c.apiVersion()).name).toBe("v0.0.38");
    const doc = (await (
      await fetch(`${realSlurm().url}/openapi/v3`, {
        headers: { "X-SLURM-USER-NAME": realSlurm().user, "X-SLURM-USER-TOKEN": realSlurm().token },
      })
    ).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths).filter((p) => p.endsWith("/nodes"))).toEqual([
      "/slurm/v0.0.36/nodes",
      "/slurm/v0.0.37/nodes",
      "/slurm/v0.0.38/nodes",
    ]);
    // What makes 22.05 read-only for rackform: no POST or DELETE on a node in any version it serves.
    expect(Object.keys(doc.paths["/slurm/v0.0.38/node/{node_name}"])).toEqual(["get"]);
  });

  it("reads the registered node IDLE with its slurm.conf features under every version 22.05 serves", async () => {
    const seen: Record<string, unknown> = {};
    for (const v of ["v0.0.36", "v0.0.37", "v0.0.38"]) {
      const pinned = client(realSlurm(), { apiVersion: v });
      const n = await pinned.getNode(NODE);
      await pinned.close();
      seen[v] = { state: n.state, schedulable: n.schedulable, features: n.features, partitions: n.partitions };
    }
    // v0.0.36 has no partitions field: rackform's budget keys (by partition) need v0.0.37 or later.
    const idle = { state: ["IDLE"], schedulable: true, features: ["base"], partitions: ["gpu"] };
    expect(seen).toEqual({ "v0.0.36": { ...idle, partitions: [] }, "v0.0.37": idle, "v0.0.38": idle });
  });

  it("fails with RACKFORM_ERR_SLURM_NOT_FOUND for a node slurm.conf does not list", async () => {
    expect((await caught(c.getNode("ct-nope"))).code).toBe("RACKFORM_ERR_SLURM_NOT_FOUND");
  });

  it("fails with RACKFORM_ERR_SLURM_AUTH for a forged token (22.05: HTTP 500, errno -1), without the token in the message", async () => {
    const forged = `${realSlurm().token.split(".").slice(0, 2).join(".")}.Zm9yZ2Vk`;
    const bad = client(realSlurm(), { token: forged });
    const e = await caught(bad.listNodes());
    await bad.close();
    expect(e.code).toBe("RACKFORM_ERR_SLURM_AUTH");
    expect(e.status).toBe(500);
    expect(e.message).not.toContain(forged);
  });

  it("fails with RACKFORM_ERR_SLURM_UNSUPPORTED for drain, resume, features, comment and delete, leaving the node as it was", async () => {
    const writes = [
      c.drain(NODE, "maintenance"),
      c.down(NODE, "maintenance"),
      c.setFeatures(NODE, ["h100"]),
      c.setComment(NODE, "x"),
      c.deleteNode(NODE),
      c.resume(NODE, { features: ["h100"] }),
    ];
    for (const w of writes) {
      const e = await caught(w);
      expect(e.code).toBe("RACKFORM_ERR_SLURM_UNSUPPORTED");
      expect(e.message).toMatch(/v0\.0\.38 \(Slurm 22\.05\).*scontrol (update|delete) nodename=ct-n1/);
    }
    expect(await c.getNode(NODE)).toMatchObject({ baseState: "IDLE", drain: false, features: ["base"], comment: "" });
  });

  it("resume of a node already IDLE with the wanted features sends no write: the join 22.05 allows", async () => {
    expect(await c.resume(NODE, { features: ["base"] })).toMatchObject({ schedulable: true, features: ["base"] });
  });
});
