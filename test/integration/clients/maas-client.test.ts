/** MaasClient against a loopback MAAS stand-in that verifies OAuth as MAAS does. */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MaasClient } from "../../../src/clients/maas/index.js";
import { FIXTURES } from "../../support/fixtures.js";
import { FakeMaas, parseOAuth } from "./maas-fake-server.js";

const KEY = "ck:tk:s3cretTOKEN";
let maas: FakeMaas;
let client: MaasClient;

beforeEach(async () => {
  maas = await new FakeMaas().start();
  client = new MaasClient({ url: maas.url, apiKey: KEY, http: { retry: { baseDelayMs: 1, maxDelayMs: 5 } } });
});

afterEach(async () => {
  await client.close();
  await maas.stop();
});

function caught(
  p: Promise<unknown>,
): Promise<Error & { code?: string; status?: number; details?: Record<string, unknown> }> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e as Error,
  );
}

describe("OAuth", () => {
  it("signs every request with MAAS's PLAINTEXT OAuth header and a fresh nonce", async () => {
    maas.add("gpu-01");
    await client.listMachines();
    await client.listMachines({ hostname: ["gpu-01"] });
    expect(maas.requests).toHaveLength(2);
    const [a, b] = maas.requests.map((r) => parseOAuth(r.authorization));
    expect(Object.fromEntries(a ?? [])).toMatchObject({
      oauth_version: "1.0",
      oauth_signature_method: "PLAINTEXT",
      oauth_consumer_key: "ck",
      oauth_token: "tk",
      oauth_signature: "&s3cretTOKEN",
    });
    expect(a?.get("oauth_timestamp")).toMatch(/^\d{10}$/);
    expect(a?.get("oauth_nonce")).not.toBe(b?.get("oauth_nonce"));
  });

  it("fails with a typed auth error for a wrong secret, and the secret appears nowhere in it", async () => {
    const bad = new MaasClient({ url: maas.url, apiKey: "ck:tk:WRONGsecret99" });
    const e = await caught(bad.getMachine("m00001"));
    await bad.close();
    expect(e.code).toBe("RACKFORM_ERR_MAAS_AUTH");
    expect(e.status).toBe(401);
    expect(e.message).toContain("Invalid signature");
    const everything = `${e.message}\n${e.stack}\n${JSON.stringify(e)}\n${String((e as { cause?: unknown }).cause)}`;
    expect(everything).not.toContain("WRONGsecret99");
    expect(everything).not.toContain("ck:tk:");
    // A 401 is not "try again later": one request only.
    expect(maas.requests).toHaveLength(1);
  });
});

describe("machines", () => {
  it("enlists a machine with redfish power parameters and repeated MAC fields; the BMC password stays out of errors", async () => {
    const m = await client.createMachine({
      hostname: "gpu-07",
      architecture: "amd64/generic",
      macAddresses: ["52:54:00:aa:bb:01", "52:54:00:aa:bb:02"],
      power: { powerAddress: "https://10.0.0.7", powerUser: "admin", powerPass: "bmcPa55word" },
    });
    expect(m).toMatchObject({
      hostname: "gpu-07",
      statusName: "Commissioning",
      macAddresses: ["52:54:00:aa:bb:01", "52:54:00:aa:bb:02"],
    });
    const form = maas.requests[0].form;
    expect(maas.requests[0].op).toBeNull();
    expect(form.get("power_type")).toBe("redfish");
    expect(form.get("power_parameters_power_address")).toBe("https://10.0.0.7");
    expect(form.get("power_parameters_power_user")).toBe("admin");
    expect(form.get("power_parameters_power_pass")).toBe("bmcPa55word");
    expect(form.getAll("mac_addresses")).toEqual(["52:54:00:aa:bb:01", "52:54:00:aa:bb:02"]);
    // A validation error names the field.
    const e = await caught(
      client.createMachine({
        architecture: "",
        macAddresses: [],
        power: { powerAddress: "x", powerUser: "u", powerPass: "bmcPa55word" },
      }),
    );
    expect(e.code).toBe("RACKFORM_ERR_MAAS_BAD_REQUEST");
    expect(e.message).toContain("architecture: This field is required.");
    expect(e.message).not.toContain("bmcPa55word");
  });

  it("allocates, deploys with base64 user data, and waits through Deploying to Deployed", async () => {
    const m = maas.add("gpu-02");
    await client.allocate({ systemId: m.system_id });
    await client.deploy(m.system_id, {
      osystem: "ubuntu",
      distroSeries: "jammy",
      userData: "#cloud-config\nhostname: gpu-02\n",
    });
    const deploy = maas.requests.find((r) => r.op === "deploy");
    expect(deploy?.path).toBe(`/MAAS/api/2.0/machines/${m.system_id}/`);
    expect(deploy?.form.get("distro_series")).toBe("jammy");
    expect(Buffer.from(deploy?.form.get("user_data") ?? "", "base64").toString()).toBe(
      "#cloud-config\nhostname: gpu-02\n",
    );
    maas.scripts.set(m.system_id, [
      { status: 9, name: "Deploying", message: "Installing OS" },
      { status: 9, name: "Deploying", message: "Rebooting" },
      { status: 6, name: "Deployed" },
    ]);
    const seen: string[] = [];
    const done = await client.waitForStatus(m.system_id, ["DEPLOYED"], {
      pollMs: 5,
      onProgress: (x) => seen.push(x.statusMessage),
    });
    expect(done.statusName).toBe("Deployed");
    expect(seen).toEqual(["Installing OS", "Rebooting", ""]);
  });

  it("fails the wait with MAAS's status message and the machine's last events when deployment fails", async () => {
    const m = maas.add("gpu-03", 9, "Deploying");
    maas.scripts.set(m.system_id, [
      { status: 11, name: "Failed deployment", message: "Installation failed (refer to the installation log)" },
    ]);
    maas.events = [
      {
        id: 9,
        node: m.system_id,
        level: "ERROR",
        type: "Failed to deploy",
        description: "curtin: disk sda not found",
        created: "now",
      },
    ];
    const e = await caught(client.waitForStatus(m.system_id, ["Deployed"], { pollMs: 5 }));
    expect(e.code).toBe("RACKFORM_ERR_MAAS_STATUS_FAILED");
    expect(e.message).toContain("reached Failed deployment");
    expect(e.message).toContain("Installation failed (refer to the installation log)");
    expect(e.message).toContain("curtin: disk sda not found");
    expect(e.details).toMatchObject({ systemId: m.system_id, status: 11 });
    expect(maas.requests.find((r) => r.op === "query")?.query.get("id")).toBe(m.system_id);
  });

  it("fails the wait with a typed timeout naming the last status (injected clock, no real waiting)", async () => {
    let now = 0;
    const c = new MaasClient({
      url: maas.url,
      apiKey: KEY,
      clock: { now: () => now, sleep: async (ms) => void (now += ms) },
    });
    const m = maas.add("gpu-04", 1, "Commissioning");
    const e = await caught(c.waitForStatus(m.system_id, ["Ready"], { timeoutMs: 60_000, pollMs: 10_000 }));
    await c.close();
    expect(e.code).toBe("RACKFORM_ERR_MAAS_STATUS_TIMEOUT");
    expect(e.message).toContain("still Commissioning");
    expect(maas.requests.length).toBe(7);
  });

  it("refuses an operation in the wrong status with a typed conflict quoting MAAS", async () => {
    const m = maas.add("gpu-05", 0, "New");
    const e = await caught(client.deploy(m.system_id));
    expect(e.code).toBe("RACKFORM_ERR_MAAS_CONFLICT");
    expect(e.message).toContain("because it is New");
    expect((await caught(client.getMachine("nosuch"))).code).toBe("RACKFORM_ERR_MAAS_NOT_FOUND");
  });
});

describe("never repeating a POST operation", () => {
  it("a deploy whose connection is reset is sent once and reported as outcome-unknown", async () => {
    const m = maas.add("gpu-06", 10, "Allocated");
    maas.resetNextPost = true;
    const e = await caught(client.deploy(m.system_id, { distroSeries: "jammy" }));
    expect(e.code).toBe("RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN");
    expect(e.message).toContain("did not repeat");
    expect(maas.requests.filter((r) => r.op === "deploy")).toHaveLength(1);
  });

  it("a read answered 503 is retried with a fresh nonce (MAAS refuses a nonce twice) and succeeds", async () => {
    const m = maas.add("gpu-07");
    maas.unavailableNextGet = true;
    expect((await client.getMachine(m.system_id)).hostname).toBe("gpu-07");
    expect(maas.requests).toHaveLength(2);
    const [a, b] = maas.requests.map((r) => parseOAuth(r.authorization)?.get("oauth_nonce"));
    expect(a).not.toBe(b);
  });

  it("a read whose connection is reset is retried and succeeds", async () => {
    const m = maas.add("gpu-08");
    maas.resetNextGet = true;
    expect((await client.getMachine(m.system_id)).hostname).toBe("gpu-08");
    expect(maas.requests).toHaveLength(2);
  });
});

describe("batched reads", () => {
  it("concurrent reads of many machines become one list request; a write makes the next read fresh", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => maas.add(`gpu-${i}`).system_id);
    const got = await Promise.all(ids.map((id) => client.machines.get(id)));
    expect(got.map((m) => m?.systemId)).toEqual(ids);
    const lists = () => maas.requests.filter((r) => r.method === "GET" && r.path.endsWith("/machines/")).length;
    expect(lists()).toBe(1);
    const idx = await client.machines.index();
    expect(lists()).toBe(2);
    expect(idx.byHostname.get("gpu-3")?.systemId).toBe(ids[3]);
    expect(idx.byMac.size).toBe(40);
    await client.powerOn(ids[0]);
    expect((await client.machines.get(ids[0]))?.powerState).toBe("on");
    expect(lists()).toBe(3);
  });

  it("lists only the machines it was asked about (id=…), never the whole region, for single-machine reads", async () => {
    // GIVEN a region of 12 machines of which this client reads 3
    const all = Array.from({ length: 12 }, (_, i) => maas.add(`region-${i}`).system_id);
    const mine = [all[2], all[5], all[9]];
    const before = maas.requests.length;
    // WHEN it reads them concurrently
    const got = await Promise.all(mine.map((id) => client.machines.get(id)));
    // THEN one list request carries exactly their ids, and MAAS answers with those machines only
    expect(got.map((m) => m?.systemId)).toEqual(mine);
    const sent = maas.requests.slice(before).filter((r) => r.method === "GET");
    expect(sent).toHaveLength(1);
    expect(sent[0].query.getAll("id").sort()).toEqual([...mine].sort());
  });

  it("concurrent status waits of several machines share each poll's list request", async () => {
    const ms = [
      maas.add("a", 1, "Commissioning"),
      maas.add("b", 1, "Commissioning"),
      maas.add("c", 1, "Commissioning"),
    ];
    for (const m of ms)
      maas.scripts.set(m.system_id, [
        { status: 1, name: "Commissioning" },
        { status: 4, name: "Ready" },
      ]);
    await Promise.all(ms.map((m) => client.waitForStatus(m.system_id, ["READY"], { pollMs: 20 })));
    expect(maas.requests.filter((r) => r.path.endsWith("/machines/")).length).toBe(2);
  });

  it("a wait whose own poll is far off ends when another wait's list shows its machine's new status", async () => {
    // GIVEN two machines that reach Ready together, one waited on every 20 ms and one every 60 s, with a sleep that
    // never runs out a pause of a second or more (only a wake-up ends it)
    const sleep = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const t = ms < 1000 ? setTimeout(resolve, 5) : undefined;
        const stop = () => {
          clearTimeout(t);
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", stop, { once: true });
      });
    const c = new MaasClient({ url: maas.url, apiKey: KEY, clock: { sleep } });
    const [fast, slow] = [maas.add("fast", 1, "Commissioning"), maas.add("slow", 1, "Commissioning")];
    for (const m of [fast, slow])
      maas.scripts.set(m.system_id, [
        { status: 1, name: "Commissioning" },
        { status: 1, name: "Commissioning" },
        { status: 4, name: "Ready" },
      ]);
    // WHEN both wait for Ready
    const got = await Promise.all([
      c.waitForStatus(fast.system_id, ["READY"], { pollMs: 20 }),
      c.waitForStatus(slow.system_id, ["READY"], { pollMs: 60_000 }),
    ]);
    await c.close();
    // THEN the slow wait ended on the list the fast one read, without a list of its own
    expect(got.map((m) => m.statusName)).toEqual(["Ready", "Ready"]);
    expect(maas.requests.filter((r) => r.path.endsWith("/machines/")).length).toBe(3);
  });

  it("a filtered list sends MAAS's repeated filter keys", async () => {
    maas.add("x1");
    maas.add("x2");
    maas.add("x3");
    const list = await client.listMachines({ hostname: ["x1", "x3"] });
    expect(list.map((m) => m.hostname)).toEqual(["x1", "x3"]);
    expect(maas.requests[0].query.getAll("hostname")).toEqual(["x1", "x3"]);
  });
});

describe("the operations MAAS describes", () => {
  it("every method, path and op the client sends exists in MAAS 2.2's own API description", async () => {
    const m = maas.add("ops", 4, "Ready");
    const id = m.system_id;
    await client.getMachine(id);
    await client.listMachines();
    await client.updateMachine(id, { description: "rack 1" });
    await client.commission(id, { testingScripts: ["none"] });
    await client.test(id, { testingScripts: ["smartctl-validate"] });
    await client.abort(id);
    await client.markBroken(id, "psu");
    await client.markFixed(id);
    await client.allocate({ systemId: id });
    await client.deploy(id);
    await client.release(id, { erase: true, quickErase: true });
    await client.powerOn(id);
    await client.powerOff(id, { stopMode: "soft" });
    await client.queryPowerState(id);
    await client.scriptResults(id, "testing");
    await client.events({ systemId: id, limit: 3 });
    await client.catalog.listTags();
    await client.catalog.createTag({ name: "gpu", comment: "GPU nodes" });
    await client.catalog.tagMachines("gpu", { add: [id] });
    await client.catalog.deleteTag("gpu");
    await client.catalog.listBootResources();
    await client.catalog.importBootResources();
    await client.deleteMachine(id);
    const describe = JSON.parse(readFileSync(`${FIXTURES}/maas/python-libmaas/describe/api22.json`, "utf8")) as {
      resources: { auth?: { path: string; actions: { method: string; op: string | null }[] } }[];
    };
    const known = new Set<string>();
    for (const r of describe.resources) {
      for (const a of r.auth?.actions ?? []) {
        const template = r.auth?.path.replace(/\{[^}]+\}/g, "{}") ?? "";
        known.add(`${a.method} ${template} ${a.op ?? ""}`);
      }
    }
    const sent = new Set(
      maas.requests.map(
        (r) => `${r.method} ${r.path.replace(`/${id}/`, "/{}/").replace("/tags/gpu/", "/tags/{}/")} ${r.op ?? ""}`,
      ),
    );
    const unknown = [...sent].filter((s) => !known.has(s) && !s.includes("/results/"));
    expect(unknown).toEqual([]);
    // nodes/{system_id}/results/ is newer than this 2.2 description; gomaasclient (MAAS 3.x) reads it (node_results.json).
  });
});
