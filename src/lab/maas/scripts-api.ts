/** MAAS handlers for scripts/ (the testing scripts acceptance runs through). */
import { invalid, notFound } from "./http-io.js";
import { listParam } from "./machine-forms.js";
import type { RegionDeps } from "./region-deps.js";
import { renderScript } from "./render.js";
import type { ActionContext, Handler } from "./router.js";
import type { ScriptRecord } from "./store.js";

function scriptOf(deps: RegionDeps, ctx: ActionContext): ScriptRecord {
  const byName = deps.store.scripts.get(ctx.path.name);
  const s = byName ?? [...deps.store.scripts.values()].find((x) => String(x.id) === ctx.path.name);
  if (!s) throw notFound("Script");
  return s;
}

function createScript(deps: RegionDeps, ctx: ActionContext): ScriptRecord {
  const p = ctx.params;
  const name = p.get("name");
  if (!name) throw invalid({ name: ["This field is required."] });
  if (deps.store.scripts.has(name)) throw invalid({ name: ["Script with this Name already exists."] });
  const content = p.files.get("script") ?? (p.get("script") !== undefined ? Buffer.from(p.get("script")!) : undefined);
  if (!content || content.length === 0) throw invalid({ script: ["This field is required."] });
  const typeRaw = (p.get("type") ?? "testing").toLowerCase();
  const type = ["0", "commissioning", "commission"].includes(typeRaw) ? 0 : 2;
  const hardware: Record<string, number> = { node: 0, cpu: 1, memory: 2, storage: 3, network: 4, gpu: 5 };
  const s: ScriptRecord = {
    id: deps.store.nextId("script"),
    name,
    title: p.get("title") ?? "",
    description: p.get("description") ?? "",
    type,
    hardwareType: hardware[(p.get("hardware_type") ?? "node").toLowerCase()] ?? Number(p.get("hardware_type")) ?? 0,
    tags: listParam(p, "tags") ?? [],
    timeoutSeconds: Number(p.get("timeout") ?? 0) || 0,
    destructive: p.bool("destructive"),
    isDefault: false,
    content,
  };
  deps.store.scripts.set(name, s);
  return s;
}

/** Script handlers, bound to a region. */
export function scriptHandlers(deps: RegionDeps): Handler[] {
  const { store } = deps;
  return [
    {
      name: "ScriptsHandler",
      path: "scripts/",
      doc: "Manage custom scripts.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "List stored scripts (filters: type, hardware_type, filters).",
          run: (ctx) => {
            const type = ctx.params.get("type");
            const want = type === undefined ? undefined : ["0", "commissioning"].includes(type) ? 0 : 2;
            const names = listParam(ctx.params, "filters");
            const list = [...store.scripts.values()]
              .filter((s) => want === undefined || s.type === want)
              .filter((s) => !names || names.includes(s.name) || s.tags.some((t) => names.includes(t)));
            return { json: list.map(renderScript) };
          },
        },
        {
          name: "create",
          method: "POST",
          op: null,
          doc: "Create a new script.",
          run: (ctx) => ({ json: renderScript(createScript(deps, ctx)) }),
        },
      ],
    },
    {
      name: "ScriptHandler",
      path: "scripts/{name}",
      doc: "Manage a custom script.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "Return metadata of a script.",
          run: (ctx) => ({ json: renderScript(scriptOf(deps, ctx)) }),
        },
        {
          name: "download",
          method: "GET",
          op: "download",
          doc: "Download a script.",
          run: (ctx) => ({ json: scriptOf(deps, ctx).content.toString("utf8") }),
        },
        {
          name: "delete",
          method: "DELETE",
          op: null,
          doc: "Delete a script.",
          run: (ctx) => {
            store.scripts.delete(scriptOf(deps, ctx).name);
            return { status: 204 };
          },
        },
      ],
    },
  ];
}
