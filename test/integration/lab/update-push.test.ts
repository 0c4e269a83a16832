/**
 * Integration: multipart HTTP push updates on the lab BMC over plain HTTPS — the UpdateService's
 * MultipartHttpPushUri and HttpPushUriOptions, a push applied Immediately or staged OnReset (activated by the next
 * host reset), a body fed in tiny chunks, refusals (415, 400), the image server's firmware files (plain and -badsig),
 * and the faults bad-signature, component-busy and power-lost-mid-update.
 */
import { Readable } from "node:stream";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { labFirmwareFile, labFirmwareImage } from "../../../src/lab/index.js";
import {
  call,
  control,
  type Json,
  powerOutlet,
  type Res,
  startTestLab,
  systemPath,
  type TestLab,
} from "./lab-client.js";

let t: TestLab;
let bmc: string;
let sys: string;
let node: string;
const FW = "/redfish/v1/UpdateService/FirmwareInventory";

beforeAll(async () => {
  t = await startTestLab({ nodes: 2 });
  node = t.lab.info.nodes[1].name; // dell: Installed-159-BIOS and friends
  bmc = t.lab.info.nodes[1].bmc.url;
  await powerOutlet(t, node);
  sys = await systemPath(t, bmc);
  await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "On" } });
});
afterEach(() => t.lab.world.faults.clear());
afterAll(async () => t?.stop());

const labNode = () => t.lab.world.nodes.get(node) as NonNullable<ReturnType<typeof t.lab.world.nodes.get>>;
const target = (c: "bios" | "bmc" | "nic") => `${FW}/${labNode().ids.firmware[c]}`;
const version = async (c: "bios" | "bmc" | "nic") => (await call(t, bmc, "GET", target(c))).body.Version;

/** A multipart body: UpdateParameters JSON, then UpdateFile. */
function form(params: unknown, image?: Buffer, filename = "bios.rfimg"): { boundary: string; body: Buffer } {
  const boundary = "lab-test-boundary-7d1e";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="UpdateParameters"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(params)}\r\n`,
  );
  const file = image
    ? Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="UpdateFile"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        image,
        Buffer.from("\r\n"),
      ])
    : Buffer.alloc(0);
  return { boundary, body: Buffer.concat([head, file, Buffer.from(`--${boundary}--\r\n`)]) };
}

/** POSTs to the push URI; `chunk` splits the body into pieces of that many bytes. */
async function push(
  f: { boundary: string; body: Buffer },
  opts: { chunk?: number; contentType?: string } = {},
): Promise<Res> {
  const { username, password } = t.lab.spec.credentials;
  const us = (await call(t, bmc, "GET", "/redfish/v1/UpdateService")).body;
  const pieces = async function* () {
    for (let i = 0; i < f.body.length; i += opts.chunk ?? f.body.length)
      yield f.body.subarray(i, i + (opts.chunk ?? f.body.length));
  };
  const res = await request(`${bmc}${us.MultipartHttpPushUri}`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
      "content-type": opts.contentType ?? `multipart/form-data; boundary=${f.boundary}`,
    },
    body: opts.chunk ? Readable.from(pieces()) : f.body,
    dispatcher: t.agent,
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = String(v);
  return { status: res.statusCode, headers, body: text ? JSON.parse(text) : undefined };
}

async function task(r: Res): Promise<Json> {
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return (await call(t, bmc, "GET", r.body["@odata.id"])).body;
}

const reset = () =>
  call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "ForceRestart" } });

describe("UpdateService multipart push", () => {
  it("advertises MultipartHttpPushUri and HttpPushUriApplyTime Immediate/OnReset", async () => {
    const us = (await call(t, bmc, "GET", "/redfish/v1/UpdateService")).body;
    expect(us.MultipartHttpPushUri).toBe("/redfish/v1/UpdateService/upload");
    expect(us.HttpPushUriOptions.HttpPushUriApplyTime).toEqual({
      ApplyTime: "Immediate",
      "ApplyTime@Redfish.AllowableValues": ["Immediate", "OnReset"],
    });
    expect(us.Actions["#UpdateService.SimpleUpdate"]).toBeDefined();
  });

  it("applies an Immediate push when its task completes, the body read in 7-byte chunks", async () => {
    const image = labFirmwareImage({ component: "nic", version: "28.40.1000", payload: Buffer.alloc(5000, 7) });
    const done = await task(await push(form({ Targets: [target("nic")] }, image, "nic.rfimg"), { chunk: 7 }));
    expect(done).toMatchObject({ TaskState: "Completed", TaskStatus: "OK", PercentComplete: 100 });
    expect(await version("nic")).toBe("28.40.1000");
  });

  it("stages an OnReset push: the old version stays until the next reset activates the new one", async () => {
    const before = await version("bios");
    const image = labFirmwareImage({ component: "bios", version: "2.3.1" });
    const r = await push(form({ Targets: [target("bios")], "@Redfish.OperationApplyTime": "OnReset" }, image));
    expect(r.headers.location).toMatch(/^\/redfish\/v1\/TaskService\/TaskMonitors\//);
    const staged = await task(r);
    expect(staged.TaskState).toBe("Completed");
    expect(staged.Messages.map((m: Json) => m.MessageId)).toContain("Update.1.0.AwaitToActivate");
    expect(await version("bios")).toBe(before);
    expect((await call(t, bmc, "GET", sys)).body.BiosVersion).toBe(before);

    expect((await reset()).status).toBe(204);
    expect(await version("bios")).toBe("2.3.1");
    expect((await call(t, bmc, "GET", sys)).body.BiosVersion).toBe("2.3.1");
    const after = (await call(t, bmc, "GET", r.body["@odata.id"])).body;
    expect(after.Messages.map((m: Json) => m.MessageId)).toContain("Update.1.0.UpdateSuccessful");
  });

  it("ends the task in Exception naming the image when its signature is wrong, missing, or faulted", async () => {
    const before = await version("bios");
    const cases = [
      labFirmwareImage({ component: "bios", version: "9.9.9", signature: "wrong" }),
      labFirmwareImage({ component: "bios", version: "9.9.9", signature: "none" }),
    ];
    for (const image of cases) {
      const failed = await task(await push(form({}, image, "evil.rfimg")));
      expect(failed).toMatchObject({ TaskState: "Exception", TaskStatus: "Critical" });
      expect(failed.Messages[0].Message).toContain("'evil.rfimg' failed signature verification");
    }
    await control(t, "POST", "/faults", { kind: "bad-signature", node, count: 1 });
    const faulted = await task(
      await push(form({}, labFirmwareImage({ component: "bios", version: "9.9.9" }), "ok.rfimg")),
    );
    expect(faulted.TaskState).toBe("Exception");
    expect(faulted.Messages[0].Message).toContain("'ok.rfimg'");
    expect(await version("bios")).toBe(before);
  });

  it("pushes the image server's firmware files: the plain one activates at reset, the -badsig one ends in Exception", async () => {
    const fetched = async (name: string) =>
      Buffer.from(await (await fetch(`${t.lab.images.url}${name}`)).arrayBuffer());
    const good = labFirmwareFile("bios", "2.4.0");
    const staged = await task(
      await push(form({ "@Redfish.OperationApplyTime": "OnReset" }, await fetched(good.name), good.name)),
    );
    expect(staged.TaskState).toBe("Completed");
    const bad = labFirmwareFile("bios", "2.5.0", { badSignature: true });
    const failed = await task(await push(form({}, await fetched(bad.name), bad.name)));
    expect(failed).toMatchObject({ TaskState: "Exception", TaskStatus: "Critical" });
    expect(failed.Messages[0].Message).toContain(`'${bad.name}' failed signature verification`);
    await reset();
    expect(await version("bios")).toBe("2.4.0");
  });

  it("component-busy answers the first push 503 with Retry-After, the next one 202", async () => {
    await control(t, "POST", "/faults", { kind: "component-busy", node, retryAfterS: 3 });
    const f = form({}, labFirmwareImage({ component: "bmc", version: "7.10.90.00" }), "idrac.rfimg");
    const busy = await push(f);
    expect(busy.status).toBe(503);
    expect(busy.headers["retry-after"]).toBe("3");
    expect(busy.body.error["@Message.ExtendedInfo"][0].MessageId).toBe("Base.1.18.ServiceTemporarilyUnavailable");
    expect((await task(await push(f))).TaskState).toBe("Completed");
    expect(await version("bmc")).toBe("7.10.90.00");
  });

  it("power-lost-mid-update: the staged image is lost at the reset; the version stays and the task says so", async () => {
    const before = await version("bios");
    await control(t, "POST", "/faults", { kind: "power-lost-mid-update", node, count: 1 });
    const image = labFirmwareImage({ component: "bios", version: "3.0.0" });
    const r = await push(form({ "@Redfish.OperationApplyTime": "OnReset" }, image, "bios-3.rfimg"));
    expect((await task(r)).TaskState).toBe("Completed");
    await reset();
    expect(await version("bios")).toBe(before);
    const lost = (await call(t, bmc, "GET", r.body["@odata.id"])).body;
    expect(lost).toMatchObject({ TaskState: "Exception", TaskStatus: "Critical" });
    const msg = lost.Messages.find((m: Json) => m.MessageId === "Update.1.0.ActivateFailed");
    expect(msg.Message).toMatch(/bios-3\.rfimg.*rolled back/);
  });

  it("refuses what is not a push: 415 without multipart, 400 without UpdateFile, an unknown target or apply time", async () => {
    const image = labFirmwareImage({ component: "bios", version: "1.0.0" });
    expect((await push(form({}, image), { contentType: "application/octet-stream" })).status).toBe(415);
    const id = async (r: Res) => {
      expect(r.status).toBe(400);
      return r.body.error["@Message.ExtendedInfo"][0].MessageId;
    };
    expect(await id(await push(form({})))).toBe("Base.1.18.PropertyMissing");
    expect(await id(await push(form({ Targets: [`${FW}/Nope`] }, image)))).toBe("Base.1.18.PropertyValueNotInList");
    expect(await id(await push(form({ "@Redfish.OperationApplyTime": "AtMaintenanceWindowStart" }, image)))).toBe(
      "Base.1.18.PropertyValueNotInList",
    );
    const truncated = form({}, image);
    expect(await id(await push({ ...truncated, body: truncated.body.subarray(0, truncated.body.length - 10) }))).toBe(
      "Base.1.18.GeneralError",
    );
    expect((await call(t, bmc, "GET", "/redfish/v1/UpdateService/upload")).status).toBe(405);
  });
});
