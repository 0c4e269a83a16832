import { conflict, invalid, notFound } from "./http-io.js";
import { normaliseMac } from "./machine-forms.js";
import type { RegionDeps } from "./machines-api.js";
import { API, renderEvent, renderMachine, renderTag } from "./render.js";
import type { ActionContext, Handler } from "./router.js";

/** Version the lab reports (a MAAS 3.x region speaking API 2.0). */
export const LAB_MAAS_VERSION = "3.5.0";

const CAPABILITIES = [
  "networks-management",
  "static-ipaddresses",
  "ipv6-deployment-ubuntu",
  "devices-management",
  "storage-deployment-ubuntu",
  "network-deployment-ubuntu",
  "bridging-interface-ubuntu",
  "bridging-automatic-ubuntu",
  "authenticate-api",
];

function tagOf(deps: RegionDeps, ctx: ActionContext) {
  const t = deps.store.tags.get(ctx.path.name);
  if (!t) throw notFound("Tag");
  return t;
}

function queryEvents(deps: RegionDeps, ctx: ActionContext) {
  const p = ctx.params;
  const ids = p.all("id");
  const hostnames = p.all("hostname");
  const macs = p.all("mac_address").map((m) => normaliseMac(m) ?? m);
  const levels = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];
  const minLevel = levels.indexOf((p.get("level") ?? "INFO").toUpperCase());
  const limit = Math.min(Number(p.get("limit") ?? 100) || 100, 1000);
  const after = p.get("after") === undefined ? undefined : Number(p.get("after"));
  const before = p.get("before") === undefined ? undefined : Number(p.get("before"));
  const macHosts = new Set(
    [...deps.store.machines.values()]
      .filter((m) => m.interfaces.some((i) => macs.includes(i.macAddress)))
      .map((m) => m.systemId),
  );
  let rows = deps.store.events
    .filter((e) => ids.length === 0 || ids.includes(e.systemId))
    .filter((e) => hostnames.length === 0 || hostnames.includes(e.hostname))
    .filter((e) => macs.length === 0 || macHosts.has(e.systemId))
    .filter((e) => levels.indexOf(e.level) >= minLevel || e.level === "AUDIT")
    .filter((e) => (after === undefined || e.id > after) && (before === undefined || e.id < before));
  // Newest first, as MAAS returns them; `after` pages towards newer rows.
  rows = after !== undefined ? rows.slice(0, limit) : rows.slice(-limit);
  rows.reverse();
  const base = `${API}/events/?op=query&limit=${limit}`;
  return {
    count: rows.length,
    events: rows.map(renderEvent),
    next_uri: rows.length > 0 ? `${base}&after=${rows[0].id}` : base,
    prev_uri: rows.length > 0 ? `${base}&before=${rows[rows.length - 1].id}` : base,
  };
}

/** Version, user, tag and event handlers, bound to a region. */
export function regionHandlers(deps: RegionDeps): Handler[] {
  const { store } = deps;
  return [
    {
      name: "VersionHandler",
      path: "version/",
      doc: "Information about this MAAS instance.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          anon: true,
          doc: "MAAS version and capabilities.",
          run: () => ({ json: { capabilities: CAPABILITIES, version: LAB_MAAS_VERSION, subversion: "rackform-lab" } }),
        },
      ],
    },
    {
      name: "UsersHandler",
      path: "users/",
      doc: "Manage the user accounts of this MAAS.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "List users.",
          run: (ctx) => ({ json: [user(ctx.user?.username ?? "admin")] }),
        },
        {
          name: "whoami",
          method: "GET",
          op: "whoami",
          doc: "Returns the currently logged in user.",
          run: (ctx) => ({ json: user(ctx.user?.username ?? "admin") }),
        },
      ],
    },
    {
      name: "TagsHandler",
      path: "tags/",
      doc: "Manage all tags known to MAAS.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "List tags.",
          run: () => ({ json: [...store.tags.values()].map(renderTag) }),
        },
        {
          name: "create",
          method: "POST",
          op: null,
          doc: "Create a new tag.",
          run: (ctx) => {
            const p = ctx.params;
            const name = p.get("name") ?? "";
            if (!/^[\w-]+$/.test(name))
              throw invalid({ name: [name ? "Invalid character in tag name." : "This field is required."] });
            if (store.tags.has(name)) throw invalid({ name: ["Tag with this Name already exists."] });
            const t = {
              name,
              comment: p.get("comment") ?? "",
              definition: p.get("definition") ?? "",
              kernelOpts: p.get("kernel_opts") ?? "",
            };
            store.tags.set(name, t);
            return { json: renderTag(t) };
          },
        },
      ],
    },
    {
      name: "TagHandler",
      path: "tags/{name}/",
      doc: "Manage a tag.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "Read a specific tag.",
          run: (ctx) => ({ json: renderTag(tagOf(deps, ctx)) }),
        },
        {
          name: "update",
          method: "PUT",
          op: null,
          doc: "Update a specific tag.",
          run: (ctx) => {
            const t = tagOf(deps, ctx);
            const p = ctx.params;
            if (p.get("comment") !== undefined) t.comment = p.get("comment")!;
            if (p.get("kernel_opts") !== undefined) t.kernelOpts = p.get("kernel_opts")!;
            if (p.get("definition") !== undefined) t.definition = p.get("definition")!;
            return { json: renderTag(t) };
          },
        },
        {
          name: "delete",
          method: "DELETE",
          op: null,
          doc: "Delete a specific tag.",
          run: (ctx) => {
            const t = tagOf(deps, ctx);
            store.tags.delete(t.name);
            for (const m of store.machines.values()) m.tags = m.tags.filter((x) => x !== t.name);
            return { status: 204 };
          },
        },
        {
          name: "machines",
          method: "GET",
          op: "machines",
          doc: "List machines with this tag.",
          run: (ctx) => {
            const t = tagOf(deps, ctx);
            return { json: [...store.machines.values()].filter((m) => m.tags.includes(t.name)).map(renderMachine) };
          },
        },
        {
          name: "update_nodes",
          method: "POST",
          op: "update_nodes",
          doc: "Add or remove nodes for this tag.",
          run: (ctx) => {
            const t = tagOf(deps, ctx);
            if (t.definition) throw conflict("Cannot manually update nodes of a tag with a definition.");
            let added = 0;
            let removed = 0;
            for (const id of ctx.params.all("add")) {
              const m = store.machine(id);
              if (m && !m.tags.includes(t.name)) {
                m.tags.push(t.name);
                added++;
              }
            }
            for (const id of ctx.params.all("remove")) {
              const m = store.machine(id);
              if (m?.tags.includes(t.name)) {
                m.tags = m.tags.filter((x) => x !== t.name);
                removed++;
              }
            }
            return { json: { added, removed } };
          },
        },
      ],
    },
    {
      name: "EventsHandler",
      path: "events/",
      doc: "Retrieve filtered node events.",
      actions: [
        {
          name: "query",
          method: "GET",
          op: "query",
          doc: "List node events (filters: id, hostname, mac_address, level, limit, after, before).",
          run: (ctx) => ({ json: queryEvents(deps, ctx) }),
        },
      ],
    },
  ];
}

function user(username: string) {
  return {
    is_superuser: true,
    username,
    email: `${username}@lab.rackform.invalid`,
    is_local: true,
    resource_uri: `${API}/users/${username}/`,
  };
}
