/**
 * The lab warewulfd's replies checked against the real server's JSON shapes: every key of every object must be a json
 * tag of the Go struct warewulfd marshals there, with a value of that field's type (test/fixtures/warewulf/json-tags.json,
 * taken from Warewulf v4.7.0's source). The real warewulfd cannot be built here (the Go module proxy refuses the
 * module; see src/lab/warewulf/README.md), so this is the lab's check against the server's own types.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../../src/lab/index.js";

type Tags = Record<string, Record<string, string>>;
let tags: Tags;
let lab: Lab;
let stateDir: string;
let auth: string;
let base: string;

/** Problems of `v` against struct `kind` (paths with the offending key or value). */
function problems(v: unknown, kind: string, at = "$"): string[] {
  const t = tags[kind];
  if (v === null || typeof v !== "object" || Array.isArray(v)) return [`${at}: not an object for ${kind}`];
  const out: string[] = [];
  for (const [k, val] of Object.entries(v)) {
    const type = t[k];
    if (!type) {
      out.push(`${at}.${k}: no json tag "${k}" in ${kind}`);
      continue;
    }
    out.push(...typed(val, type, `${at}.${k}`));
  }
  return out;
}

function typed(val: unknown, type: string, at: string): string[] {
  if (type === "string") return typeof val === "string" ? [] : [`${at}: not a string`];
  if (type === "bool") return typeof val === "boolean" ? [] : [`${at}: not a bool`];
  if (type === "int64") return Number.isInteger(val) ? [] : [`${at}: not an integer`];
  if (type === "[]string") {
    return Array.isArray(val) && val.every((x) => typeof x === "string") ? [] : [`${at}: not a string list`];
  }
  if (type.startsWith("map:")) {
    if (val === null || typeof val !== "object" || Array.isArray(val)) return [`${at}: not a map`];
    const inner = type.slice(4);
    if (inner === "object") return [];
    return Object.entries(val).flatMap(([k, x]) =>
      inner === "string" ? typed(x, "string", `${at}[${k}]`) : problems(x, inner, `${at}[${k}]`),
    );
  }
  return problems(val, type, at);
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

beforeAll(async () => {
  tags = JSON.parse(await readFile(join(import.meta.dirname, "../../fixtures/warewulf/json-tags.json"), "utf8"));
  stateDir = await mkdtemp(join(tmpdir(), "rf-warewulf-shapes-"));
  lab = await startLab({ nodes: 1, profile: "instant", stateDir });
  const w = lab.info.warewulf!;
  base = w.url;
  auth = `Basic ${Buffer.from(`${w.username}:${w.password}`).toString("base64")}`;
});
afterAll(async () => {
  await lab?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe("the lab warewulfd's JSON against warewulfd's Go types", () => {
  it("answers nodes, images, overlays, status and errors only with fields the real structs have", async () => {
    const n = lab.info.nodes[0];
    const mac = lab.world.node(n.name)!.ports[0].mac;
    expect((await call("POST", "/api/images/rocky-9/import", { uri: "docker://r/rocky:9" })).status).toBe(200);
    const built = await call("POST", "/api/images/rocky-9/build");
    expect(problems(built.json, "image")).toEqual([]);
    const node = {
      profiles: ["default"],
      "image name": "rocky-9",
      kernel: { args: ["quiet", "crashkernel=no"] },
      ipmi: {
        username: "admin",
        password: "x",
        ipaddr: "127.10.1.1",
        port: "8443",
        tags: { redfish_address: n.bmc.url },
      },
      "network devices": { default: { hwaddr: mac, ipaddr: "10.0.0.5", netmask: "255.255.255.0" } },
      "system overlay": ["wwinit"],
      "runtime overlay": ["hostname"],
      tags: { rack: "r1" },
      "primary network": "default",
    };
    expect(problems(node, "node")).toEqual([]);
    const put = await call("PUT", `/api/nodes/${n.name}`, { node }, { "if-none-match": "*" });
    expect(put.status).toBe(200);
    expect(problems(put.json, "node")).toEqual([]);
    for (const path of [`/api/nodes/${n.name}`, `/api/nodes/${n.name}/raw`]) {
      expect(problems((await call("GET", path)).json, "node", path)).toEqual([]);
    }
    const list = (await call("GET", "/api/nodes/")).json as Record<string, unknown>;
    expect(Object.entries(list).flatMap(([k, v]) => problems(v, "node", k))).toEqual([]);
    expect(problems((await call("GET", `/api/nodes/${n.name}/overlays`)).json, "nodeOverlays")).toEqual([]);
    const images = (await call("GET", "/api/images")).json as Record<string, unknown>;
    expect(Object.entries(images).flatMap(([k, v]) => problems(v, "image", k))).toEqual([]);
    const overlays = (await call("GET", "/api/overlays/")).json as Record<string, unknown>;
    expect(Object.entries(overlays).flatMap(([k, v]) => problems(v, "overlay", k))).toEqual([]);
    lab.world.setOutlet(n.pdu, n.outlet, "On");
    lab.world.setHostPower(lab.world.node(n.name)!, true);
    const status = (await call("GET", "/status")).json;
    expect(problems(status, "statusDocument")).toEqual([]);
    expect((status as { nodes: Record<string, { stage: string }> }).nodes[n.name].stage).toBe("runtime");
    const refused = await call("PUT", `/api/nodes/${n.name}`, { node }, { "if-none-match": "*" });
    expect(refused).toMatchObject({ status: 400, json: { status: "INVALID_ARGUMENT" } });
    expect(problems(refused.json, "error")).toEqual([]);
    const missing = await call("GET", "/api/nodes/absent");
    expect(missing.status).toBe(404);
    expect(problems(missing.json, "error")).toEqual([]);
  });
});
