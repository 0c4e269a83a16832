/** MAAS handlers under nodes/{system_id}/: interfaces and script results. */
import { badRequest, invalid, notFound } from "./http-io.js";
import { listParam } from "./machine-forms.js";
import { machineOf, type RegionDeps } from "./region-deps.js";
import { renderInterface, renderScriptSet } from "./render.js";
import type { Handler } from "./router.js";
import { parseResultType } from "./statuses.js";

/** Interface and script-result handlers, bound to a region. */
export function nodeHandlers(deps: RegionDeps): Handler[] {
  return [
    {
      name: "InterfacesHandler",
      path: "nodes/{system_id}/interfaces/",
      doc: "Manage interfaces on a node.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "List all interfaces of a node.",
          run: (ctx) => {
            const m = machineOf(deps, ctx, "Node");
            return { json: m.interfaces.map((i) => renderInterface(m, i)) };
          },
        },
      ],
    },
    {
      name: "InterfaceHandler",
      path: "nodes/{system_id}/interfaces/{id}/",
      doc: "Manage a node's or device's interface.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "Read an interface.",
          run: (ctx) => {
            const m = machineOf(deps, ctx, "Node");
            const i = m.interfaces.find((x) => String(x.id) === ctx.path.id);
            if (!i) throw notFound("Interface");
            return { json: renderInterface(m, i) };
          },
        },
      ],
    },
    {
      name: "NodeScriptResultsHandler",
      path: "nodes/{system_id}/results/",
      doc: "Read the collection of script results.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "Return script results (filters: type, filters, include_output).",
          run: (ctx) => {
            const m = machineOf(deps, ctx, "Node");
            const p = ctx.params;
            const typeParam = p.get("type");
            const type = typeParam === undefined ? undefined : parseResultType(typeParam);
            if (typeParam !== undefined && type === undefined) throw invalid({ type: ["Invalid result type name"] });
            const names = listParam(p, "filters");
            const sets = m.scriptSets
              .filter((s) => type === undefined || s.type === type)
              .map((s) => ({ ...s, results: s.results.filter((r) => !names || names.includes(r.name)) }));
            return { json: sets.map((s) => renderScriptSet(m, s, p.bool("include_output"))) };
          },
        },
      ],
    },
    {
      name: "NodeScriptResultHandler",
      path: "nodes/{system_id}/results/{id}/",
      doc: "Manage node script results.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "View a set of test results.",
          run: (ctx) => {
            const m = machineOf(deps, ctx, "Node");
            const current: Record<string, number | null> = {
              "current-commissioning": m.currentCommissioningSetId,
              "current-testing": m.currentTestingSetId,
              "current-installation": m.currentInstallationSetId,
            };
            const id = ctx.path.id;
            if (!(id in current) && !/^\d+$/.test(id)) {
              throw badRequest(
                `Unknown id "${id}" must be current-commissioning, current-testing, current-installation, or the id number of a specific result.`,
              );
            }
            const setId = id in current ? current[id] : Number(id);
            const set = m.scriptSets.find((s) => s.id === setId);
            if (!set) throw notFound("ScriptSet");
            return { json: renderScriptSet(m, set, ctx.params.bool("include_output")) };
          },
        },
      ],
    },
  ];
}
