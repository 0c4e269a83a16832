/**
 * The lab warewulfd's registry (nodes.conf in memory): nodes and profiles as the JSON of Warewulf's node.Node /
 * node.Profile structs, images and overlays by name. Merging follows warewulfd: GET /api/nodes/{id} returns the node
 * with its profiles' fields under its own; PATCH is mergo.MergeWithOverwrite (non-empty fields overwrite, maps merge).
 */

/** A node's or profile's fields, as JSON (keys as warewulfd writes them: "image name", "network devices", …). */
export type Fields = Record<string, unknown>;

/** An image of the lab (api.Image, plus where it was imported from). */
export interface LabImage {
  readonly uri: string;
  kernels: string[];
  size: number;
  /** Unix seconds of the last build; 0 until built. */
  buildtime: number;
}

/** Overlays a Warewulf 4.7 installation ships (the distribution overlays of /usr/share/warewulf/overlays). */
export const DISTRIBUTION_OVERLAYS = [
  "NetworkManager",
  "debian.interfaces",
  "debug",
  "fstab",
  "hostname",
  "hosts",
  "ifcfg",
  "ignition",
  "issue",
  "resolv",
  "ssh.authorized_keys",
  "ssh.host_keys",
  "syncuser",
  "systemd.netname",
  "udev.netname",
  "wicked",
  "wwclient",
  "wwinit",
] as const;

const isObj = (v: unknown): v is Fields => v !== null && typeof v === "object" && !Array.isArray(v);

/** True for what mergo counts as empty (skipped by MergeWithOverwrite). */
function empty(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === "" ||
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (isObj(v) && Object.keys(v).length === 0)
  );
}

/** mergo.MergeWithOverwrite: non-empty values of `src` overwrite `dst`; nested objects merge; lists are replaced. */
export function mergeOverwrite(dst: Fields, src: Fields): Fields {
  const out: Fields = { ...dst };
  for (const [k, v] of Object.entries(src)) {
    if (empty(v)) continue;
    out[k] = isObj(v) && isObj(out[k]) ? mergeOverwrite(out[k] as Fields, v) : structuredClone(v);
  }
  return out;
}

/** Fields without empty values (what warewulfd's omitempty JSON shows). */
export function compact(f: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(f)) {
    const c = isObj(v) ? compact(v) : v;
    if (!empty(c)) out[k] = c;
  }
  return out;
}

/** The registry. */
export class WarewulfStore {
  readonly nodes = new Map<string, Fields>();
  readonly profiles = new Map<string, Fields>([["default", {}]]);
  readonly images = new Map<string, LabImage>();
  readonly overlays = new Set<string>(DISTRIBUTION_OVERLAYS);
  /** The distribution overlays (site = false; they cannot be deleted). */
  readonly distribution: ReadonlySet<string> = new Set<string>(DISTRIBUTION_OVERLAYS);
  /** Bumped on every write (warewulfd.Reload()): the status map is rebuilt from the node list. */
  generation = 0;

  /** The node with its profiles' fields merged under its own (node.MergeNode); undefined when absent. */
  merged(id: string): Fields | undefined {
    const raw = this.nodes.get(id);
    if (!raw) return undefined;
    let out: Fields = {};
    const overlays: Record<string, string[]> = { "system overlay": [], "runtime overlay": [] };
    const names = Array.isArray(raw.profiles) ? (raw.profiles as string[]) : [];
    for (const p of names) {
      const prof = this.profiles.get(p) ?? {};
      const { profiles: _ignored, ...rest } = prof;
      out = mergeOverwrite(out, rest);
      for (const k of Object.keys(overlays)) overlays[k].push(...((prof[k] as string[] | undefined) ?? []));
    }
    out = mergeOverwrite(out, raw);
    // Overlay lists accumulate across profiles and the node (a "~name" entry removes one), as in Warewulf 4.6+.
    for (const k of Object.keys(overlays)) {
      const all = [...overlays[k], ...((raw[k] as string[] | undefined) ?? [])];
      const removed = new Set(all.filter((o) => o.startsWith("~")).map((o) => o.slice(1)));
      const kept = [...new Set(all.filter((o) => !o.startsWith("~") && !removed.has(o)))];
      if (kept.length) out[k] = kept;
      else delete out[k];
    }
    return compact(out);
  }

  /** Lower-case MACs of a merged node's network devices. */
  macsOf(id: string): string[] {
    const devs = this.merged(id)?.["network devices"];
    if (!isObj(devs)) return [];
    return Object.values(devs)
      .map((d) => (isObj(d) && typeof d.hwaddr === "string" ? d.hwaddr.toLowerCase() : ""))
      .filter((m) => m !== "");
  }
}
