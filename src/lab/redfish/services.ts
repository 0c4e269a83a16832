/** Manager (BMC), Chassis with Power/Thermal, UpdateService with FirmwareInventory and SimpleUpdate, TaskService. */
import { COMPONENTS, type Component, type LabNode, type UpdateTask, type World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import {
  bmcNode,
  type Ctx,
  chassisOf,
  collection,
  iso,
  link,
  objectBody,
  ok,
  type Reply,
  type Route,
  status,
} from "./router.js";

const FW = "/redfish/v1/UpdateService/FirmwareInventory";
const SW = "/redfish/v1/UpdateService/SoftwareInventory";
const TASKS = "/redfish/v1/TaskService/Tasks";

function managerOf(ctx: Ctx): LabNode {
  const n = bmcNode(ctx);
  if (ctx.params.mgr !== n.ids.manager) throw new RedfishError(404, "ResourceNotFound", ["Manager", ctx.params.mgr]);
  return n;
}

function manager(world: World, n: LabNode): Record<string, unknown> {
  const path = `/redfish/v1/Managers/${n.ids.manager}`;
  return {
    "@odata.type": "#Manager.v1_24_0.Manager",
    "@odata.id": path,
    Id: n.ids.manager,
    Name: n.ids.bmcName,
    ManagerType: "BMC",
    Manufacturer: n.spec.hardware.manufacturer,
    Model: n.ids.bmcName,
    FirmwareVersion: world.firmwareVersion(n, "bmc"),
    UUID: n.uuid,
    PowerState: "On",
    DateTime: iso(world.now()),
    Status: status(),
    VirtualMedia: link(`${path}/VirtualMedia`),
    Links: {
      ManagerForServers: [link(`/redfish/v1/Systems/${n.systemId}`)],
      ManagerForChassis: [link(`/redfish/v1/Chassis/${n.chassisId}`)],
    },
    Actions: {
      "#Manager.Reset": {
        target: `${path}/Actions/Manager.Reset`,
        "ResetType@Redfish.AllowableValues": ["GracefulRestart", "ForceRestart"],
      },
    },
  };
}

function chassis(world: World, n: LabNode): Record<string, unknown> {
  const path = `/redfish/v1/Chassis/${n.chassisId}`;
  return {
    "@odata.type": "#Chassis.v1_28_0.Chassis",
    "@odata.id": path,
    Id: n.chassisId,
    Name: `${n.spec.hardware.model} chassis`,
    ChassisType: "RackMount",
    Manufacturer: n.spec.hardware.manufacturer,
    Model: n.spec.hardware.model,
    SerialNumber: n.serial,
    PowerState: world.powerState(n),
    Location: { Placement: { Rack: n.spec.rack, RackOffset: n.spec.u, RackOffsetUnits: "EIA_310" } },
    Status: status(),
    Power: link(`${path}/Power`),
    Thermal: link(`${path}/Thermal`),
    PCIeDevices: link(`${path}/PCIeDevices`),
    Links: {
      ComputerSystems: [link(`/redfish/v1/Systems/${n.systemId}`)],
      ManagedBy: [link(`/redfish/v1/Managers/${n.ids.manager}`)],
    },
  };
}

function inventoryId(n: LabNode, c: Component): string {
  return n.ids.firmware[c];
}

function softwareInventory(world: World, n: LabNode, id: string): Record<string, unknown> {
  const c = COMPONENTS.find((x) => inventoryId(n, x) === id && (x !== "gpu" || n.gpus.length > 0));
  if (!c) throw new RedfishError(404, "ResourceNotFound", ["SoftwareInventory", id]);
  const names: Record<Component, string> = {
    bmc: `${n.ids.bmcName} firmware`,
    bios: "BIOS",
    gpu: "GPU firmware",
    nic: "NIC firmware",
  };
  return {
    "@odata.type": "#SoftwareInventory.v1_13_0.SoftwareInventory",
    "@odata.id": `${FW}/${id}`,
    Id: id,
    Name: names[c],
    Version: world.firmwareVersion(n, c),
    Updateable: true,
    Status: status(),
    RelatedItem: [link(c === "bmc" ? `/redfish/v1/Managers/${n.ids.manager}` : `/redfish/v1/Systems/${n.systemId}`)],
  };
}

/** Task body; TaskState is derived from simulated time. */
function taskBody(world: World, t: UpdateTask): Record<string, unknown> {
  const pct = world.taskPercent(t);
  const done = pct >= 100;
  const state = !done ? (pct === 0 ? "New" : "Running") : t.fails ? "Exception" : "Completed";
  const msg = t.fails
    ? "The firmware image failed verification."
    : done
      ? "The task completed successfully."
      : "The task is running.";
  return {
    "@odata.type": "#Task.v1_7_4.Task",
    "@odata.id": `${TASKS}/${t.id}`,
    Id: t.id,
    Name: `Firmware update (${t.component})`,
    TaskState: state,
    TaskStatus: t.fails && done ? "Critical" : "OK",
    PercentComplete: pct,
    StartTime: iso(t.startedAt),
    ...(done ? { EndTime: iso(t.startedAt + t.durationMs) } : {}),
    TaskMonitor: `/redfish/v1/TaskService/TaskMonitors/${t.id}`,
    Messages: [
      {
        MessageId: t.fails && done ? "Base.1.18.GeneralError" : "Base.1.18.Success",
        Message: msg,
        Severity: t.fails && done ? "Critical" : "OK",
      },
    ],
  };
}

function taskOf(ctx: Ctx): UpdateTask {
  const n = bmcNode(ctx);
  ctx.world.settleTasks(n);
  const t = n.tasks.find((x) => x.id === ctx.params.id);
  if (!t) throw new RedfishError(404, "ResourceNotFound", ["Task", ctx.params.id]);
  return t;
}

/** Which component an image is for: an explicit Target, else a keyword in the file name. */
function componentOf(n: LabNode, uri: string, targets: unknown): Component {
  if (Array.isArray(targets) && targets.length > 0) {
    const id = String(targets[0]).split("/").pop();
    const c = COMPONENTS.find((x) => inventoryId(n, x) === id);
    if (!c)
      throw new RedfishError(400, "ActionParameterValueNotInList", [
        String(targets[0]),
        "Targets",
        "UpdateService.SimpleUpdate",
      ]);
    return c;
  }
  const file = uri.split("/").pop()?.toLowerCase() ?? "";
  const c = COMPONENTS.find((x) => file.includes(x)) ?? (file.includes("idrac") ? "bmc" : undefined);
  if (!c) throw new RedfishError(400, "ActionParameterValueNotInList", [uri, "ImageURI", "UpdateService.SimpleUpdate"]);
  return c;
}

function simpleUpdate(ctx: Ctx): Reply {
  const n = bmcNode(ctx);
  const b = objectBody(ctx);
  if (typeof b.ImageURI !== "string")
    throw new RedfishError(400, "ActionParameterMissing", ["UpdateService.SimpleUpdate", "ImageURI"]);
  ctx.world.settleTasks(n);
  if (n.tasks.some((t) => ctx.world.taskPercent(t) < 100)) throw new RedfishError(409, "ResourceInUse");
  const component = componentOf(n, b.ImageURI, b.Targets);
  const version = /(\d+(?:\.\d+)+)/.exec(b.ImageURI.split("/").pop() ?? "")?.[1] ?? `${n.firmware[component]}.1`;
  const t = ctx.world.startUpdate(n, component, version, b.ImageURI);
  return {
    status: 202,
    body: taskBody(ctx.world, t),
    headers: { Location: `/redfish/v1/TaskService/TaskMonitors/${t.id}` },
  };
}

const get = (fn: (ctx: Ctx) => unknown) => ({ GET: (ctx: Ctx) => ok(fn(ctx)) });

/** Routes of Managers, Chassis, UpdateService and TaskService. */
export const serviceRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Managers",
    methods: get((ctx) =>
      collection("ManagerCollection", "Manager Collection", "/redfish/v1/Managers", [
        `/redfish/v1/Managers/${bmcNode(ctx).ids.manager}`,
      ]),
    ),
  },
  { pattern: "/redfish/v1/Managers/:mgr", methods: get((ctx) => manager(ctx.world, managerOf(ctx))) },
  {
    pattern: "/redfish/v1/Managers/:mgr/Actions/Manager.Reset",
    methods: {
      POST: (ctx) => {
        ctx.world.resetBmc(managerOf(ctx));
        return { status: 204 };
      },
    },
  },
  {
    pattern: "/redfish/v1/Chassis",
    methods: get((ctx) =>
      collection("ChassisCollection", "Chassis Collection", "/redfish/v1/Chassis", [
        `/redfish/v1/Chassis/${bmcNode(ctx).chassisId}`,
      ]),
    ),
  },
  { pattern: "/redfish/v1/Chassis/:ch", methods: get((ctx) => chassis(ctx.world, chassisOf(ctx))) },
  {
    pattern: "/redfish/v1/Chassis/:ch/Power",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const on = ctx.world.powerState(n) === "On";
      const watts = on ? 650 + ctx.world.visibleGpus(n).length * 350 : 0;
      return {
        "@odata.type": "#Power.v1_7_1.Power",
        "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Power`,
        Id: "Power",
        Name: "Power",
        PowerControl: [
          {
            "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Power#/PowerControl/0`,
            MemberId: "0",
            Name: "System Power",
            PowerConsumedWatts: watts,
            PowerCapacityWatts: 10_200,
          },
        ],
      };
    }),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/Thermal",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const on = ctx.world.powerState(n) === "On";
      return {
        "@odata.type": "#Thermal.v1_7_1.Thermal",
        "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Thermal`,
        Id: "Thermal",
        Name: "Thermal",
        Temperatures: [
          {
            "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Thermal#/Temperatures/0`,
            MemberId: "0",
            Name: "Inlet Temp",
            ReadingCelsius: on ? 24 : 21,
            Status: status(),
          },
        ],
        Fans: [
          {
            "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Thermal#/Fans/0`,
            MemberId: "0",
            Name: "Fan 1",
            Reading: on ? 9800 : 0,
            ReadingUnits: "RPM",
            Status: status(),
          },
        ],
      };
    }),
  },
  {
    pattern: "/redfish/v1/UpdateService",
    methods: get(() => ({
      "@odata.type": "#UpdateService.v1_17_0.UpdateService",
      "@odata.id": "/redfish/v1/UpdateService",
      Id: "UpdateService",
      Name: "Update Service",
      ServiceEnabled: true,
      Status: status(),
      FirmwareInventory: link(FW),
      SoftwareInventory: link(SW),
      Actions: {
        "#UpdateService.SimpleUpdate": {
          target: "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate",
          "TransferProtocol@Redfish.AllowableValues": ["HTTP", "HTTPS"],
        },
      },
    })),
  },
  {
    pattern: FW,
    methods: get((ctx) => {
      const n = bmcNode(ctx);
      const ids = COMPONENTS.filter((c) => c !== "gpu" || n.gpus.length > 0).map((c) => `${FW}/${inventoryId(n, c)}`);
      return collection("SoftwareInventoryCollection", "Firmware Inventory Collection", FW, ids);
    }),
  },
  // Host software (OS, drivers) is not modelled; an empty collection is what a BMC with no agent reports.
  {
    pattern: SW,
    methods: get(() => collection("SoftwareInventoryCollection", "Software Inventory Collection", SW, [])),
  },
  { pattern: `${FW}/:id`, methods: get((ctx) => softwareInventory(ctx.world, bmcNode(ctx), ctx.params.id)) },
  { pattern: "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate", methods: { POST: simpleUpdate } },
  {
    pattern: "/redfish/v1/TaskService",
    methods: get(() => ({
      "@odata.type": "#TaskService.v1_3_0.TaskService",
      "@odata.id": "/redfish/v1/TaskService",
      Id: "TaskService",
      Name: "Task Service",
      ServiceEnabled: true,
      CompletedTaskOverWritePolicy: "Oldest",
      LifeCycleEventOnTaskStateChange: true,
      Status: status(),
      Tasks: link(TASKS),
    })),
  },
  {
    pattern: TASKS,
    methods: get((ctx) =>
      collection(
        "TaskCollection",
        "Task Collection",
        TASKS,
        bmcNode(ctx).tasks.map((t) => `${TASKS}/${t.id}`),
      ),
    ),
  },
  { pattern: `${TASKS}/:id`, methods: get((ctx) => taskBody(ctx.world, taskOf(ctx))) },
  {
    pattern: "/redfish/v1/TaskService/TaskMonitors/:id",
    methods: {
      GET: (ctx) => {
        const t = taskOf(ctx);
        const running = ctx.world.taskPercent(t) < 100;
        const headers: Record<string, string> = running
          ? { Location: `/redfish/v1/TaskService/TaskMonitors/${t.id}`, "Retry-After": "1" }
          : {};
        return { status: running ? 202 : 200, body: taskBody(ctx.world, t), headers };
      },
    },
  },
];
