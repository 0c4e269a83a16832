/**
 * WarewulfClient against the lab's warewulfd: the API as warewulfd 4.7 answers it (nodes with `{"node": …}` bodies,
 * create-only PUT, profiles merged into GET, image import and build, overlays), its refusals as typed errors with no
 * password in them, and GET /status following the world: a node powered on from the network walks ipxe → kernel →
 * image → system → runtime over the profile's deployMs; an install failure stops it at image; a stall never reaches
 * runtime. Manual clock (profile demo: deployMs 5 s, so one stage per simulated second).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/core.js";
import { WarewulfClient } from "../../../src/clients/warewulf/index.js";
import { type ClientLab, rejection, startClientLab } from "./support.js";

let t: ClientLab;
let client: WarewulfClient;
let mac = "";
let mac2 = "";
let first = "";
let second = "";

const stageOf = async (id: string) => (await client.status()).nodes.get(id);

beforeAll(async () => {
  t = await startClientLab(2, "demo");
  const ww = t.lab.info.warewulf;
  if (!ww) throw new Error("the lab serves no warewulfd");
  client = new WarewulfClient({ url: ww.url, username: ww.username, password: ww.password });
  [first, second] = [...t.lab.world.nodes.keys()];
  mac = t.node(first).ports[0].mac.toUpperCase();
  mac2 = t.node(second).ports[0].mac;
});

afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe("WarewulfClient against the lab warewulfd", () => {
  it("refuses a wrong password with RACKFORM_ERR_WAREWULF_AUTH and never shows the password", async () => {
    const ww = t.lab.info.warewulf;
    if (!ww) throw new Error("no warewulfd");
    const secret = "wrong-secret-password";
    const bad = new WarewulfClient({ url: ww.url, username: ww.username, password: secret });
    const e = await rejection(bad.listNodes());
    await bad.close();
    expect(e.code).toBe("RACKFORM_ERR_WAREWULF_AUTH");
    expect(e.status).toBe(401);
    expect(`${e.message} ${e.stack} ${JSON.stringify(e)}`).not.toContain(secret);
  });

  it("starts with the default profile, the distribution overlays, no images and an empty status", async () => {
    expect([...(await client.listProfiles()).keys()]).toEqual(["default"]);
    expect(await client.listOverlays()).toEqual(expect.arrayContaining(["wwinit", "wwclient", "hostname"]));
    expect(await client.listImages()).toEqual([]);
    expect((await client.status()).nodes.size).toBe(0);
  });

  it("imports (docker:// only) and builds an image", async () => {
    const e = await rejection(client.importImage("rocky-9", "https://example.test/rocky:9"));
    expect(e.code).toBe("RACKFORM_ERR_WAREWULF_BAD_REQUEST");
    expect(e.serverMessage).toContain("missing docker:// prefix");
    const imported = await client.importImage("rocky-9", "docker://ghcr.io/warewulf/rocky:9", { password: "reg-pw" });
    expect(imported.buildtime).toBe(0);
    const built = await client.buildImage("rocky-9");
    expect(built.buildtime).toBeGreaterThan(0);
    expect(built.kernels.length).toBe(1);
  });

  it("refuses a node naming an unknown profile, then adds it create-only and refuses a second create", async () => {
    const e = await rejection(client.createNode("n1", { profiles: ["gpu"] }));
    expect(e.code).toBe("RACKFORM_ERR_WAREWULF_BAD_REQUEST");
    expect(e.serverMessage).toBe("profile 'gpu' does not exist");
    await client.putProfile("gpu", { "image name": "rocky-9", "system overlay": ["wwinit"] }, { createOnly: true });
    const n = await client.createNode("n1", {
      profiles: ["gpu"],
      "network devices": { default: { hwaddr: mac, ipaddr: "10.0.0.11" } },
      ipmi: { ipaddr: "127.10.1.1", port: "8443", username: "admin", password: "bmc-pw" },
      "runtime overlay": ["hostname"],
    });
    expect(n.macs).toEqual([mac.toLowerCase()]);
    const again = await rejection(client.createNode("n1", { profiles: ["gpu"] }));
    expect(again.code).toBe("RACKFORM_ERR_WAREWULF_CONFLICT");
    expect(again.serverMessage).toBe("node 'n1' already exists");
  });

  it("merges profile fields into GET and keeps the node's own fields in /raw; PATCH merges", async () => {
    const merged = await client.getNode("n1");
    expect(merged?.fields["image name"]).toBe("rocky-9");
    expect(merged?.fields["system overlay"]).toEqual(["wwinit"]);
    const raw = await client.getNode("n1", { raw: true });
    expect(raw?.fields["image name"]).toBeUndefined();
    const patched = await client.patchNode("n1", { tags: { rack: "r1" } });
    expect(patched.fields.tags).toEqual({ rack: "r1" });
    expect(patched.fields["network devices"]?.default?.hwaddr).toBe(mac);
    expect(await client.getNode("absent")).toBeUndefined();
    const bad = await rejection(client.patchNode("n1", { ipmi: { ipaddr: "not-an-ip" } }));
    expect(bad.code).toBe("RACKFORM_ERR_WAREWULF_BAD_REQUEST");
  });

  it("shows a defined node never seen with an empty stage, then walks the stages after a PXE power-on", async () => {
    const before = await stageOf("n1");
    expect(before).toMatchObject({ node: "n1", stage: "", lastSeen: 0 });
    const node = t.node(first);
    t.lab.world.setHostPower(node, true);
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const s = await stageOf("n1");
      if (s && seen.at(-1) !== s.stage) seen.push(s.stage);
      t.advance(1_000);
    }
    expect(seen).toEqual(["ipxe", "kernel", "image", "system", "runtime"]);
    const st = await client.status();
    expect(st.nodes.get("n1")?.ipaddr).toBe("10.0.0.11");
    expect(st.serverTime).toBeDefined();
    expect(st.nodes.get("n1")?.lastSeen).toBe(st.serverTime);
  });

  it("stops an install failure at image (NOT_FOUND) and a stalled node before runtime", async () => {
    await client.createNode("n2", { profiles: ["gpu"], "network devices": { default: { hwaddr: mac2 } } });
    const fault = t.lab.world.faults.add({ kind: "deploy-failure", node: second });
    const node = t.node(second);
    t.lab.world.setHostPower(node, true);
    t.advance(10_000);
    expect(await stageOf("n2")).toMatchObject({ stage: "image", sent: "NOT_FOUND" });
    t.lab.world.faults.remove(fault.id);
    t.lab.backends?.warewulf.hooks.stall("n2", "system");
    t.lab.world.setHostPower(node, false);
    t.advance(1_000);
    t.lab.world.setHostPower(node, true);
    t.advance(10_000);
    expect((await stageOf("n2"))?.stage).toBe("system");
    t.lab.backends?.warewulf.hooks.stall("n2", undefined);
    expect((await stageOf("n2"))?.stage).toBe("runtime");
  });

  it("retries a read through a 503 but never a POST", async () => {
    t.lab.backends?.warewulf.hooks.failNext(1);
    expect((await client.listNodes()).map((n) => n.id)).toEqual(["n1", "n2"]);
    t.lab.backends?.warewulf.hooks.failNext(1);
    const e = await rejection(client.buildNodeOverlays("n1"));
    expect(isClientError(e) && e.status).toBe(503);
    await client.buildNodeOverlays("n1");
  });

  it("deletes a node (true), and a second delete reports it gone (false); status forgets it", async () => {
    expect(await client.deleteNode("n2")).toBe(true);
    expect(await client.deleteNode("n2")).toBe(false);
    expect((await client.status()).nodes.has("n2")).toBe(false);
  });

  it("shares a core: the Basic password is registered with its redactor", async () => {
    const ww = t.lab.info.warewulf;
    if (!ww) throw new Error("no warewulfd");
    const core = new HttpCore();
    const c = new WarewulfClient({ url: ww.url, username: ww.username, password: ww.password, core });
    expect(core.redactor.redact(`x ${ww.password} y`)).not.toContain(ww.password);
    await c.close();
    await core.close();
  });
});
