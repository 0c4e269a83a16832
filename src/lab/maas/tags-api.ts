/** MAAS handlers for tags/ and tags/{name}/: create, read, update, delete, and the machines a tag holds. */
import { conflict, invalid, notFound } from "./http-io.js";
import type { RegionDeps } from "./region-deps.js";
import { renderMachine, renderTag } from "./render.js";
import type { ActionContext, Handler } from "./router.js";

function tagOf(deps: RegionDeps, ctx: ActionContext) {
  const t = deps.store.tags.get(ctx.path.name);
  if (!t) throw notFound("Tag");
  return t;
}

/** TagsHandler and TagHandler, bound to a region. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function tagHandlers(deps: RegionDeps): Handler[] {
  const { store } = deps;
  return [
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
  ];
}
