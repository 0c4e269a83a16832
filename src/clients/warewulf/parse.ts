/** Parsing of warewulfd responses into the client's types; a missing required shape is RACKFORM_ERR_WAREWULF_BAD_PAYLOAD. */
import { WarewulfError } from "./errors.js";
import type { WarewulfImage, WarewulfNode, WarewulfNodeFields, WarewulfNodeStatus, WarewulfStatus } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

function bad(what: string): WarewulfError {
  return new WarewulfError("RACKFORM_ERR_WAREWULF_BAD_PAYLOAD", `warewulfd answered ${what}`);
}

/** Lower-case MACs of a node's network devices, sorted. */
export function macsOf(fields: WarewulfNodeFields): string[] {
  const devs = isObj(fields["network devices"]) ? Object.values(fields["network devices"]) : [];
  const macs = devs
    .map((d) => (isObj(d) && typeof d.hwaddr === "string" ? d.hwaddr.trim().toLowerCase().replaceAll("-", ":") : ""))
    .filter((m) => m !== "");
  return [...new Set(macs)].sort();
}

/** A node object (GET /api/nodes/{id}, PUT/PATCH answers). */
export function parseNode(id: string, v: unknown): WarewulfNode {
  if (!isObj(v)) throw bad(`node ${id} as ${typeof v}, not an object`);
  const fields = v as WarewulfNodeFields;
  return { id, fields, macs: macsOf(fields) };
}

/** GET /api/nodes/: a map of node id to node. */
export function parseNodeMap(v: unknown): WarewulfNode[] {
  if (v === null) return [];
  if (!isObj(v)) throw bad("a node list that is not a map of node ids");
  return Object.entries(v)
    .map(([id, n]) => parseNode(id, n))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** GET /api/images/{name}. */
export function parseImage(name: string, v: unknown): WarewulfImage {
  if (!isObj(v)) throw bad(`image ${name} as ${typeof v}, not an object`);
  return {
    name,
    kernels: Array.isArray(v.kernels) ? v.kernels.filter((k): k is string => typeof k === "string") : [],
    size: typeof v.size === "number" ? v.size : 0,
    buildtime: typeof v.buildtime === "number" ? v.buildtime : 0,
    writable: v.writable === true,
  };
}

/** GET /status: `{"nodes": {id: {"node name", "stage", "sent", "ipaddr", "last seen"}}}`, and the Date header. */
export function parseStatus(v: unknown, date: string | undefined): WarewulfStatus {
  if (!isObj(v) || !(isObj(v.nodes) || v.nodes === null)) throw bad("a /status document without its nodes map");
  const nodes = new Map<string, WarewulfNodeStatus>();
  for (const [id, s] of Object.entries(isObj(v.nodes) ? v.nodes : {})) {
    if (!isObj(s)) continue;
    nodes.set(id, {
      node: typeof s["node name"] === "string" && s["node name"] ? s["node name"] : id,
      stage: typeof s.stage === "string" ? s.stage : "",
      sent: typeof s.sent === "string" ? s.sent : "",
      ipaddr: typeof s.ipaddr === "string" ? s.ipaddr : "",
      lastSeen: typeof s["last seen"] === "number" ? s["last seen"] : 0,
    });
  }
  const ms = date ? Date.parse(date) : Number.NaN;
  return { nodes, serverTime: Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined };
}
