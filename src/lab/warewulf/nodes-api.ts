/** /api/nodes of the lab warewulfd (internal/pkg/warewulfd/api/node.go of Warewulf 4.7). */
import { type ApiError, internal, invalid, member, notFound, type Req } from "./http.js";
import { compact, type Fields, mergeOverwrite, type WarewulfStore } from "./store.js";

/** The result of a route: status 200 and a JSON body, or an error. */
export type Routed = { readonly body: unknown } | ApiError | undefined;

/** The references addNode/updateNode check before writing: profiles, image and overlays must exist. */
export function checkRefs(store: WarewulfStore, f: Fields): void {
  for (const p of (f.profiles as string[] | undefined) ?? []) {
    if (!store.profiles.has(p)) throw invalid(`profile '${p}' does not exist`);
  }
  const image = f["image name"];
  if (typeof image === "string" && image !== "" && !store.images.has(image)) {
    throw invalid(`image '${image}' does not exist`);
  }
  for (const k of ["system overlay", "runtime overlay"]) {
    for (const o of (f[k] as string[] | undefined) ?? []) {
      if (!store.overlays.has(o.replace(/^~/, ""))) throw invalid(`overlay '${o}' does not exist`);
    }
  }
}

/** Routes /api/nodes/…; `parts` are the segments after /api/nodes. */
export function nodesRoute(store: WarewulfStore, req: Req, reload: () => void): Routed {
  const [id, sub, sub2] = req.parts;
  const m = req.method;
  if (id === undefined || id === "") {
    if (m !== "GET") return undefined;
    const out: Record<string, Fields> = {};
    for (const n of [...store.nodes.keys()].sort()) out[n] = store.merged(n) ?? {};
    return { body: out };
  }
  if (id === "overlays" && sub === "build" && m === "POST") {
    return { body: [...store.nodes.keys()].sort() };
  }
  if (sub === undefined) {
    if (m === "GET") {
      const n = store.merged(id);
      return n ? { body: n } : notFound(`node not found: ${id} (node/profile not found)`);
    }
    if (m === "PUT") {
      const f = member(req, "node");
      if (req.headers["if-none-match"] === "*" && store.nodes.has(id)) {
        return invalid(`node '${id}' already exists`);
      }
      checkRefs(store, f);
      store.nodes.set(id, compact(structuredClone(f)));
      reload();
      return { body: store.nodes.get(id) };
    }
    if (m === "PATCH") {
      const f = member(req, "node");
      checkRefs(store, f);
      const prior = store.nodes.get(id);
      if (!prior) return notFound("node/profile not found");
      store.nodes.set(id, compact(mergeOverwrite(prior, f)));
      reload();
      return { body: store.nodes.get(id) };
    }
    if (m === "DELETE") {
      const prior = store.nodes.get(id);
      if (!prior) return internal(`nodename does not exist: ${id}`);
      store.nodes.delete(id);
      reload();
      return { body: prior };
    }
    return undefined;
  }
  if (sub === "raw" && sub2 === undefined && m === "GET") {
    const n = store.nodes.get(id);
    return n ? { body: n } : notFound(`node not found: ${id}`);
  }
  if (sub === "overlays" && sub2 === undefined && m === "GET") {
    const n = store.merged(id);
    if (!n) return notFound("node/profile not found");
    return {
      body: {
        "system overlay": { overlays: n["system overlay"] ?? [] },
        "runtime overlay": { overlays: n["runtime overlay"] ?? [] },
      },
    };
  }
  if (sub === "overlays" && sub2 === "build" && m === "POST") {
    return store.nodes.has(id) ? { body: id } : notFound("node/profile not found");
  }
  if (sub === "fields" && sub2 === undefined && m === "GET") {
    const n = store.merged(id);
    if (!n) return notFound(`node not found: ${id} (node/profile not found)`);
    return { body: Object.entries(n).map(([field, value]) => ({ field, source: "", value: JSON.stringify(value) })) };
  }
  return undefined;
}
