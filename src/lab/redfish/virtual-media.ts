/** Manager VirtualMedia (a virtual CD): InsertMedia/EjectMedia, as Ironic's redfish-virtual-media boot uses it. */
import type { LabNode } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { bmcNode, type Ctx, collection, objectBody, ok, type Reply, type Route } from "./router.js";

const DEVICE = "CD1";

function target(ctx: Ctx): { node: LabNode; path: string } {
  const node = bmcNode(ctx);
  if (ctx.params.mgr !== node.ids.manager) throw new RedfishError(404, "ResourceNotFound", ["Manager", ctx.params.mgr]);
  if (ctx.params.vm !== undefined && ctx.params.vm !== DEVICE)
    throw new RedfishError(404, "ResourceNotFound", ["VirtualMedia", ctx.params.vm]);
  return { node, path: `/redfish/v1/Managers/${node.ids.manager}/VirtualMedia` };
}

function body(node: LabNode, base: string): Record<string, unknown> {
  const path = `${base}/${DEVICE}`;
  const vm = node.virtualMedia;
  return {
    "@odata.type": "#VirtualMedia.v1_6_5.VirtualMedia",
    "@odata.id": path,
    Id: DEVICE,
    Name: "Virtual CD",
    MediaTypes: ["CD", "DVD"],
    Image: vm.image,
    ImageName: vm.image ? (vm.image.split("/").pop() ?? null) : null,
    ConnectedVia: vm.inserted ? "URI" : "NotConnected",
    Inserted: vm.inserted,
    WriteProtected: vm.writeProtected,
    TransferProtocolType: vm.image?.startsWith("https") ? "HTTPS" : vm.image ? "HTTP" : null,
    Actions: {
      "#VirtualMedia.InsertMedia": { target: `${path}/Actions/VirtualMedia.InsertMedia` },
      "#VirtualMedia.EjectMedia": { target: `${path}/Actions/VirtualMedia.EjectMedia` },
    },
  };
}

function insert(ctx: Ctx): Reply {
  const { node } = target(ctx);
  const b = objectBody(ctx);
  const action = "VirtualMedia.InsertMedia";
  if (typeof b.Image !== "string" || b.Image === "")
    throw new RedfishError(400, "ActionParameterMissing", [action, "Image"]);
  if (!/^https?:\/\//.test(b.Image))
    throw new RedfishError(400, "ActionParameterValueNotInList", [b.Image, "Image", action]);
  if (node.virtualMedia.inserted) throw new RedfishError(409, "ResourceInUse");
  node.virtualMedia = { image: b.Image, inserted: b.Inserted !== false, writeProtected: b.WriteProtected !== false };
  return { status: 204 };
}

/** Routes of the virtual CD. */
export const virtualMediaRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Managers/:mgr/VirtualMedia",
    methods: {
      GET: (ctx) =>
        ok(
          collection("VirtualMediaCollection", "Virtual Media Services", target(ctx).path, [
            `${target(ctx).path}/${DEVICE}`,
          ]),
        ),
    },
  },
  {
    pattern: "/redfish/v1/Managers/:mgr/VirtualMedia/:vm",
    methods: {
      GET: (ctx) => {
        const { node, path } = target(ctx);
        return ok(body(node, path));
      },
    },
  },
  { pattern: "/redfish/v1/Managers/:mgr/VirtualMedia/:vm/Actions/VirtualMedia.InsertMedia", methods: { POST: insert } },
  {
    pattern: "/redfish/v1/Managers/:mgr/VirtualMedia/:vm/Actions/VirtualMedia.EjectMedia",
    methods: {
      POST: (ctx) => {
        const { node } = target(ctx);
        node.virtualMedia = { image: null, inserted: false, writeProtected: true };
        return { status: 204 };
      },
    },
  },
];
