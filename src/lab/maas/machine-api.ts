/** MAAS handler for machines/{system_id}/: read, update, delete and the ops (commission, test, deploy, release, power…). */
import { invalid, MaasHttpError, type Params } from "./http-io.js";
import {
  checkHostname,
  choice,
  listParam,
  parseArchitecture,
  parsePowerParams,
  parsePowerType,
  parseSeries,
  parseUserData,
} from "./machine-forms.js";
import { machineOf, type RegionDeps, userOf } from "./region-deps.js";
import { renderMachine } from "./render.js";
import type { ActionContext, Handler } from "./router.js";
import { NodeStatus } from "./statuses.js";
import type { MachineRecord } from "./store.js";

function updateMachine(deps: RegionDeps, m: MachineRecord, p: Params): void {
  if (p.get("hostname") !== undefined) m.hostname = checkHostname(deps.store, p.get("hostname")!, m);
  if (p.get("architecture") !== undefined) m.architecture = parseArchitecture(p.get("architecture"));
  if (p.get("description") !== undefined) m.description = p.get("description")!;
  if (p.get("power_type") !== undefined) m.powerType = parsePowerType(p.get("power_type")!);
  const power = parsePowerParams(p, p.bool("power_parameters_skip_check") ? {} : m.powerParams);
  if (power) m.powerParams = power;
  if (p.get("cpu_count") !== undefined) m.cpuCount = Number(p.get("cpu_count")) || 0;
  if (p.get("memory") !== undefined) m.memoryMiB = Number(p.get("memory")) || 0;
  m.zone = choice(deps.store.zones, p, "zone", m.zone);
  m.pool = choice(deps.store.pools, p, "pool", m.pool);
}

function testingScripts(deps: RegionDeps, m: MachineRecord, p: Params): string[] | "none" | undefined {
  const names = listParam(p, "testing_scripts");
  if (names === undefined) return undefined;
  if (names.length === 1 && names[0] === "none") return "none";
  const resolved: string[] = [];
  for (const n of names) {
    const direct = deps.store.scripts.get(n);
    const tagged = [...deps.store.scripts.values()].filter((s) => s.type === 2 && s.tags.includes(n));
    if (direct && direct.type !== 2) throw invalid({ testing_scripts: [`${n} is not a testing script.`] });
    if (!direct && tagged.length === 0) throw invalid({ testing_scripts: [`Unknown scripts or tags: ${n}`] });
    for (const s of direct ? [direct] : tagged) if (!resolved.includes(s.name)) resolved.push(s.name);
  }
  if (m.status === NodeStatus.DEPLOYED && resolved.some((n) => deps.store.scripts.get(n)?.destructive)) {
    throw invalid({ testing_scripts: ["Destructive tests may only be run on undeployed machines."] });
  }
  return resolved;
}

// A declared script parameter is given as `<script>_<param>` or `<param>` (MAAS accepts both); else its default.
function scriptInputs(deps: RegionDeps, names: string[], p: Params): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of names) {
    const declared = deps.store.scripts.get(name)?.parameters;
    if (!declared) continue;
    out[name] = Object.fromEntries(
      Object.entries(declared).map(([param, decl]) => {
        const value = p.get(`${name}_${param}`) ?? p.get(param) ?? decl.default;
        return [param, { ...decl, ...(value === undefined ? {} : { value }) }];
      }),
    );
  }
  return out;
}

// Every field but op sets its key; an empty value removes it (MAAS keeps the rest; release drops them all).
function setOwnerData(m: MachineRecord, p: Params): void {
  for (const key of p.names()) {
    if (key === "op") continue;
    const value = p.get(key) ?? "";
    if (value === "") delete m.ownerData[key];
    else m.ownerData[key] = value;
  }
}

async function powerOp(fn: () => Promise<unknown>, what: string): Promise<void> {
  try {
    await fn();
  } catch (e) {
    throw new MaasHttpError(503, `${what}: ${(e as Error).message}`);
  }
}

const json = (m: MachineRecord) => ({ json: renderMachine(m) });

/** MachineHandler (one machine), bound to a region. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function machineHandler(deps: RegionDeps): Handler {
  const { lifecycle: lc } = deps;
  const one = (ctx: ActionContext) => machineOf(deps, ctx);
  const act = (ctx: ActionContext, fn: (m: MachineRecord) => void) => {
    const m = one(ctx);
    fn(m);
    return json(m);
  };
  return {
    name: "MachineHandler",
    path: "machines/{system_id}/",
    doc: "Manage an individual machine.",
    actions: [
      { name: "read", method: "GET", op: null, doc: "Read a machine.", run: (ctx) => json(one(ctx)) },
      {
        name: "update",
        method: "PUT",
        op: null,
        doc: "Update a machine.",
        run: (ctx) => {
          const m = one(ctx);
          updateMachine(deps, m, ctx.params);
          return json(m);
        },
      },
      {
        name: "delete",
        method: "DELETE",
        op: null,
        doc: "Delete a machine.",
        run: (ctx) => {
          const m = one(ctx);
          m.cancel?.();
          deps.store.machines.delete(m.systemId);
          return { status: 204 };
        },
      },
      {
        name: "commission",
        method: "POST",
        op: "commission",
        doc: "Begin commissioning process for a machine.",
        run: (ctx) => {
          const m = one(ctx);
          lc.commission(m, userOf(ctx), testingScripts(deps, m, ctx.params));
          return json(m);
        },
      },
      {
        name: "test",
        method: "POST",
        op: "test",
        doc: "Begin testing process for a machine.",
        run: (ctx) => {
          const m = one(ctx);
          const scripts = testingScripts(deps, m, ctx.params);
          const names = scripts === undefined || scripts === "none" ? ["smartctl-validate"] : scripts;
          lc.test(m, userOf(ctx), names, scriptInputs(deps, names, ctx.params));
          return json(m);
        },
      },
      {
        name: "deploy",
        method: "POST",
        op: "deploy",
        doc: "Deploy an operating system to a machine.",
        run: (ctx) => {
          const m = one(ctx);
          const p = ctx.params;
          const [os, series] = parseSeries(deps.store, p.get("osystem"), p.get("distro_series"));
          lc.deploy(m, userOf(ctx), os, series, parseUserData(p), p.get("hwe_kernel") ?? null);
          return json(m);
        },
      },
      {
        name: "release",
        method: "POST",
        op: "release",
        doc: "Release a machine, optionally erasing its disks.",
        run: (ctx) => {
          const m = one(ctx);
          const p = ctx.params;
          const mode = p.bool("secure_erase") ? "secure" : p.bool("quick_erase") ? "quick" : "default";
          lc.release(m, userOf(ctx), p.bool("erase"), mode);
          return json(m);
        },
      },
      {
        name: "abort",
        method: "POST",
        op: "abort",
        doc: "Abort a machine's current operation.",
        run: (ctx) => act(ctx, (m) => lc.abort(m, userOf(ctx))),
      },
      {
        name: "mark_broken",
        method: "POST",
        op: "mark_broken",
        doc: "Mark a machine as 'Broken'.",
        run: (ctx) => act(ctx, (m) => lc.markBroken(m, userOf(ctx), ctx.params.get("comment") ?? "")),
      },
      {
        name: "mark_fixed",
        method: "POST",
        op: "mark_fixed",
        doc: "Mark a broken machine as fixed.",
        run: (ctx) => act(ctx, (m) => lc.markFixed(m, userOf(ctx), ctx.params.get("comment") ?? "")),
      },
      {
        name: "power_on",
        method: "POST",
        op: "power_on",
        doc: "Turn on a machine.",
        run: async (ctx) => {
          const m = one(ctx);
          if (ctx.params.get("user_data") !== undefined) m.userData = parseUserData(ctx.params);
          await powerOp(() => lc.setPower(m, true), "Failed to power on");
          return json(m);
        },
      },
      {
        name: "power_off",
        method: "POST",
        op: "power_off",
        doc: "Power off a machine.",
        run: async (ctx) => {
          const m = one(ctx);
          await powerOp(() => lc.setPower(m, false), "Failed to power off");
          return json(m);
        },
      },
      {
        name: "query_power_state",
        method: "GET",
        op: "query_power_state",
        doc: "Get the power state of a machine from its BMC.",
        run: async (ctx) => {
          const m = one(ctx);
          let state = "error";
          await powerOp(async () => {
            state = await lc.queryPower(m);
          }, "Power state could not be queried");
          return { json: { state } };
        },
      },
      {
        name: "set_owner_data",
        method: "POST",
        op: "set_owner_data",
        doc: "Set key/value data for the current owner.",
        run: (ctx) => act(ctx, (m) => setOwnerData(m, ctx.params)),
      },
      {
        name: "power_parameters",
        method: "GET",
        op: "power_parameters",
        doc: "Get power parameters.",
        run: (ctx) => ({ json: { ...one(ctx).powerParams } }),
      },
    ],
  };
}
