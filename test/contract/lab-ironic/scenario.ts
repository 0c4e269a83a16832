// One scenario, run unchanged against any Ironic base URL (the lab's or Debian's real 21.4) with a fake-hardware node.
import { randomUUID } from "node:crypto";
import { call, type Res } from "../../integration/lab-ironic/support.js";

const MV = "1.82";

/** Decodes Ironic's doubly-encoded error body. */
export function decodeError(c: Res): Record<string, unknown> {
  return JSON.parse(c.json.error_message) as Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PUT a provision target, then poll until the node settles; returns the status and the distinct states seen. */
async function walk(
  base: string,
  uuid: string,
  body?: Record<string, unknown>,
): Promise<{ status: number; states: string[] }> {
  const put = body ? await call(base, "PUT", `/v1/nodes/${uuid}/states/provision`, { body: body }) : { status: 0 };
  const seen: string[] = [];
  for (let i = 0; i < 200; i++) {
    const n = (await call(base, "GET", `/v1/nodes/${uuid}?fields=provision_state,target_provision_state`)).json;
    const s = String(n.provision_state);
    if (seen[seen.length - 1] !== s) seen.push(s);
    if (n.target_provision_state === null || s.endsWith("failed")) break;
    await sleep(40);
  }
  return { status: put.status, states: seen };
}

/** Everything the two implementations must agree on, with run-specific ids replaced by placeholders. */
export async function runScenario(base: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const root = (await call(base, "GET", "/", { version: null })).json;
  out.versions = { min: root.default_version.min_version, max: root.default_version.version };

  const name = `parity-${randomUUID().slice(0, 8)}`;
  const created = await call(base, "POST", "/v1/nodes", {
    body: {
      name,
      driver: "fake-hardware",
      resource_class: "gpu",
      driver_info: { fake_password: "s3cret" },
    },
  });
  const uuid = created.json.uuid as string;
  const scrub = (v: unknown) => JSON.parse(JSON.stringify(v).split(uuid).join("<node>").split(name).join("<name>"));
  out.create = scrub({
    status: created.status,
    state: created.json.provision_state,
    keys: Object.keys(created.json).sort(),
    masked: created.json.driver_info,
    versionHeader: created.headers.get("x-openstack-ironic-api-version"),
  });

  const missing = randomUUID();
  const e404 = await call(base, "GET", `/v1/nodes/${missing}`);
  out.unknownNode = {
    status: e404.status,
    error: JSON.parse(JSON.stringify(decodeError(e404)).split(missing).join("<missing>")),
  };
  const illegal = await call(base, "PUT", `/v1/nodes/${uuid}/states/provision`, { body: { target: "active" } });
  out.illegal = scrub({ status: illegal.status, error: decodeError(illegal) });
  const e406 = await call(base, "GET", "/v1/nodes", { version: "99.99" });
  out.badVersion = {
    status: e406.status,
    error: decodeError(e406),
    max: e406.headers.get("x-openstack-ironic-api-maximum-version"),
  };
  const badJson = await call(base, "POST", "/v1/nodes", { version: MV, raw: "{bad" });
  out.badJson = { status: badJson.status, error: decodeError(badJson) };
  for (const [key, method, path] of [
    ["unknownPath", "GET", "/v1/nope"],
    ["wrongMethod", "PUT", "/v1/nodes"],
    ["badFilter", "GET", "/v1/nodes?provision_state=bogus"],
    ["fieldsAndDetail", "GET", "/v1/nodes?fields=uuid&detail=true"],
  ]) {
    const r = await call(base, method, path);
    out[key] = { status: r.status, error: decodeError(r) };
  }
  const noDriver = await call(base, "POST", "/v1/nodes", { body: { name: "x" } });
  out.noDriver = { status: noDriver.status, error: decodeError(noDriver) };

  out.manage = await walk(base, uuid, { target: "manage" });
  out.inspect = await walk(base, uuid, { target: "inspect" });
  out.provide = await walk(base, uuid, { target: "provide" });
  out.maintenanceOff = (await call(base, "DELETE", `/v1/nodes/${uuid}/maintenance`)).status;
  out.extras = scrub(await extras(base, uuid, name));
  // Deploying holds the node's lock (real fake-hardware with [fake]deploy_delay = 1): an undeploy sent at once is
  // refused with 409.
  const deploy = await call(base, "PUT", `/v1/nodes/${uuid}/states/provision`, { body: { target: "active" } });
  const locked = await call(base, "PUT", `/v1/nodes/${uuid}/states/provision`, { body: { target: "deleted" } });
  out.locked = scrub({ deploy: deploy.status, status: locked.status, error: decodeError(locked) });
  const settled = await walk(base, uuid);
  out.activeSettled = settled.states[settled.states.length - 1];
  const del = await call(base, "DELETE", `/v1/nodes/${uuid}`);
  // The instance is the allocation's uuid, different on each side.
  const anyUuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  out.deleteActive = JSON.parse(
    JSON.stringify(scrub({ status: del.status, error: decodeError(del) })).replace(anyUuid, "<uuid>"),
  );
  out.rebuild = await walk(base, uuid, { target: "rebuild" });
  out.undeploy = await walk(base, uuid, { target: "deleted" });
  const gone = await call(base, "GET", `/v1/allocations/${name}-alloc`);
  out.allocationAfterUndeploy = scrub({ status: gone.status, error: decodeError(gone) });
  out.manage2 = await walk(base, uuid, { target: "manage" });
  out.cleanUnsupported = await walk(base, uuid, {
    target: "clean",
    clean_steps: [{ interface: "deploy", step: "erase_devices" }],
  });
  const failed = (await call(base, "GET", `/v1/nodes/${uuid}`)).json;
  out.cleanFailed = scrub({
    state: failed.provision_state,
    target: failed.target_provision_state,
    last_error: failed.last_error,
  });
  out.recover = await walk(base, uuid, { target: "manage" });
  out.deleteNode = (await call(base, "DELETE", `/v1/nodes/${uuid}`)).status;
  return out;
}

/**
 * A call the real conductor may answer 409 NodeLocked while a periodic task (power sync) holds the node: asked again,
 * as a client would, until the lock is gone (the lab holds no such lock, so it answers the first time).
 */
async function unlocked(...args: Parameters<typeof call>): Promise<Res> {
  for (let i = 0; ; i++) {
    const r = await call(...args);
    const locked = r.status === 409 && /locked/i.test(String(r.json?.error_message ?? ""));
    if (!locked || i >= 100) return r;
    await sleep(100);
  }
}

/** Power, ports, allocation and patch checks on an available node (leaves it allocated with an image set). */
async function extras(base: string, uuid: string, name: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  out.powerOn = (await call(base, "PUT", `/v1/nodes/${uuid}/states/power`, { body: { target: "power on" } })).status;
  for (let i = 0; i < 100; i++) {
    const n = (await call(base, "GET", `/v1/nodes/${uuid}/states`)).json;
    out.power = { power_state: n.power_state, target_power_state: n.target_power_state, keys: Object.keys(n) };
    if (n.target_power_state === null && n.power_state === "power on") break;
    await sleep(40);
  }
  const mac = `52:54:00:${randomUUID().slice(0, 6).match(/../g)?.join(":")}`;
  const port = await unlocked(base, "POST", "/v1/ports", { body: { node_uuid: uuid, address: mac.toUpperCase() } });
  out.port = { status: port.status, address: port.json.address === mac, keys: Object.keys(port.json) };
  const dup = await unlocked(base, "POST", "/v1/ports", { body: { node_uuid: uuid, address: mac } });
  out.dupPort = { status: dup.status, error: JSON.parse(JSON.stringify(decodeError(dup)).split(mac).join("<mac>")) };
  const badMac = await call(base, "POST", "/v1/ports", { body: { node_uuid: uuid, address: "zz" } });
  out.badMac = { status: badMac.status, error: decodeError(badMac) };
  const listed = await call(base, "GET", `/v1/ports?node=${uuid}`);
  out.portList = listed.json.ports.map((p: Record<string, unknown>) => Object.keys(p));
  const badPatch = await call(base, "PATCH", `/v1/nodes/${uuid}`, {
    body: [{ op: "replace", path: "/uuid", value: "x" }],
  });
  out.badPatch = { status: badPatch.status, error: decodeError(badPatch) };
  const okPatch = await call(base, "PATCH", `/v1/nodes/${uuid}`, {
    body: [
      { op: "add", path: "/instance_info/image_source", value: "http://127.0.0.1/img.qcow2" },
      { op: "add", path: "/extra/rack", value: "r1" },
    ],
  });
  out.patch = { status: okPatch.status, instance_info: okPatch.json.instance_info, extra: okPatch.json.extra };
  const alloc = await call(base, "POST", "/v1/allocations", {
    body: {
      resource_class: "gpu",
      name: `${name}-alloc`,
      candidate_nodes: [uuid],
    },
  });
  out.allocationCreate = { status: alloc.status, state: alloc.json.state, node: alloc.json.node_uuid };
  for (let i = 0; i < 100; i++) {
    const a = (await call(base, "GET", `/v1/allocations/${name}-alloc`)).json;
    out.allocation = { state: a.state, node: a.node_uuid, last_error: a.last_error };
    if (a.state !== "allocating") break;
    await sleep(40);
  }
  const n = (await call(base, "GET", `/v1/nodes/${uuid}?fields=instance_uuid,allocation_uuid`)).json;
  out.nodeAllocated = { same: n.instance_uuid !== null && n.instance_uuid === n.allocation_uuid };
  const missingAlloc = await call(base, "POST", "/v1/allocations", { body: { resource_class: "no-such-class" } });
  for (let i = 0; i < 100; i++) {
    const a = (await call(base, "GET", `/v1/allocations/${missingAlloc.json.uuid}`)).json;
    out.allocationError = { state: a.state, last_error: String(a.last_error).split(a.uuid).join("<alloc>") };
    if (a.state !== "allocating") break;
    await sleep(40);
  }
  return out;
}
