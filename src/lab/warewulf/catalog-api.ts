/** /api/profiles, /api/images and /api/overlays of the lab warewulfd (profile.go, image.go, overlay.go of 4.7). */
import { ApiError, bodyObject, invalid, member, notFound, type Req } from "./http.js";
import { checkRefs, type Routed } from "./nodes-api.js";
import { compact, type Fields, type LabImage, mergeOverwrite, type WarewulfStore } from "./store.js";

/** Routes /api/profiles/…. */
export function profilesRoute(store: WarewulfStore, req: Req, reload: () => void): Routed {
  const [id, sub] = req.parts;
  const m = req.method;
  if (sub !== undefined) return undefined;
  if (!id) {
    if (m !== "GET") return undefined;
    return { body: Object.fromEntries([...store.profiles.entries()].sort(([a], [b]) => a.localeCompare(b))) };
  }
  if (m === "GET") {
    const p = store.profiles.get(id);
    return p ? { body: p } : notFound(`profile not found: ${id} (node/profile not found)`);
  }
  if (m === "PUT") {
    const f = member(req, "profile");
    if (req.headers["if-none-match"] === "*" && store.profiles.has(id)) {
      return invalid(`profile '${id}' already exists`);
    }
    checkRefs(store, f);
    store.profiles.set(id, compact(structuredClone(f)));
    reload();
    return { body: store.profiles.get(id) };
  }
  if (m === "PATCH") {
    const f = member(req, "profile");
    checkRefs(store, f);
    const prior = store.profiles.get(id);
    if (!prior) return notFound("node/profile not found");
    store.profiles.set(id, compact(mergeOverwrite(prior, f)));
    reload();
    return { body: store.profiles.get(id) };
  }
  if (m === "DELETE") {
    const users = [...store.nodes.values()].filter((n) => ((n.profiles as string[]) ?? []).includes(id)).length;
    if (users > 0) return invalid(`profile '${id}' is in use by ${users} nodes and 0 profiles`);
    const prior = store.profiles.get(id);
    if (!prior) return notFound("node/profile not found");
    store.profiles.delete(id);
    reload();
    return { body: prior };
  }
  return undefined;
}

const VALID_NAME = /^[\w\-.:]+$/;

function render(img: LabImage): Fields {
  return { kernels: img.kernels, size: img.size, buildtime: img.buildtime, writable: true };
}

/** Routes /api/images/…; builds finish at once (`now` in unix seconds stamps them). */
export function imagesRoute(store: WarewulfStore, req: Req, nowS: () => number): Routed {
  const [name, sub] = req.parts;
  const m = req.method;
  if (!name) {
    if (m !== "GET") return undefined;
    const out: Record<string, Fields> = {};
    for (const [n, img] of [...store.images.entries()].sort(([a], [b]) => a.localeCompare(b))) out[n] = render(img);
    return { body: out };
  }
  const img = store.images.get(name);
  if (sub === "import" && m === "POST") {
    const b = bodyObject(req);
    const uri = typeof b.uri === "string" ? b.uri : "";
    if (!uri.startsWith("docker://")) return invalid(`missing docker:// prefix: ${uri}`);
    if (!VALID_NAME.test(name)) return invalid(`name contains illegal characters: ${name}`);
    const fresh: LabImage = { uri, kernels: [], size: 0, buildtime: 0 };
    store.images.set(name, fresh);
    return { body: render(fresh) };
  }
  if (sub === "build" && m === "POST") {
    if (!img) return new ApiError(500, undefined, `image does not exist: ${name}`);
    img.kernels = [`/var/lib/warewulf/chroots/${name}/rootfs/boot/vmlinuz`];
    img.size = 1 << 30;
    img.buildtime = nowS();
    return { body: render(img) };
  }
  if (sub !== undefined) return undefined;
  if (m === "GET") return img ? { body: render(img) } : notFound(`image not found: ${name}`);
  if (m === "DELETE") {
    const users = [...store.nodes.values()].filter((n) => n["image name"] === name).length;
    const profs = [...store.profiles.values()].filter((n) => n["image name"] === name).length;
    if (users > 0 || profs > 0) {
      return invalid(`image '${name}' is in use by ${users} nodes and ${profs} profiles`);
    }
    if (!img) return new ApiError(500, undefined, `image does not exist: ${name}`);
    store.images.delete(name);
    return { body: render(img) };
  }
  return undefined;
}

/** Routes /api/overlays/… (names and create/delete; file contents are not modelled). */
export function overlaysRoute(store: WarewulfStore, req: Req): Routed {
  const [name, sub] = req.parts;
  const m = req.method;
  if (sub !== undefined) return undefined;
  const render = (n: string) => ({ files: [], site: !store.distribution.has(n) });
  if (!name) {
    if (m !== "GET") return undefined;
    return { body: Object.fromEntries([...store.overlays].sort().map((n) => [n, render(n)])) };
  }
  if (m === "GET") return store.overlays.has(name) ? { body: render(name) } : notFound(`overlay not found: ${name}`);
  if (m === "PUT") {
    if (store.overlays.has(name)) return new ApiError(409, "ALREADY_EXISTS", `${name} overlay already exists`);
    store.overlays.add(name);
    return { body: render(name) };
  }
  if (m === "DELETE") {
    if (!store.overlays.has(name)) return notFound(`overlay not found: ${name}`);
    if (store.distribution.has(name)) return invalid(`distribution overlay: ${name}`);
    store.overlays.delete(name);
    return { body: render(name) };
  }
  return undefined;
}
