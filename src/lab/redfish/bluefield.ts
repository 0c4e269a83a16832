/**
 * A BlueField-3 DPU's own Redfish service (its BMC): ServiceRoot, `Systems/Bluefield` (the Arm system, with
 * BootProgress and the `Oem/Nvidia` Mode and HostRshim), `Managers/Bluefield_BMC` (with `Oem/Nvidia` BmcRShim).
 * Paths and bodies follow NVIDIA's BlueField BMC documentation; see src/lab/README.md for what is confirmed.
 */
import { DPU_BMC_FIRMWARE, DPU_MODES, type DpuMode, type LabDpu } from "../world/dpu.js";
import type { World } from "../world/model.js";
import { bluefieldUpdateRoutes } from "./bluefield-update.js";
import { RedfishError } from "./errors.js";
import { type Ctx, collection, get, link, objectBody, ok, type Reply, type Route, status } from "./router.js";
import { sessionRoutes } from "./sessions.js";

const SYS = "/redfish/v1/Systems/Bluefield";
const MGR = "/redfish/v1/Managers/Bluefield_BMC";

/** The DPU a request reached, or 404 on any other service. */
export function dpuOf(ctx: Ctx): LabDpu {
  if (ctx.target.kind !== "dpu") throw new RedfishError(404, "ResourceNotFound", ["Resource", ctx.path]);
  return ctx.target.dpu;
}

function serviceRoot(ctx: Ctx): Reply {
  const d = dpuOf(ctx);
  return ok({
    "@odata.type": "#ServiceRoot.v1_20_0.ServiceRoot",
    "@odata.id": "/redfish/v1",
    Id: "RootService",
    Name: "Root Service",
    RedfishVersion: "1.17.0",
    UUID: d.uuid,
    Vendor: "NVIDIA",
    Product: "BlueField-3 DPU",
    Systems: link("/redfish/v1/Systems"),
    Managers: link("/redfish/v1/Managers"),
    UpdateService: link("/redfish/v1/UpdateService"),
    Tasks: link("/redfish/v1/TaskService"),
    SessionService: link("/redfish/v1/SessionService"),
    AccountService: link("/redfish/v1/AccountService"),
    Links: { Sessions: link("/redfish/v1/SessionService/Sessions") },
    ProtocolFeaturesSupported: { SelectQuery: false, FilterQuery: false },
  });
}

/** BootProgress of the Arm system: NVIDIA reports its own stage in OemLastState (OsIsRunning in DPU mode). */
function bootProgress(world: World, d: LabDpu): Record<string, string> {
  const arm = world.dpuClock.arm(d);
  if (arm === "installing") return { LastState: "OEM", OemLastState: "FirmwareUpdateInProgress" };
  if (arm === "booting") return { LastState: "OSBootStarted", OemLastState: "OsStarting" };
  // NVIDIA: OsIsRunning marks boot completion in DPU mode, UEFI in NIC mode (the Arm OS does not boot then).
  return d.mode === "DpuMode"
    ? { LastState: "OSRunning", OemLastState: "OsIsRunning" }
    : { LastState: "OEM", OemLastState: "UEFI" };
}

function system(world: World, d: LabDpu): Record<string, unknown> {
  const arm = world.dpuClock.arm(d);
  return {
    "@odata.type": "#ComputerSystem.v1_27_0.ComputerSystem",
    "@odata.id": SYS,
    Id: "Bluefield",
    Name: "BlueField-3 DPU Arm system",
    SystemType: "Physical",
    Manufacturer: "NVIDIA",
    Model: "BlueField-3 DPU",
    SerialNumber: d.serial,
    UUID: d.uuid,
    PowerState: arm === "booting" ? "PoweringOn" : "On",
    BootProgress: bootProgress(world, d),
    Status: status(),
    Links: { ManagedBy: [link(MGR)] },
    Actions: {
      "#ComputerSystem.Reset": {
        target: `${SYS}/Actions/ComputerSystem.Reset`,
        "ResetType@Redfish.AllowableValues": ["GracefulRestart", "ForceRestart"],
      },
    },
    Oem: { Nvidia: link(`${SYS}/Oem/Nvidia`) },
  };
}

function oemSystem(d: LabDpu): Record<string, unknown> {
  return {
    "@odata.type": "#NvidiaComputerSystem.v1_0_0.NvidiaComputerSystem",
    "@odata.id": `${SYS}/Oem/Nvidia`,
    Mode: d.mode,
    HostRshim: d.hostRshim,
    Actions: {
      "#Mode.Set": { target: `${SYS}/Oem/Nvidia/Actions/Mode.Set`, "Mode@Redfish.AllowableValues": DPU_MODES },
      "#HostRshim.Set": {
        target: `${SYS}/Oem/Nvidia/Actions/HostRshim.Set`,
        "HostRshim@Redfish.AllowableValues": ["Enabled", "Disabled"],
      },
    },
  };
}

function resetArm(ctx: Ctx): Reply {
  const d = dpuOf(ctx);
  const b = objectBody(ctx);
  const action = "ComputerSystem.Reset";
  if (b.ResetType === undefined) throw new RedfishError(400, "ActionParameterMissing", [action, "ResetType"]);
  if (b.ResetType !== "GracefulRestart" && b.ResetType !== "ForceRestart")
    throw new RedfishError(400, "ActionParameterValueNotInList", [String(b.ResetType), "ResetType", action]);
  if (ctx.world.dpuClock.arm(d) === "installing") throw new RedfishError(409, "ResourceInUse");
  ctx.world.dpuClock.rebootArm(d);
  return { status: 204 };
}

function setMode(ctx: Ctx): Reply {
  const d = dpuOf(ctx);
  const mode = objectBody(ctx).Mode;
  if (mode === undefined) throw new RedfishError(400, "ActionParameterMissing", ["Mode.Set", "Mode"]);
  if (!DPU_MODES.includes(mode as DpuMode))
    throw new RedfishError(400, "ActionParameterValueNotInList", [String(mode), "Mode", "Mode.Set"]);
  // Stored for the next boot; the running mode is unchanged until the reboot sequence (world/dpu.ts).
  d.pending = mode === d.mode ? undefined : { mode: mode as DpuMode, armResets: 0 };
  return ok(success());
}

function setHostRshim(ctx: Ctx): Reply {
  const d = dpuOf(ctx);
  const v = objectBody(ctx).HostRshim;
  if (v === undefined) throw new RedfishError(400, "ActionParameterMissing", ["HostRshim.Set", "HostRshim"]);
  if (v !== "Enabled" && v !== "Disabled")
    throw new RedfishError(400, "ActionParameterValueNotInList", [String(v), "HostRshim", "HostRshim.Set"]);
  d.hostRshim = v;
  if (v === "Enabled") d.bmcRshim = false;
  return ok(success());
}

function patchBmcRshim(ctx: Ctx): Reply {
  const d = dpuOf(ctx);
  const b = objectBody(ctx);
  for (const k of Object.keys(b)) if (k !== "BmcRShim") throw new RedfishError(400, "PropertyUnknown", [k]);
  const r = b.BmcRShim as Record<string, unknown> | undefined;
  const v = r?.BmcRShimEnabled;
  if (typeof v !== "boolean")
    throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(v), "BmcRShim/BmcRShimEnabled"]);
  // The PATCH is accepted, but the BMC's rshim only starts when the host does not hold the device.
  d.bmcRshim = v && d.hostRshim === "Disabled";
  return ok(success());
}

function success(): Record<string, unknown> {
  return {
    "@Message.ExtendedInfo": [
      {
        "@odata.type": "#Message.v1_3_0.Message",
        MessageId: "Base.1.18.Success",
        Message: "The request completed successfully.",
        MessageArgs: [],
        MessageSeverity: "OK",
        Resolution: "None",
      },
    ],
  };
}

function manager(d: LabDpu): Record<string, unknown> {
  return {
    "@odata.type": "#Manager.v1_24_0.Manager",
    "@odata.id": MGR,
    Id: "Bluefield_BMC",
    Name: "OpenBmc Manager",
    ManagerType: "BMC",
    Model: "OpenBmc",
    FirmwareVersion: DPU_BMC_FIRMWARE,
    UUID: d.uuid,
    PowerState: "On",
    Status: status(),
    Links: { ManagerForServers: [link(SYS)] },
    Oem: { Nvidia: link(`${MGR}/Oem/Nvidia`) },
  };
}

/** Every route of a DPU's BMC (sessions and accounts as on the lab's other BMCs). */
export const bluefieldRoutes: Route[] = [
  { pattern: "/redfish", anonymous: ["GET"], methods: { GET: () => ok({ v1: "/redfish/v1/" }) } },
  { pattern: "/redfish/v1", anonymous: ["GET"], methods: { GET: serviceRoot } },
  {
    pattern: "/redfish/v1/Systems",
    methods: get(() =>
      collection("ComputerSystemCollection", "Computer System Collection", "/redfish/v1/Systems", [SYS]),
    ),
  },
  { pattern: SYS, methods: get((ctx) => system(ctx.world, dpuOf(ctx))) },
  { pattern: `${SYS}/Actions/ComputerSystem.Reset`, methods: { POST: resetArm } },
  { pattern: `${SYS}/Oem/Nvidia`, methods: get((ctx) => oemSystem(dpuOf(ctx))) },
  { pattern: `${SYS}/Oem/Nvidia/Actions/Mode.Set`, methods: { POST: setMode } },
  { pattern: `${SYS}/Oem/Nvidia/Actions/HostRshim.Set`, methods: { POST: setHostRshim } },
  {
    pattern: "/redfish/v1/Managers",
    methods: get(() => collection("ManagerCollection", "Manager Collection", "/redfish/v1/Managers", [MGR])),
  },
  { pattern: MGR, methods: get((ctx) => manager(dpuOf(ctx))) },
  {
    pattern: `${MGR}/Oem/Nvidia`,
    methods: {
      GET: (ctx) =>
        ok({
          "@odata.type": "#NvidiaManager.v1_0_0.NvidiaManager",
          "@odata.id": `${MGR}/Oem/Nvidia`,
          BmcRShim: { BmcRShimEnabled: dpuOf(ctx).bmcRshim },
        }),
      PATCH: patchBmcRshim,
    },
  },
  ...bluefieldUpdateRoutes,
  ...sessionRoutes,
];
