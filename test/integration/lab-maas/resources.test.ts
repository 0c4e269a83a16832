// Boot resources (custom image upload), tags and events through the lab's MAAS API.
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { oauthHeader } from "../../support/maas-oauth.js";
import { API_KEY, call, createMachine, DELAYS, type Lab, startLab } from "./support.js";

let lab: Lab;
beforeEach(async () => {
  lab = await startLab();
});
afterEach(async () => lab.close());

async function upload(fields: Record<string, string>, content?: Buffer) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (content) form.set("content", new Blob([new Uint8Array(content)]), "image.tgz");
  const res = await fetch(new URL("api/2.0/boot-resources/", lab.url), {
    method: "POST",
    body: form,
    headers: { Authorization: oauthHeader(API_KEY) },
  });
  return {
    status: res.status,
    json: res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text(),
  };
}

describe("MAAS lab boot resources", () => {
  it("lists the synced Ubuntu images", async () => {
    const r = await call(lab, "boot-resources/");
    expect(r.json.map((b: { name: string }) => b.name)).toEqual(["ubuntu/focal", "ubuntu/jammy", "ubuntu/noble"]);
    expect(r.json[0]).toMatchObject({
      type: "Synced",
      resource_uri: expect.stringMatching(/^\/MAAS\/api\/2.0\/boot-resources\/\d+\/$/),
    });
  });

  it("uploads a custom image whose sha256 and size match, then deploys it", async () => {
    const content = Buffer.from("golden image bytes");
    const sha256 = createHash("sha256").update(content).digest("hex");
    const r = await upload(
      {
        name: "custom/gpu-2026.06.2",
        architecture: "amd64/generic",
        title: "GPU golden",
        sha256,
        size: String(content.length),
      },
      content,
    );
    expect(r.status).toBe(201);
    const set = Object.values(
      r.json.sets as Record<string, { complete: boolean; files: Record<string, { sha256: string }> }>,
    )[0];
    expect(set.complete).toBe(true);
    expect(Object.values(set.files)[0].sha256).toBe(sha256);
    expect((await call(lab, "boot-resources/", { form: { type: "uploaded" } })).json).toHaveLength(1);

    const m = await createMachine(lab, "img-1", "52:54:00:20:00:01");
    await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
    const d = await call(lab, `machines/${m.system_id}/`, {
      method: "POST",
      op: "deploy",
      form: { distro_series: "gpu-2026.06.2" },
    });
    expect(d.json).toMatchObject({ osystem: "custom", distro_series: "gpu-2026.06.2" });
  });

  it("fails the upload when the content does not match its sha256", async () => {
    const r = await upload(
      { name: "custom/bad", architecture: "amd64/generic", sha256: "0".repeat(64) },
      Buffer.from("x"),
    );
    expect(r.status).toBe(400);
    expect(r.json.content[0]).toContain("SHA256");
  });
});

describe("MAAS lab boot resources uploaded in pieces (sha256 and size first, then the bytes)", () => {
  async function put(uri: string, bytes: Buffer) {
    const res = await fetch(new URL(uri, lab.url), {
      method: "PUT",
      body: new Uint8Array(bytes),
      headers: { Authorization: oauthHeader(API_KEY), "Content-Type": "application/octet-stream" },
    });
    return { status: res.status, text: await res.text() };
  }
  const fileOf = (json: Record<string, unknown>) =>
    Object.values(
      Object.values(json.sets as Record<string, { files: Record<string, Record<string, unknown>> }>)[0].files,
    )[0];

  it("takes the bytes at upload_uri in chunks and makes the image deployable once they hash to its sha256", async () => {
    const content = Buffer.from("golden image bytes, in two pieces");
    const sha256 = createHash("sha256").update(content).digest("hex");
    const created = await upload({
      name: "custom/gpu-2026.07.1",
      architecture: "amd64/generic",
      sha256,
      size: String(content.length),
    });
    expect(created.status).toBe(201);
    const uri = fileOf(created.json).upload_uri as string;
    expect(uri).toMatch(/^\/MAAS\/api\/2\.0\/boot-resources\/\d+\/upload\/1\/$/);
    expect(await put(uri, content.subarray(0, 10))).toEqual({ status: 200, text: "OK" });
    expect(await put(uri, content.subarray(10))).toEqual({ status: 200, text: "OK" });
    const read = await call(lab, `boot-resources/${created.json.id}/`);
    expect(fileOf(read.json)).toMatchObject({ complete: true, sha256 });
    expect(fileOf(read.json).upload_uri).toBeUndefined();
    expect((await put(uri, Buffer.from("x"))).text).toBe("Cannot upload to a complete file.");
  });

  it("refuses bytes whose sha256 differs with MAAS's own error, and the image cannot be deployed", async () => {
    const created = await upload({
      name: "custom/gpu-2026.07.2",
      architecture: "amd64/generic",
      sha256: createHash("sha256").update("the real build").digest("hex"),
      size: String("a tampered one".length),
    });
    const uri = fileOf(created.json).upload_uri as string;
    expect(await put(uri, Buffer.from("a tampered one"))).toEqual({
      status: 400,
      text: "Saved content does not match given SHA256 value.",
    });
    expect(fileOf((await call(lab, `boot-resources/${created.json.id}/`)).json).complete).toBe(false);
    const m = await createMachine(lab, "img-2", "52:54:00:20:00:02");
    await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
    const d = await call(lab, `machines/${m.system_id}/`, {
      method: "POST",
      op: "deploy",
      form: { distro_series: "gpu-2026.07.2" },
    });
    expect(d.status).toBe(400);
    expect(JSON.stringify(d.json)).toContain("'gpu-2026.07.2' is not a valid distro_series.");
  });
});

describe("MAAS lab tags and events", () => {
  it("creates a tag, attaches machines, and lists them", async () => {
    const m = await createMachine(lab, "tagged", "52:54:00:30:00:01");
    const t = await call(lab, "tags/", { method: "POST", form: { name: "h100", comment: "8x H100" } });
    expect(t.json).toEqual({
      name: "h100",
      definition: "",
      comment: "8x H100",
      kernel_opts: "",
      resource_uri: "/MAAS/api/2.0/tags/h100/",
    });
    expect(
      (await call(lab, "tags/h100/", { method: "POST", op: "update_nodes", form: { add: m.system_id } })).json,
    ).toEqual({ added: 1, removed: 0 });
    expect((await call(lab, "tags/h100/", { op: "machines" })).json[0].tag_names).toEqual(["h100"]);
    expect((await call(lab, "tags/", { method: "POST", form: { name: "h100" } })).status).toBe(400);
  });

  it("queries a machine's events newest first", async () => {
    const m = await createMachine(lab, "evented", "52:54:00:30:00:02");
    await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
    const r = await call(lab, "events/", { op: "query", form: { id: m.system_id } });
    expect(r.json.count).toBe(r.json.events.length);
    expect(r.json.events[0]).toMatchObject({ node: m.system_id, hostname: "evented", type: "Ready", level: "INFO" });
    const ids = r.json.events.map((e: { id: number }) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(r.json.events[0].created).toMatch(/^\w{3}, \d{2} \S+ \d{4} \d{2}:\d{2}:\d{2}$/);
  });
});
