/** UpdateService with FirmwareInventory (and an empty SoftwareInventory), SimpleUpdate and multipart push (update-push.ts). */
import { COMPONENTS, type Component, type LabNode, type World } from "../world/model.js";
import { hasQuirk } from "../world/quirks.js";
import { IDRAC_JOB_RUNNING, RedfishError } from "./errors.js";
import { bmcNode, type Ctx, collection, get, link, objectBody, type Reply, type Route, status } from "./router.js";
import { taskBody } from "./task-service.js";
import { PUSH_ADVERTISEMENT, PUSH_URI, pushUpdate } from "./update-push.js";

const FW = "/redfish/v1/UpdateService/FirmwareInventory";
const SW = "/redfish/v1/UpdateService/SoftwareInventory";
/** A FirmwareInventory member that answers 500 (quirk `dead-member-links`). */
const DEAD_FW = "Unreadable.1";

function inventoryId(n: LabNode, c: Component): string {
  return n.ids.firmware[c];
}

function softwareInventory(world: World, n: LabNode, id: string): Record<string, unknown> {
  if (id === DEAD_FW && hasQuirk(n, "dead-member-links"))
    throw new RedfishError(500, "GeneralError", ["The inventory item could not be read."]);
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
  if (n.tasks.some((t) => ctx.world.taskPercent(t) < 100)) {
    // iDRAC answers 400 with its own SUP0108 where the Base registry would say 409 ResourceInUse.
    if (hasQuirk(n, "vendor-message-ids")) throw new RedfishError(400, "ResourceInUse", [], {}, IDRAC_JOB_RUNNING);
    throw new RedfishError(409, "ResourceInUse");
  }
  const component = componentOf(n, b.ImageURI, b.Targets);
  const version = /(\d+(?:\.\d+)+)/.exec(b.ImageURI.split("/").pop() ?? "")?.[1] ?? `${n.firmware[component]}.1`;
  const t = ctx.world.startUpdate(n, component, version, b.ImageURI);
  if (hasQuirk(n, "accepted-without-location")) {
    // The task is named only in a message argument: no Location header, no Task body.
    const uri = `/redfish/v1/TaskService/Tasks/${t.id}`;
    return {
      status: 202,
      body: {
        "@Message.ExtendedInfo": [
          {
            "@odata.type": "#Message.v1_3_0.Message",
            MessageId: "TaskEvent.1.0.TaskStarted",
            Message: `The task with Id '${uri}' has started.`,
            MessageArgs: [uri],
            MessageSeverity: "OK",
            Severity: "OK",
            Resolution: "None.",
          },
        ],
      },
    };
  }
  return {
    status: 202,
    body: taskBody(ctx.world, t),
    headers: { Location: `/redfish/v1/TaskService/TaskMonitors/${t.id}` },
  };
}

/** Routes of UpdateService. */
export const updateServiceRoutes: Route[] = [
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
      ...PUSH_ADVERTISEMENT,
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
      if (hasQuirk(n, "dead-member-links")) ids.push(`${FW}/${DEAD_FW}`);
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
  { pattern: PUSH_URI, methods: {}, upload: pushUpdate },
];
