/** MAAS handlers for zones/ and resourcepools/ (list, create): the names machines and `op=allocate` refer to. */
import { invalid } from "./http-io.js";
import type { RegionDeps } from "./region-deps.js";
import { renderPool, renderZone } from "./render.js";
import type { Handler } from "./router.js";
import type { NamedRecord } from "./store.js";

function collection(
  records: Map<string, NamedRecord>,
  nextId: () => number,
  model: string,
  render: (r: NamedRecord) => Record<string, unknown>,
): Handler["actions"] {
  return [
    {
      name: "read",
      method: "GET",
      op: null,
      doc: `List ${model}s.`,
      run: () => ({ json: [...records.values()].map(render) }),
    },
    {
      name: "create",
      method: "POST",
      op: null,
      doc: `Create a ${model}.`,
      run: (ctx) => {
        const name = ctx.params.get("name") ?? "";
        if (name === "") throw invalid({ name: ["This field is required."] });
        if (!/^[\w-]+$/.test(name)) throw invalid({ name: [`Invalid ${model} name: ${name}.`] });
        if (records.has(name))
          throw invalid({ name: [`${model[0].toUpperCase()}${model.slice(1)} with this Name already exists.`] });
        const r = { id: nextId(), name, description: ctx.params.get("description") ?? "" };
        records.set(name, r);
        return { json: render(r) };
      },
    },
  ];
}

/** ZonesHandler and ResourcePoolsHandler, bound to a region. */
export function zoneHandlers(deps: RegionDeps): Handler[] {
  const { store } = deps;
  return [
    {
      name: "ZonesHandler",
      path: "zones/",
      doc: "Manage physical zones.",
      actions: collection(store.zones, () => store.nextId("zone") + 1, "zone", renderZone),
    },
    {
      name: "ResourcePoolsHandler",
      path: "resourcepools/",
      doc: "Manage resource pools.",
      actions: collection(store.pools, () => store.nextId("pool"), "resource pool", renderPool),
    },
  ];
}
