/**
 * A BlueField DPU BMC's UpdateService and TaskService: FirmwareInventory (BMC_Firmware, DPU_NIC, DPU_OS) and a BFB
 * install through SimpleUpdate targeting DPU_OS, answered 202 with a Task whose progress follows simulated time.
 */
import { type BfbTask, DPU_BMC_FIRMWARE, DPU_NIC_FIRMWARE, type LabDpu } from "../world/dpu.js";
import type { World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { type Ctx, collection, get, iso, link, objectBody, type Reply, type Route, status } from "./router.js";

const FW = "/redfish/v1/UpdateService/FirmwareInventory";
const TASKS = "/redfish/v1/TaskService/Tasks";
const RSHIM_BOOT = "/dev/rshim0/boot";

function dpuOf(ctx: Ctx): LabDpu {
  if (ctx.target.kind !== "dpu") throw new RedfishError(404, "ResourceNotFound", ["Resource", ctx.path]);
  return ctx.target.dpu;
}

function inventory(world: World, d: LabDpu, id: string): Record<string, unknown> {
  world.dpuClock.settle(d);
  const items: Record<string, { name: string; version: string; description: string }> = {
    BMC_Firmware: { name: "Software Inventory", version: DPU_BMC_FIRMWARE, description: "BMC image" },
    DPU_NIC: { name: "Software Inventory", version: DPU_NIC_FIRMWARE, description: "NIC firmware" },
    DPU_OS: { name: "Software Inventory", version: d.bfb, description: "Host image" },
  };
  const item = items[id];
  if (!item) throw new RedfishError(404, "ResourceNotFound", ["SoftwareInventory", id]);
  return {
    "@odata.type": "#SoftwareInventory.v1_13_0.SoftwareInventory",
    "@odata.id": `${FW}/${id}`,
    Id: id,
    Name: item.name,
    Description: item.description,
    Version: item.version,
    Updateable: id === "DPU_OS",
    Status: status(),
  };
}

/** Task body; TaskState follows simulated time: New, Running, then Completed or Exception. */
function taskBody(world: World, d: LabDpu, t: BfbTask): Record<string, unknown> {
  const pct = world.dpuClock.percent(t);
  const done = pct >= 100;
  const file = t.imageUri.split("/").pop() ?? t.imageUri;
  const failed = done && t.failure !== undefined;
  const messages: Record<string, unknown>[] = [
    {
      "@odata.type": "#Message.v1_3_0.Message",
      MessageId: "Update.1.0.TransferringToComponent",
      Message: `Image '${file}' is being transferred to '${RSHIM_BOOT}'.`,
      MessageArgs: [file, RSHIM_BOOT],
      MessageSeverity: "OK",
      Resolution: `Transfer is ${Math.min(pct, 100)}%. Please wait`,
    },
  ];
  if (failed) {
    messages.push({
      "@odata.type": "#Message.v1_3_0.Message",
      MessageId: "Update.1.0.TransferFailed",
      Message: `Transfer of image '${file}' to '${RSHIM_BOOT}' failed. ${t.failure}`,
      MessageArgs: [file, RSHIM_BOOT],
      MessageSeverity: "Critical",
      Resolution: "Check the BFB image and the BMC RShim, then retry the update.",
    });
  } else if (done) {
    messages.push({
      "@odata.type": "#Message.v1_3_0.Message",
      MessageId: "Update.1.0.UpdateSuccessful",
      Message: `Device 'DPU_OS' successfully updated with image '${file}'.`,
      MessageArgs: ["DPU_OS", file],
      MessageSeverity: "OK",
      Resolution: "None",
    });
  }
  return {
    "@odata.type": "#Task.v1_7_4.Task",
    "@odata.id": `${TASKS}/${t.id}`,
    Id: t.id,
    Name: "Task",
    TaskState: !done ? (pct === 0 ? "New" : "Running") : failed ? "Exception" : "Completed",
    TaskStatus: failed ? "Critical" : "OK",
    PercentComplete: pct,
    StartTime: iso(t.startedAt),
    ...(done ? { EndTime: iso(t.startedAt + t.durationMs) } : {}),
    Payload: {
      HttpOperation: "POST",
      TargetUri: "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate",
      JsonBody: JSON.stringify({ ImageURI: t.imageUri, Targets: [`${FW}/DPU_OS`] }),
    },
    Messages: messages,
    Links: { CreatedResources: [link(`${FW}/DPU_OS`)] },
    Oem: { Nvidia: { Device: d.id } },
  };
}

function simpleUpdate(ctx: Ctx): Reply {
  const d = dpuOf(ctx);
  const b = objectBody(ctx);
  const action = "UpdateService.SimpleUpdate";
  if (typeof b.ImageURI !== "string") throw new RedfishError(400, "ActionParameterMissing", [action, "ImageURI"]);
  const protocol = b.TransferProtocol ?? "HTTP";
  if (protocol !== "HTTP" && protocol !== "HTTPS")
    throw new RedfishError(400, "ActionParameterValueNotInList", [String(protocol), "TransferProtocol", action]);
  const targets = Array.isArray(b.Targets) ? b.Targets.map(String) : [];
  if (targets.length !== 1 || !/^\/?redfish\/v1\/UpdateService\/FirmwareInventory\/DPU_OS$/.test(targets[0]))
    throw new RedfishError(400, "ActionParameterValueNotInList", [JSON.stringify(b.Targets), "Targets", action]);
  if (ctx.world.dpuClock.arm(d) === "installing") throw new RedfishError(409, "ResourceInUse");
  const fault =
    ctx.world.faults.take("bfb-install-failure", { node: d.id }) ??
    ctx.world.faults.take("bfb-install-failure", { node: d.nodeName });
  const failure = fault
    ? "The BlueField did not boot the image (bfb-install-failure)."
    : !d.bmcRshim
      ? "The BMC RShim is not enabled (PATCH Managers/Bluefield_BMC/Oem/Nvidia BmcRShim)."
      : undefined;
  const t = ctx.world.dpuClock.startInstall(d, b.ImageURI, failure);
  return { status: 202, body: taskBody(ctx.world, d, t), headers: { Location: `${TASKS}/${t.id}` } };
}

function taskOf(ctx: Ctx): { d: LabDpu; t: BfbTask } {
  const d = dpuOf(ctx);
  ctx.world.dpuClock.settle(d);
  const t = d.tasks.find((x) => x.id === ctx.params.id);
  if (!t) throw new RedfishError(404, "ResourceNotFound", ["Task", ctx.params.id]);
  return { d, t };
}

/** Routes of a DPU BMC's UpdateService and TaskService. */
export const bluefieldUpdateRoutes: Route[] = [
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
    methods: get(() =>
      collection(
        "SoftwareInventoryCollection",
        "Software Inventory Collection",
        FW,
        ["BMC_Firmware", "DPU_NIC", "DPU_OS"].map((id) => `${FW}/${id}`),
      ),
    ),
  },
  { pattern: `${FW}/:id`, methods: get((ctx) => inventory(ctx.world, dpuOf(ctx), ctx.params.id)) },
  { pattern: "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate", methods: { POST: simpleUpdate } },
  {
    pattern: "/redfish/v1/TaskService",
    methods: get(() => ({
      "@odata.type": "#TaskService.v1_3_0.TaskService",
      "@odata.id": "/redfish/v1/TaskService",
      Id: "TaskService",
      Name: "Task Service",
      ServiceEnabled: true,
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
        dpuOf(ctx).tasks.map((t) => `${TASKS}/${t.id}`),
      ),
    ),
  },
  {
    pattern: `${TASKS}/:id`,
    methods: get((ctx) => {
      const { d, t } = taskOf(ctx);
      return taskBody(ctx.world, d, t);
    }),
  },
];
