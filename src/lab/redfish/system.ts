/** ServiceRoot, the Systems collection and ComputerSystem: power, boot override, ETag/If-Match, Reset. */
import { createHash } from "node:crypto";
import { dimmHealthOf, worse, worstHealth } from "../world/health-faults.js";
import type { LabNode, World } from "../world/model.js";
import { hasQuirk } from "../world/quirks.js";
import { bootOrderFromRefs, bootOrderRefs } from "./boot-options.js";
import { RedfishError } from "./errors.js";
import { LOG_PLACEMENT, logServicesPath } from "./log-service.js";
import { EXPAND_QUERY_SUPPORT } from "./representation.js";

const { MaxLevels: _, ...ONE_LEVEL } = { ...EXPAND_QUERY_SUPPORT, Levels: false };

import { type Ctx, collection, iso, link, objectBody, ok, type Reply, type Route, status, systemOf } from "./router.js";

/** Boot targets the lab's BMCs accept. */
export const BOOT_TARGETS = ["None", "Pxe", "Hdd", "Cd", "Usb", "BiosSetup", "UefiHttp", "UefiShell"] as const;
/** Reset types the lab's BMCs accept. */
export const RESET_TYPES = [
  "On",
  "ForceOff",
  "GracefulShutdown",
  "GracefulRestart",
  "ForceRestart",
  "PowerCycle",
  "Nmi",
  "PushPowerButton",
];

function serviceRoot(ctx: Ctx): Reply {
  const common = {
    "@odata.type": "#ServiceRoot.v1_20_0.ServiceRoot",
    "@odata.id": "/redfish/v1",
    Id: "RootService",
    Name: "Root Service",
    RedfishVersion: "1.21.0",
    SessionService: link("/redfish/v1/SessionService"),
    AccountService: link("/redfish/v1/AccountService"),
    Links: { Sessions: link("/redfish/v1/SessionService/Sessions") },
  };
  if (ctx.target.kind === "dpu") throw new RedfishError(404, "ResourceNotFound", ["Resource", ctx.path]);
  const noExpand = ctx.target.kind === "pdu" || hasQuirk(ctx.target.node, "no-expand-query");
  const oneLevel = ctx.target.kind === "bmc" && hasQuirk(ctx.target.node, "expand-one-level");
  Object.assign(common, {
    ProtocolFeaturesSupported: {
      ...(noExpand ? {} : { ExpandQuery: oneLevel ? ONE_LEVEL : EXPAND_QUERY_SUPPORT }),
      SelectQuery: false,
      // Only the event log's Entries take $filter (where the vendor's do) and $top/$skip (redfish/log-service.ts).
      FilterQuery: ctx.target.kind === "bmc" && LOG_PLACEMENT[ctx.target.node.spec.vendor].filter === "yes",
      ...(ctx.target.kind === "bmc" ? { TopSkipQuery: true } : {}),
    },
  });
  if (ctx.target.kind === "pdu") {
    const p = ctx.target.pdu;
    return ok({
      ...common,
      UUID: uuidOf(p.spec.id),
      Vendor: "Contoso",
      Product: p.spec.model ?? "ZAP4000",
      PowerEquipment: link("/redfish/v1/PowerEquipment"),
    });
  }
  const n = ctx.target.node;
  return ok({
    ...common,
    UUID: n.uuid,
    Vendor: n.spec.hardware.manufacturer,
    Product: n.spec.hardware.model,
    Systems: link("/redfish/v1/Systems"),
    Chassis: link("/redfish/v1/Chassis"),
    Managers: link("/redfish/v1/Managers"),
    Tasks: link("/redfish/v1/TaskService"),
    UpdateService: link("/redfish/v1/UpdateService"),
    Registries: link("/redfish/v1/Registries"),
    // SPDM attestation of the GPUs, the BMC and the DPUs (redfish/component-integrity.ts).
    ComponentIntegrity: link("/redfish/v1/ComponentIntegrity"),
    // iDRAC lists its JobService (BIOS config jobs, redfish/bios-jobs.ts).
    ...(n.spec.vendor === "dell" ? { JobService: link("/redfish/v1/JobService") } : {}),
  });
}

function uuidOf(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What vendor quirks make of the Reset action's advertisement. */
function resetAction(n: LabNode, base: string): Record<string, unknown> {
  const target = `${base}/Actions/ComputerSystem.Reset`;
  // Like BMCs whose ActionInfo link is advertised but not implemented (404).
  if (hasQuirk(n, "action-info-404")) return { target, "@Redfish.ActionInfo": `${base}/ResetActionInfo` };
  if (hasQuirk(n, "misspelled-allowable-values")) {
    const odd = RESET_TYPES.filter((t) => t !== "GracefulShutdown" && t !== "GracefulRestart");
    return { target, "ResetType@Redfish.AllowableValues": [...odd, "GracefulRestartGracefulShutdwon"] };
  }
  return { target, "ResetType@Redfish.AllowableValues": RESET_TYPES };
}

/** The vendor's key under Oem (as its firmware spells it). */
export const OEM_KEY: Readonly<Record<string, string>> = {
  dell: "Dell",
  hpe: "Hpe",
  supermicro: "Supermicro",
  lenovo: "Lenovo",
  "nvidia-dgx": "Nvidia",
  contoso: "Contoso",
};

/** PCIe device links of the system: GPUs (unless only OEM links list them), NICs, and a dead one when asked. */
export function systemPcieIds(world: World, n: LabNode): string[] {
  const gpus = hasQuirk(n, "oem-pci-gpus") ? [] : world.visibleGpus(n).map((g) => g.id);
  const dead = hasQuirk(n, "dead-member-links") ? ["Dead.1"] : [];
  const dpus = world.dpusOf(n.spec.name).map((d) => `DPU${d.index + 1}`);
  return [...gpus, ...n.spec.hardware.nics.map((_, i) => `NIC${i + 1}`), ...dpus, ...dead];
}

/** The ComputerSystem's strong ETag. */
export const systemEtag = (n: LabNode) => `"${n.generation}"`;

/** The ComputerSystem body of a node. */
export function systemBody(world: World, n: LabNode): Record<string, unknown> {
  const base = `/redfish/v1/Systems/${n.systemId}`;
  const hw = n.spec.hardware;
  const gpuHealth = world.faults.find("gpu-health", { node: n.spec.name }) ? "Critical" : "OK";
  const faults = world.faults.list();
  const rollup = worse(gpuHealth, worstHealth(faults, n.spec.name));
  const memory = hw.memory.dimms;
  const memHealth = Array.from({ length: memory }, (_, i) => dimmHealthOf(faults, n.spec.name, i)).reduce(worse, "OK");
  const power = world.powerState(n);
  return {
    "@odata.type": "#ComputerSystem.v1_27_0.ComputerSystem",
    "@odata.id": base,
    Id: n.systemId,
    Name: n.spec.name,
    SystemType: "Physical",
    Manufacturer: hw.manufacturer,
    Model: hw.model,
    SerialNumber: hasQuirk(n, "blank-serials") ? "          " : n.serial,
    UUID: n.uuid,
    AssetTag: n.assetTag,
    HostName: n.spec.name,
    PowerState: power,
    // ComputerSystem v1.12: when the host last came out of reset (its last power-on; none while it is off).
    ...(n.power.on ? { LastResetTime: iso(n.power.since) } : {}),
    BiosVersion: world.firmwareVersion(n, "bios"),
    // The system's own Health: Warning for the gpu-health fault (as before); HealthRollup has the worst component.
    Status: { ...status(gpuHealth === "OK" && rollup === "OK" ? "OK" : "Warning"), HealthRollup: rollup },
    Boot: {
      BootSourceOverrideEnabled: n.boot.enabled,
      BootSourceOverrideTarget: n.boot.target,
      "BootSourceOverrideTarget@Redfish.AllowableValues": [...BOOT_TARGETS],
      BootSourceOverrideMode: n.boot.mode,
      BootOrder: bootOrderRefs(n),
      BootOptions: link(`${base}/BootOptions`),
    },
    ProcessorSummary: {
      Count: hw.cpu.sockets,
      CoreCount: hw.cpu.sockets * hw.cpu.coresPerSocket,
      LogicalProcessorCount: hw.cpu.sockets * hw.cpu.coresPerSocket * 2,
      Model: hw.cpu.model,
      Status: status(),
    },
    MemorySummary: { TotalSystemMemoryGiB: memory * hw.memory.dimmGiB, Status: status(memHealth) },
    Processors: link(`${base}/Processors`),
    Memory: link(`${base}/Memory`),
    EthernetInterfaces: link(`${base}/EthernetInterfaces`),
    Storage: link(`${base}/Storage`),
    Bios: link(`${base}/Bios`),
    SecureBoot: link(`${base}/SecureBoot`),
    ...(LOG_PLACEMENT[n.spec.vendor].under === "Systems" ? { LogServices: link(logServicesPath(n)) } : {}),
    PCIeDevices: systemPcieIds(world, n).map((id) => link(`/redfish/v1/Chassis/${n.chassisId}/PCIeDevices/${id}`)),
    ...(hasQuirk(n, "oem-pci-gpus")
      ? { Oem: { [OEM_KEY[n.spec.vendor]]: { Links: { PCIDevices: link(`${base}/PCIDevices`) } } } }
      : {}),
    Links: {
      Chassis: [link(`/redfish/v1/Chassis/${n.chassisId}`)],
      ManagedBy: [link(`/redfish/v1/Managers/${n.ids.manager}`)],
    },
    Actions: { "#ComputerSystem.Reset": resetAction(n, base) },
  };
}

const WRITABLE_BOOT = new Set([
  "BootSourceOverrideTarget",
  "BootSourceOverrideEnabled",
  "BootSourceOverrideMode",
  "BootOrder",
]);
const READ_ONLY = new Set([
  "Id",
  "Name",
  "PowerState",
  "SerialNumber",
  "UUID",
  "Manufacturer",
  "Model",
  "Status",
  "BiosVersion",
]);

function enumValue(prop: string, value: unknown, allowed: readonly string[]): string {
  if (typeof value !== "string") throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(value), prop]);
  if (!allowed.includes(value)) throw new RedfishError(400, "PropertyValueNotInList", [value, prop]);
  return value;
}

/** Validates a whole PATCH before applying any of it, as Redfish services must not half-apply. */
function patchSystem(ctx: Ctx): Reply {
  const n = systemOf(ctx);
  const ifMatch = ctx.headers["if-match"];
  if (typeof ifMatch === "string" && ifMatch !== "*") {
    const tags = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
    if (!tags.includes(systemEtag(n))) throw new RedfishError(412, "PreconditionFailed");
  }
  const b = objectBody(ctx);
  const next = { ...n.boot, order: [...n.boot.order] };
  let assetTag = n.assetTag;
  for (const [k, v] of Object.entries(b)) {
    if (k === "AssetTag") {
      if (typeof v !== "string") throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(v), k]);
      assetTag = v;
    } else if (k === "Boot") {
      if (typeof v !== "object" || v === null || Array.isArray(v))
        throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(v), k]);
      for (const [bk, bv] of Object.entries(v as Record<string, unknown>)) {
        if (!WRITABLE_BOOT.has(bk)) throw new RedfishError(400, "PropertyUnknown", [`Boot/${bk}`]);
        if (bk === "BootSourceOverrideTarget") next.target = enumValue(`Boot/${bk}`, bv, BOOT_TARGETS);
        if (bk === "BootSourceOverrideEnabled")
          next.enabled = enumValue(`Boot/${bk}`, bv, ["Disabled", "Once", "Continuous"]) as typeof next.enabled;
        if (bk === "BootSourceOverrideMode")
          next.mode = enumValue(`Boot/${bk}`, bv, ["UEFI", "Legacy"]) as typeof next.mode;
        if (bk === "BootOrder") {
          if (!Array.isArray(bv) || bv.some((x) => typeof x !== "string"))
            throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(bv), `Boot/${bk}`]);
          next.order = bootOrderFromRefs(n, bv as string[]);
        }
      }
    } else if (READ_ONLY.has(k)) {
      throw new RedfishError(400, "PropertyNotWritable", [k]);
    } else {
      throw new RedfishError(400, "PropertyUnknown", [k]);
    }
  }
  n.boot = next;
  n.assetTag = assetTag;
  n.generation++;
  return { status: 200, body: systemBody(ctx.world, n), headers: { ETag: systemEtag(n) } };
}

function reset(ctx: Ctx): Reply {
  const n = systemOf(ctx);
  const b = objectBody(ctx);
  const action = "ComputerSystem.Reset";
  if (b.ResetType === undefined) throw new RedfishError(400, "ActionParameterMissing", [action, "ResetType"]);
  const type = String(b.ResetType);
  if (!RESET_TYPES.includes(type))
    throw new RedfishError(400, "ActionParameterValueNotInList", [type, "ResetType", action]);
  const w = ctx.world;
  const state = w.powerState(n);
  const isOn = state === "On" || state === "PoweringOn";
  if (state === "PoweringOn" || state === "PoweringOff") throw new RedfishError(409, "ResourceInUse");
  switch (type) {
    case "On":
      // Like iDRAC: asking for On when already on is a conflict, not a no-op.
      if (isOn) throw new RedfishError(409, "ResourceInUse");
      w.setHostPower(n, true);
      break;
    case "ForceOff":
    case "GracefulShutdown":
      if (isOn) w.setHostPower(n, false);
      break;
    case "PushPowerButton":
      w.setHostPower(n, !isOn);
      break;
    case "Nmi":
      if (!isOn) throw new RedfishError(409, "ResourceInUse");
      break;
    default:
      // ForceRestart, GracefulRestart, PowerCycle: off then on; from Off, PowerCycle powers on.
      w.setHostPower(n, true);
  }
  return { status: 204 };
}

/** Routes of ServiceRoot and ComputerSystem. */
export const systemRoutes: Route[] = [
  { pattern: "/redfish", anonymous: ["GET"], methods: { GET: () => ok({ v1: "/redfish/v1/" }) } },
  { pattern: "/redfish/v1", anonymous: ["GET"], methods: { GET: serviceRoot } },
  {
    pattern: "/redfish/v1/Systems",
    methods: {
      GET: (ctx) => {
        const n = systemOf({ ...ctx, params: { sys: ctx.target.kind === "bmc" ? ctx.target.node.systemId : "" } });
        return ok(
          collection("ComputerSystemCollection", "Computer System Collection", "/redfish/v1/Systems", [
            `/redfish/v1/Systems/${n.systemId}`,
          ]),
        );
      },
    },
  },
  {
    pattern: "/redfish/v1/Systems/:sys",
    methods: {
      GET: (ctx) => {
        const n = systemOf(ctx);
        return ok(systemBody(ctx.world, n), { ETag: systemEtag(n) });
      },
      PATCH: patchSystem,
    },
  },
  { pattern: "/redfish/v1/Systems/:sys/Actions/ComputerSystem.Reset", methods: { POST: reset } },
];
