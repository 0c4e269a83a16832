/**
 * The BIOS settings object per vendor shape (world/bios-shapes.ts): `Bios/Settings` (Dell, HPE, generic) or
 * `Bios/SD` (Supermicro; the other answers 404). GET shows what the BIOS will hold after the next reset; PATCH stages
 * Attributes, judged against the registry before anything is staged. Dell: a PATCH with `@Redfish.SettingsApplyTime`
 * OnReset creates a config job (202 + Location of `Managers/iDRAC.Embedded.1/Jobs/JID_…`), and any PATCH while that
 * job waits answers 400 with iDRAC's SYS011. Supermicro refuses `@Redfish.SettingsApplyTime` (400 PropertyUnknown).
 * HPE answers 200 with iLO's SystemResetRequired message. src/lab/README.md names the evidence.
 */
import { type BiosValue, checkStage, stage } from "../world/bios.js";
import { BIOS_SHAPES, type BiosShape, scheduledJob, scheduleJob } from "../world/bios-shapes.js";
import type { LabNode } from "../world/model.js";
import { BASE_REGISTRY, RedfishError, type VendorMessage } from "./errors.js";
import { type Ctx, objectBody, ok, type Reply, systemOf } from "./router.js";

/** Dell iDRAC's answer to a settings PATCH while a config job is pending (as bmclib captured it live). */
export const IDRAC_PENDING_COMMITTED: VendorMessage = {
  id: "IDRAC.2.14.SYS011",
  message: "Pending configuration values are already committed, unable to perform another set operation.",
  resolution:
    "Wait for the scheduled job to complete or delete the configuration jobs before attempting more set attribute operations.",
};

/** The shape of a node's BMC. */
export const shapeOf = (n: LabNode): BiosShape => BIOS_SHAPES[n.spec.vendor];

/** The Bios resource's URI. */
export const biosPath = (n: LabNode) => `/redfish/v1/Systems/${n.systemId}/Bios`;

/** The settings object's URI. */
export const settingsPath = (n: LabNode) => `${biosPath(n)}/${shapeOf(n).settingsSegment}`;

/** Apply times a PATCH may name where the BMC judges them. */
const JUDGED_APPLY_TIMES = ["OnReset"];

/** The node when the request's path is its settings object, else 404 (Supermicro has no Bios/Settings, others no SD). */
function settingsNode(ctx: Ctx): LabNode {
  const n = systemOf(ctx);
  if (ctx.path.replace(/\/$/, "") !== settingsPath(n))
    throw new RedfishError(404, "ResourceNotFound", ["Bios", ctx.path.split("/").pop() ?? ""]);
  return n;
}

/** The settings object: what the BIOS will hold after the next reset (Supermicro: only what is pending). */
export function settingsBody(n: LabNode): Record<string, unknown> {
  const b = n.bios;
  const shape = shapeOf(n);
  const attributes = shape.pendingOnly ? { ...b.staged } : { ...b.current, ...b.staged };
  const listed = shape.applyTimes;
  return {
    "@odata.type": "#Bios.v1_2_3.Bios",
    "@odata.id": settingsPath(n),
    Id: shape.settingsSegment,
    Name: "BIOS Configuration Pending Settings",
    AttributeRegistry: b.flavour.registryId,
    ...(shape.pendingOnly && Object.keys(attributes).length === 0 ? {} : { Attributes: attributes }),
    ...(listed
      ? {
          "@Redfish.SettingsApplyTime": {
            "@odata.type": "#Settings.v1_4_0.PreferredApplyTime",
            ApplyTime: "OnReset",
            "ApplyTime@Redfish.AllowableValues": [...listed],
          },
        }
      : {}),
  };
}

/** The PATCH's `@Redfish.SettingsApplyTime`: its ApplyTime when the BMC takes it, else a 400. */
function checkApplyTime(shape: BiosShape, v: unknown): string | undefined {
  const prop = "@Redfish.SettingsApplyTime";
  if (shape.applyTimeInPatch === "refused") throw new RedfishError(400, "PropertyUnknown", [prop]);
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(v), prop]);
  let applyTime: string | undefined;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === "@odata.type") continue;
    if (k !== "ApplyTime") throw new RedfishError(400, "PropertyUnknown", [`${prop}/${k}`]);
    if (typeof x !== "string")
      throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(x), `${prop}/${k}`]);
    if (!JUDGED_APPLY_TIMES.includes(x)) throw new RedfishError(400, "PropertyValueNotInList", [x, `${prop}/${k}`]);
    applyTime = x;
  }
  return applyTime;
}

/** The PATCH body's Attributes and apply time, every other property judged. */
function readPatch(shape: BiosShape, body: Record<string, unknown>): { wanted: Record<string, unknown>; at?: string } {
  let wanted: Record<string, unknown> = {};
  let at: string | undefined;
  for (const [k, v] of Object.entries(body)) {
    if (k === "@Redfish.SettingsApplyTime") at = checkApplyTime(shape, v);
    else if (k === "Attributes") {
      if (typeof v !== "object" || v === null || Array.isArray(v))
        throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(v), k]);
      wanted = v as Record<string, unknown>;
    } else if (k === "Id" || k === "Name" || k === "AttributeRegistry") {
      throw new RedfishError(400, "PropertyNotWritable", [k]);
    } else if (!k.startsWith("@odata.")) throw new RedfishError(400, "PropertyUnknown", [k]);
  }
  return at ? { wanted, at } : { wanted };
}

const message = (id: string, text: string) => ({
  "@odata.type": "#Message.v1_3_0.Message",
  MessageId: id,
  Message: text,
  MessageArgs: [],
  Severity: "OK",
  MessageSeverity: "OK",
});

/** Stages Attributes for the next reset, per the node's vendor shape; the whole PATCH is judged first. */
export function patchSettings(ctx: Ctx): Reply {
  const n = settingsNode(ctx);
  const shape = shapeOf(n);
  if (shape.configJobs && scheduledJob(n.bios))
    throw new RedfishError(
      400,
      "GeneralError",
      ["See ExtendedInfo for more information."],
      {},
      IDRAC_PENDING_COMMITTED,
    );
  const { wanted, at } = readPatch(shape, objectBody(ctx));
  const refused = checkStage(n.bios, wanted);
  if (refused) throw new RedfishError(400, refused.key, refused.args);
  stage(n.bios, wanted as Record<string, BiosValue>);
  if (shape.configJobs && at === "OnReset" && Object.keys(n.bios.staged).length > 0) {
    const job = scheduleJob(n.bios, ctx.world.now());
    const location = `/redfish/v1/Managers/${n.ids.manager}/Jobs/${job.id}`;
    const body = { "@Message.ExtendedInfo": [message(`${BASE_REGISTRY}.Success`, "Successfully Completed Request")] };
    return { status: 202, body, headers: { Location: location } };
  }
  if (shape.patchMessage) {
    return ok({ "@Message.ExtendedInfo": [message(shape.patchMessage.id, shape.patchMessage.text)] });
  }
  return ok(settingsBody(n));
}

/** GET of the settings object. */
export const getSettings = (ctx: Ctx): Reply => ok(settingsBody(settingsNode(ctx)));
