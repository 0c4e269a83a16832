/** MAAS handler for machines/: list with filters, create (commissioning right away), allocate, power parameters. */
import { cheapestFirst, matches, noMatch, parseConstraints } from "./allocate.js";
import { badRequest, conflict, type Params } from "./http-io.js";
import {
  checkHostname,
  choice,
  listParam,
  normaliseMac,
  parseArchitecture,
  parseMacs,
  parsePowerParams,
  parsePowerType,
} from "./machine-forms.js";
import { type RegionDeps, userOf } from "./region-deps.js";
import { renderMachine } from "./render.js";
import type { ActionContext, Handler } from "./router.js";
import { NodeStatus, RELEASABLE, statusName } from "./statuses.js";
import type { MachineRecord } from "./store.js";

function filterMachines(deps: RegionDeps, p: Params): MachineRecord[] {
  const hostnames = p.all("hostname");
  const ids = [...p.all("id"), ...p.all("system_id")];
  const macs = p.all("mac_address").map((m) => normaliseMac(m) ?? m);
  const statuses = p.all("status").map((s) => s.toLowerCase().replace(/_/g, " "));
  const tags = listParam(p, "tags") ?? [];
  return [...deps.store.machines.values()]
    .filter((m) => hostnames.length === 0 || hostnames.includes(m.hostname))
    .filter((m) => ids.length === 0 || ids.includes(m.systemId))
    .filter((m) => macs.length === 0 || m.interfaces.some((i) => macs.includes(i.macAddress)))
    .filter((m) => statuses.length === 0 || statuses.includes(statusName(m.status).toLowerCase()))
    .filter((m) => tags.every((t) => m.tags.includes(t)))
    .sort((a, b) => a.id - b.id);
}

function createMachine(deps: RegionDeps, ctx: ActionContext): MachineRecord {
  const p = ctx.params;
  const { store } = deps;
  const architecture = parseArchitecture(p.get("architecture"));
  const macs = parseMacs(store, p.all("mac_addresses"));
  const systemId = store.newSystemId();
  const hostname = checkHostname(store, p.get("hostname") || `lab-${systemId}`);
  const powerType = parsePowerType(p.get("power_type") || "manual");
  const m: MachineRecord = {
    id: store.nextId("machine"),
    systemId,
    hostname,
    architecture,
    description: p.get("description") ?? "",
    status: NodeStatus.NEW,
    previousStatus: NodeStatus.NEW,
    statusMessage: "",
    owner: null,
    osystem: "",
    distroSeries: "",
    hweKernel: null,
    powerType,
    powerParams: parsePowerParams(p) ?? {},
    powerState: "unknown",
    cpuCount: Number(p.get("cpu_count") ?? 0) || 0,
    memoryMiB: Number(p.get("memory") ?? 0) || 0,
    zone: choice(store.zones, p, "zone"),
    pool: choice(store.pools, p, "pool"),
    hardwareInfo: {},
    interfaces: macs.map((mac, i) => ({
      id: store.nextId("interface"),
      name: `eth${i}`,
      macAddress: mac,
      type: "physical",
      enabled: true,
      vendor: null,
      product: null,
      ipAddress: null,
    })),
    tags: [],
    ownerData: {},
    userData: null,
    locked: false,
    netboot: true,
    scriptSets: [],
    currentCommissioningSetId: null,
    currentTestingSetId: null,
    currentInstallationSetId: null,
    cancel: null,
  };
  store.machines.set(systemId, m);
  store.event(m, "INFO", "Node enlisted", `by ${userOf(ctx)}`, userOf(ctx));
  // An admin-created machine with a usable power type goes straight into commissioning, as in MAAS.
  if (p.bool("commission", true) && powerType !== "manual") {
    deps.lifecycle.commission(m, userOf(ctx), listParam(p, "testing_scripts") ?? undefined);
  }
  return m;
}

function allocate(deps: RegionDeps, ctx: ActionContext): MachineRecord {
  const p = ctx.params;
  const constraints = parseConstraints(deps.store, p);
  const m = [...deps.store.machines.values()]
    .filter((x) => x.status === NodeStatus.READY && matches(x, constraints))
    .sort(cheapestFirst)[0];
  if (!m) throw noMatch(constraints, p);
  // dry_run shows which machine would match without acquiring it.
  if (p.bool("dry_run")) return m;
  deps.lifecycle.allocate(m, userOf(ctx));
  if (p.get("comment")) deps.store.event(m, "INFO", "Allocated", p.get("comment")!, userOf(ctx));
  return m;
}

/** MachinesHandler.release: releases many machines at once; Ready ones are left alone, any other state is a 409. */
function releaseMany(deps: RegionDeps, ctx: ActionContext): string[] {
  const ids = [...new Set(ctx.params.all("machines"))];
  const unknown = ids.filter((id) => !deps.store.machines.has(id));
  if (unknown.length > 0) throw badRequest(`Unknown machine(s): ${unknown.join(", ")}.`);
  const machines = ids.map((id) => deps.store.machines.get(id)!).sort((a, b) => a.id - b.id);
  const failed = machines
    .filter((m) => m.status !== NodeStatus.READY && !RELEASABLE.includes(m.status))
    .map((m) => `${m.systemId} ('${statusName(m.status)}')`);
  if (failed.length > 0) throw conflict(`Machine(s) cannot be released in their current state: ${failed.join(", ")}.`);
  const released: string[] = [];
  const comment = ctx.params.get("comment");
  for (const m of machines) {
    if (m.status === NodeStatus.READY) continue;
    deps.lifecycle.release(m, userOf(ctx), false, "default");
    if (comment) deps.store.event(m, "INFO", "Released", comment, userOf(ctx));
    released.push(m.systemId);
  }
  return released;
}

const json = (m: MachineRecord) => ({ json: renderMachine(m) });

/** MachinesHandler (the machines collection), bound to a region. */
export function machinesHandler(deps: RegionDeps): Handler {
  return {
    name: "MachinesHandler",
    path: "machines/",
    doc: "Manage the collection of all the machines in the MAAS.",
    actions: [
      {
        name: "read",
        method: "GET",
        op: null,
        doc: "List machines (filters: hostname, id, mac_address, status, tags).",
        run: (ctx) => ({ json: filterMachines(deps, ctx.params).map(renderMachine) }),
      },
      {
        name: "create",
        method: "POST",
        op: null,
        doc: "Create a new machine.",
        run: (ctx) => json(createMachine(deps, ctx)),
      },
      {
        name: "allocate",
        method: "POST",
        op: "allocate",
        doc: "Allocate an available machine.",
        run: (ctx) => json(allocate(deps, ctx)),
      },
      {
        name: "release",
        method: "POST",
        op: "release",
        doc: "Release multiple machines.",
        run: (ctx) => ({ json: releaseMany(deps, ctx) }),
      },
      {
        name: "power_parameters",
        method: "GET",
        op: "power_parameters",
        doc: "Get power parameters of multiple machines.",
        run: (ctx) => {
          const ids = ctx.params.all("id");
          const out: Record<string, unknown> = {};
          for (const m of deps.store.machines.values())
            if (ids.length === 0 || ids.includes(m.systemId)) out[m.systemId] = { ...m.powerParams };
          return { json: out };
        },
      },
    ],
  };
}
