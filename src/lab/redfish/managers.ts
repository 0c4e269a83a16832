/** Managers: the BMC itself and its Manager.Reset. */
import type { LabNode, World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { LOG_PLACEMENT, logServicesPath } from "./log-service.js";
import { bmcNode, type Ctx, collection, get, iso, link, type Route, status } from "./router.js";

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
    ...(LOG_PLACEMENT[n.spec.vendor].under === "Managers" ? { LogServices: link(logServicesPath(n)) } : {}),
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

/** Routes of Managers. */
export const managerRoutes: Route[] = [
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
];
