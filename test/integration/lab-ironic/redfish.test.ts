// The lab Ironic's redfish driver against the lab's own HTTPS Redfish BMCs: verify, inspect, power, deploy, tear down.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab as Datacenter, startLab as startDatacenter } from "../../../src/lab/index.js";
import { createIronicApi, type IronicApi, redfishBmc } from "../../../src/lab/ironic/index.js";
import { freePort } from "../../support/real-ironic.js";
import { until } from "../../support/until.js";
import { call, node, provision } from "./support.js";

let dc: Datacenter;
let stateDir: string;
let ironic: IronicApi;
let url: string;
let close: () => Promise<void>;
let bmc: { url: string; username: string; password: string };
let caPath: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "ironic-redfish-"));
  dc = await startDatacenter({ stateDir, nodes: 2, profile: "instant" });
  for (const n of dc.world.nodes.values()) dc.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  bmc = dc.info.nodes[0].bmc;
  caPath = dc.info.ca;
  // The conductor trusts the lab CA, as an operator would install it on a real conductor.
  ironic = createIronicApi({
    bmc: redfishBmc({ caPem: readFileSync(caPath, "utf8") }),
    delays: { verifyMs: 0, inspectMs: 10, cleanMs: 10, deployMs: 10, deleteMs: 10, powerMs: 0 },
  });
  const server = await ironic.listen("127.0.0.1", 0);
  url = server.url;
  close = server.close;
}, 60_000);

afterAll(async () => {
  await close?.();
  await dc?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

async function settled(uuid: string) {
  return until(`node ${uuid} to settle`, async () => {
    const n = await node(url, uuid);
    return n.target_provision_state === null && n.reservation === null && n.target_power_state === null ? n : undefined;
  });
}

async function redfishNode(name: string, driverInfo: Record<string, unknown>) {
  const r = await call(url, "POST", "/v1/nodes", {
    body: { name, driver: "redfish", resource_class: "gpu", driver_info: driverInfo },
  });
  expect(r.status).toBe(201);
  return r.json.uuid as string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const creds = () => ({ redfish_address: bmc.url, redfish_username: bmc.username, redfish_password: bmc.password });

describe("redfish driver against the lab BMC", () => {
  it("verifies on manage (power state, vendor, boot mode) and inspects CPUs, memory, disk and NIC ports", async () => {
    const uuid = await redfishNode("rf-1", creds());
    await provision(url, uuid, { target: "manage" });
    const managed = await settled(uuid);
    expect(managed).toMatchObject({
      provision_state: "manageable",
      power_state: "power off",
      boot_mode: "uefi",
      secure_boot: false,
    });
    expect(managed.properties.vendor).toBe("NVIDIA");

    await provision(url, uuid, { target: "inspect" });
    const inspected = await settled(uuid);
    expect(inspected.provision_state).toBe("manageable");
    const hw = [...dc.world.nodes.values()][0].spec.hardware;
    expect(inspected.properties).toMatchObject({
      cpus: hw.cpu.sockets * hw.cpu.coresPerSocket * 2,
      cpu_arch: "x86_64",
      memory_mb: String(hw.memory.dimms * hw.memory.dimmGiB * 1024),
      capabilities: "boot_mode:uefi",
    });
    expect(Number(inspected.properties.local_gb)).toBeGreaterThan(0);
    const ports = (await call(url, "GET", `/v1/nodes/${uuid}/ports?detail=true`)).json.ports;
    const macs = [...dc.world.nodes.values()][0].ports.map((p) => p.mac.toLowerCase());
    expect(ports.map((p: { address: string }) => p.address).sort()).toEqual([...macs].sort());

    // The inventory the redfish inspect interface stores (API 1.81, ironic/drivers/modules/redfish/inspect.py).
    const world = [...dc.world.nodes.values()][0];
    const inv = await call(url, "GET", `/v1/nodes/${uuid}/inventory`, { version: "1.81" });
    expect(inv.status).toBe(200);
    expect(inv.json.plugin_data).toEqual({});
    expect(inv.json.inventory).toMatchObject({
      memory: { physical_mb: hw.memory.dimms * hw.memory.dimmGiB * 1024 },
      cpu: { count: hw.cpu.sockets * hw.cpu.coresPerSocket * 2, model_name: hw.cpu.model, architecture: "x86_64" },
      system_vendor: { product_name: world.spec.name, serial_number: world.serial, manufacturer: hw.manufacturer },
      boot: { current_boot_mode: "uefi" },
    });
    expect(inv.json.inventory.interfaces.map((i: { mac_address: string }) => i.mac_address.toLowerCase())).toEqual(
      macs,
    );
    expect(inv.json.inventory.disks).toHaveLength(hw.disks.length);
    const old = await call(url, "GET", `/v1/nodes/${uuid}/inventory`, { version: "1.80" });
    expect(old.status).toBe(404);
  });

  it("powers the host on and off through Redfish Reset", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    const before = dc.requests.last();
    expect((await call(url, "PUT", `/v1/nodes/${uuid}/states/power`, { body: { target: "power on" } })).status).toBe(
      202,
    );
    expect((await settled(uuid)).power_state).toBe("power on");
    const sent = dc.requests.since(before).map((r) => `${r.method} ${r.path}`);
    expect(sent).toContain(
      `POST /redfish/v1/Systems/${[...dc.world.nodes.values()][0].systemId}/Actions/ComputerSystem.Reset`,
    );
    await call(url, "PUT", `/v1/nodes/${uuid}/states/power`, { body: { target: "power off" } });
    expect((await settled(uuid)).power_state).toBe("power off");
  });

  // Issue #14: with no [conductor] default, cleaning boots a ramdisk the node does not name, and fails as Ironic's
  // prepare_cleaning fails (redfish virtual media's MissingParameterValue), leaving the node in maintenance.
  it("fails automated cleaning of a node naming no deploy kernel/ramdisk (no conductor default): clean failed, maintenance", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    expect((await provision(url, uuid, { target: "provide" })).status).toBe(202);
    const failed = await until("cleaning to fail", async () => {
      const got = await node(url, uuid);
      return got.provision_state === "clean failed" && got.reservation === null ? got : undefined;
    });
    expect(failed).toMatchObject({
      provision_state: "clean failed",
      maintenance: true,
      fault: "clean failure",
      last_error:
        `Failed to prepare node ${uuid} for cleaning: Error validating Redfish virtual media. Some parameters were ` +
        "missing in node's driver_info. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
    });
    expect(failed.maintenance_reason).toBe(failed.last_error);
    // The way back: out of maintenance, manage, name the images, provide again.
    await call(url, "DELETE", `/v1/nodes/${uuid}/maintenance`);
    await provision(url, uuid, { target: "manage" });
    expect((await settled(uuid)).provision_state).toBe("manageable");
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "add", path: "/driver_info/deploy_kernel", value: `${dc.images.url}ipa.kernel` },
        { op: "add", path: "/driver_info/deploy_ramdisk", value: `${dc.images.url}ipa.initramfs` },
      ],
    });
    await provision(url, uuid, { target: "provide" });
    expect(await settled(uuid)).toMatchObject({ provision_state: "available", maintenance: false });
  });

  it("refuses to deploy without deploy_kernel/ramdisk and image_source, then deploys and tears down through the BMC", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "remove", path: "/driver_info/deploy_kernel" },
        { op: "remove", path: "/driver_info/deploy_ramdisk" },
      ],
    });
    const refused = await provision(url, uuid, { target: "active" });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.json.error_message).faultstring).toContain(
      "Missing are: ['deploy_kernel', 'deploy_ramdisk']",
    );
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "add", path: "/driver_info/deploy_kernel", value: `${dc.images.url}ipa.kernel` },
        { op: "add", path: "/driver_info/deploy_ramdisk", value: `${dc.images.url}ipa.initramfs` },
        { op: "add", path: "/instance_info/image_source", value: `${dc.images.url}ubuntu-gpu-2026.06.2.qcow2` },
        { op: "add", path: "/instance_info/image_os_hash_algo", value: "sha256" },
        { op: "add", path: "/instance_info/image_os_hash_value", value: sha256("ubuntu-gpu-2026.06.2") },
      ],
    });
    expect((await provision(url, uuid, { target: "active" })).status).toBe(202);
    expect(await settled(uuid)).toMatchObject({ provision_state: "active", power_state: "power on" });
    // The conductor checked the image (HEAD) and the ramdisk downloaded it (GET) from the image server.
    expect(
      dc.images.requests.filter((r) => r.path.endsWith("ubuntu-gpu-2026.06.2.qcow2")).map((r) => r.method),
    ).toEqual(["HEAD", "GET"]);
    await provision(url, uuid, { target: "deleted" });
    expect(await settled(uuid)).toMatchObject({ provision_state: "available", power_state: "power off" });
  });

  it("takes the deploy kernel/ramdisk from [conductor] defaults when driver_info names neither, never half from each", async () => {
    // As ironic.conf's [conductor]deploy_kernel / deploy_ramdisk: only when the node names neither image.
    const withDefaults = createIronicApi({
      bmc: redfishBmc({ caPem: readFileSync(caPath, "utf8") }),
      delays: { verifyMs: 0, inspectMs: 10, cleanMs: 10, deployMs: 10, deleteMs: 10, powerMs: 0 },
      conductor: { deployKernel: `${dc.images.url}ipa.kernel`, deployRamdisk: `${dc.images.url}ipa.initramfs` },
    });
    const s = await withDefaults.listen("127.0.0.1", 0);
    try {
      const other = dc.info.nodes[1].bmc;
      const mk = async (name: string, extra: Record<string, unknown>) =>
        (
          await call(s.url, "POST", "/v1/nodes", {
            body: {
              name,
              driver: "redfish",
              driver_info: { ...creds(), redfish_address: other.url, ...extra },
              instance_info: { image_source: `${dc.images.url}ubuntu-gpu-2026.06.2.qcow2` },
            },
          })
        ).json.uuid as string;
      const half = await mk("half", { deploy_kernel: "http://127.0.0.1/own.kernel" });
      expect((await call(s.url, "GET", `/v1/nodes/${half}/validate`)).json.deploy).toEqual({
        result: false,
        reason:
          "Error validating Redfish virtual media. Some parameters were missing in node's driver_info. Missing are: ['deploy_ramdisk']",
      });
      await call(s.url, "DELETE", `/v1/nodes/${half}`);
      const plain = await mk("plain", {});
      expect((await call(s.url, "GET", `/v1/nodes/${plain}/validate`)).json.deploy).toEqual({ result: true });
      for (const target of ["manage", "provide"]) {
        await provision(s.url, plain, { target });
        await until(target, async () => {
          const n = await node(s.url, plain);
          return n.target_provision_state === null ? n : undefined;
        });
      }
      expect((await provision(s.url, plain, { target: "active" })).status).toBe(202);
      const deployed = await until("deploy", async () => {
        const n = await node(s.url, plain);
        return n.target_provision_state === null ? n : undefined;
      });
      expect(deployed.provision_state).toBe("active");
      await provision(s.url, plain, { target: "deleted" });
      await until("tear down", async () => {
        const n = await node(s.url, plain);
        return n.target_provision_state === null && n.provision_state === "available" ? n : undefined;
      });
    } finally {
      withDefaults.stop();
      await s.close();
    }
  });

  it("fails a deploy whose host loses power while the image is written: deploy failed, never active on a host that is off", async () => {
    // The host goes off right after the deploy's reboot into the ramdisk (its outlet cut, or powered off by hand).
    const real = redfishBmc({ caPem: readFileSync(caPath, "utf8") });
    const host = [...dc.world.nodes.values()][1];
    const cutting = createIronicApi({
      bmc: {
        ...real,
        async setPower(info, target) {
          await real.setPower(info, target);
          if (target === "rebooting") dc.world.setHostPower(host, false);
        },
      },
      delays: { verifyMs: 0, inspectMs: 10, cleanMs: 10, deployMs: 10, deleteMs: 10, powerMs: 0 },
      conductor: { deployKernel: `${dc.images.url}ipa.kernel`, deployRamdisk: `${dc.images.url}ipa.initramfs` },
    });
    const s = await cutting.listen("127.0.0.1", 0);
    try {
      const uuid = (
        await call(s.url, "POST", "/v1/nodes", {
          body: {
            name: "cut",
            driver: "redfish",
            driver_info: { ...creds(), redfish_address: dc.info.nodes[1].bmc.url },
            instance_info: { image_source: `${dc.images.url}ubuntu-gpu-2026.06.2.qcow2` },
          },
        })
      ).json.uuid as string;
      for (const target of ["manage", "provide"]) {
        await provision(s.url, uuid, { target });
        await until(target, async () => ((await node(s.url, uuid)).target_provision_state === null ? true : undefined));
      }
      expect((await provision(s.url, uuid, { target: "active" })).status).toBe(202);
      const n = await until("the deploy to end", async () => {
        const got = await node(s.url, uuid);
        return got.target_provision_state !== "active" || got.reservation === null ? got : undefined;
      });
      expect(n.provision_state).toBe("deploy failed");
      expect(n.last_error).toBe(
        `Deploy step deploy.write_image failed on node ${uuid}. Agent lost: the node powered off while the image was being written.`,
      );
    } finally {
      cutting.stop();
      await s.close();
    }
  });

  it("refuses a deploy whose image_source answers 404 with Ironic's own validation error, and changes nothing", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    const missing = `${dc.images.url}ubuntu-gpu-missing.img`;
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "add", path: "/driver_info/deploy_kernel", value: `${dc.images.url}ipa.kernel` },
        { op: "add", path: "/driver_info/deploy_ramdisk", value: `${dc.images.url}ipa.initramfs` },
        { op: "add", path: "/instance_info/image_source", value: missing },
      ],
    });
    const refused = await provision(url, uuid, { target: "active" });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.json.error_message).faultstring).toBe(
      `RPC do_node_deploy failed to validate deploy or power info for node ${uuid}. Error: Validation of image ` +
        `href ${missing} failed, reason: Got HTTP code 404 instead of 200 in response to HEAD request.`,
    );
    expect(await settled(uuid)).toMatchObject({ provision_state: "available" });
  });

  it("fails the deploy when the downloaded image does not match image_os_hash_value, with IPA's checksum error", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    const file = "ubuntu-gpu-2026.06.9.qcow2";
    dc.images.put(file, "a different build");
    const wanted = sha256("ubuntu-gpu-2026.06.9");
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "add", path: "/instance_info/image_source", value: `${dc.images.url}${file}` },
        { op: "add", path: "/instance_info/image_os_hash_algo", value: "sha256" },
        { op: "add", path: "/instance_info/image_os_hash_value", value: wanted },
      ],
    });
    expect((await provision(url, uuid, { target: "active" })).status).toBe(202);
    const n = await until("the deploy to fail", async () => {
      const got = await node(url, uuid);
      return got.provision_state === "deploy failed" && got.reservation === null ? got : undefined;
    });
    expect(n.last_error).toBe(
      `Deploy step deploy.write_image failed on node ${uuid}. Image failed to verify against checksum. location: ` +
        `${file}; image ID: /dev/sda; image checksum: ${wanted}; verification checksum: ${sha256("a different build")}`,
    );
    // Tear-down from deploy failed returns the node to available, as in Ironic.
    await provision(url, uuid, { target: "deleted" });
    expect((await settled(uuid)).provision_state).toBe("available");
  });

  // Issue #14 G: the ramdisk is fetched as redfish-virtual-media's prepare_ramdisk fetches it (image cache: HEAD, then
  // GET once), and a deploy or cleaning whose ramdisk cannot be fetched fails as do_node_deploy / do_node_clean fail.
  it("boots the deploy ramdisk to clean: fetched once, host on in clean wait, then off and available", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    const world = [...dc.world.nodes.values()][0];
    const fetched = () =>
      dc.images.requests.filter((r) => /ipa\.(kernel|initramfs)$/.test(r.path)).map((r) => `${r.method} ${r.path}`);
    const before = fetched().length;
    expect((await provision(url, uuid, { target: "manage" })).status).toBe(202);
    await settled(uuid);
    expect((await provision(url, uuid, { target: "provide" })).status).toBe(202);
    const seen = new Set<string>();
    const done = await until("cleaning to finish", async () => {
      const n = await node(url, uuid);
      seen.add(n.provision_state);
      return n.provision_state === "available" && n.reservation === null ? n : undefined;
    });
    expect(done.power_state).toBe("power off");
    expect(world.lastBootSource).toBe("Cd");
    // The kernel and ramdisk were already in the conductor's cache from the deploy: only show()'s HEADs now.
    expect(
      fetched()
        .slice(before)
        .map((x) => x.split(" ")[0]),
    ).toEqual(["HEAD", "HEAD"]);
    expect([...seen].every((s) => ["manageable", "cleaning", "clean wait", "available"].includes(s))).toBe(true);
  });

  it("fails a deploy whose deploy_ramdisk answers 404 with do_node_deploy's 'Failed to prepare to deploy'", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    const gone = `${dc.images.url}ipa-missing.initramfs`;
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "add", path: "/driver_info/deploy_ramdisk", value: gone },
        { op: "add", path: "/instance_info/image_source", value: `${dc.images.url}ubuntu-gpu-2026.06.2.qcow2` },
      ],
    });
    expect((await provision(url, uuid, { target: "active" })).status).toBe(202);
    const n = await until("the deploy to fail", async () => {
      const got = await node(url, uuid);
      return got.provision_state === "deploy failed" && got.reservation === null ? got : undefined;
    });
    expect(n.last_error).toBe(
      `Failed to prepare to deploy: Validation of image href ${gone} failed, reason: Got HTTP code 404 instead of ` +
        "200 in response to HEAD request.",
    );
    expect(n.deploy_step).toEqual({});
  });

  it("fails automated cleaning whose deploy_kernel cannot be reached: clean failed, maintenance, Ironic's reason", async () => {
    const uuid = ironic.node("rf-1")?.uuid as string;
    const port = await freePort();
    const refused = `http://127.0.0.1:${port}/ipa.kernel`;
    await call(url, "PATCH", `/v1/nodes/${uuid}`, {
      body: [
        { op: "add", path: "/driver_info/deploy_kernel", value: refused },
        { op: "add", path: "/driver_info/deploy_ramdisk", value: `${dc.images.url}ipa.initramfs` },
      ],
    });
    await provision(url, uuid, { target: "deleted" });
    const n = await until("cleaning to fail", async () => {
      const got = await node(url, uuid);
      return got.provision_state === "clean failed" && got.reservation === null ? got : undefined;
    });
    expect(n).toMatchObject({ maintenance: true, fault: "clean failure" });
    expect(n.last_error).toBe(
      `Failed to prepare node ${uuid} for cleaning: Validation of image href ${refused} failed, reason: ` +
        `HTTPConnectionPool(host='127.0.0.1', port=${port}): Max retries exceeded with url: /ipa.kernel (Caused by ` +
        "NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))",
    );
  });

  it("fails verification of an unreachable BMC back to enroll with last_error", async () => {
    const uuid = await redfishNode("rf-gone", { ...creds(), redfish_address: "https://127.0.0.1:1" });
    await provision(url, uuid, { target: "manage" });
    const n = await settled(uuid);
    expect(n.provision_state).toBe("enroll");
    expect(n.last_error).toMatch(/^Failed to get power state for node .*Unable to connect to https:\/\/127\.0\.0\.1:1/);
  });

  it("checks the BMC certificate: an untrusted CA fails, redfish_verify_ca with the CA file succeeds", async () => {
    const strict = createIronicApi({ bmc: redfishBmc(), delays: { verifyMs: 0 } });
    const s = await strict.listen("127.0.0.1", 0);
    try {
      const mk = async (name: string, extra: Record<string, unknown>) =>
        (
          await call(s.url, "POST", "/v1/nodes", {
            body: { name, driver: "redfish", driver_info: { ...creds(), ...extra } },
          })
        ).json.uuid;
      const a = await mk("untrusted", {});
      const b = await mk("trusted", { redfish_verify_ca: caPath });
      await provision(s.url, a, { target: "manage" });
      await provision(s.url, b, { target: "manage" });
      const wait = (u: string) =>
        until("verification", async () => {
          const n = await node(s.url, u);
          return n.target_provision_state === null ? n : undefined;
        });
      expect((await wait(a)).provision_state).toBe("enroll");
      expect((await wait(b)).provision_state).toBe("manageable");
    } finally {
      await s.close();
    }
  });
});
