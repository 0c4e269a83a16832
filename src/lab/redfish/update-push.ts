/**
 * Multipart HTTP push updates (DSP0266 "Multipart HTTP push updates"): the UpdateService's `MultipartHttpPushUri`
 * takes a multipart/form-data POST with an `UpdateParameters` part (JSON: `Targets`, `@Redfish.OperationApplyTime`)
 * and an `UpdateFile` part (the image), read as it streams (the image's header is held, its payload only hashed;
 * fw-image.ts). The push starts a task like SimpleUpdate's; with OperationApplyTime OnReset the finished image is
 * staged and the inventory keeps the old version until the host's next power-on activates it.
 * Faults: `component-busy` (503 + Retry-After, once unless `count` says more), `bad-signature` (the task ends in
 * Exception naming the image), `power-lost-mid-update` (world/model.ts: the staged image is lost at the reset).
 */
import type { IncomingMessage } from "node:http";
import { COMPONENTS, type Component, type LabNode } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { ImageReader } from "./fw-image.js";
import { boundaryOf, MultipartReader, type PartConsumer, type PartInfo } from "./multipart.js";
import { bmcNode, type Ctx, type Reply } from "./router.js";
import { taskBody } from "./task-service.js";

/** Where images are pushed. */
export const PUSH_URI = "/redfish/v1/UpdateService/upload";
const APPLY_TIMES = ["Immediate", "OnReset"] as const;
type ApplyTime = (typeof APPLY_TIMES)[number];
/** Largest push the lab takes (its images are small); bytes beyond it are read and dropped, then 413. */
const MAX_PUSH = 64 << 20;
/** UpdateParameters properties (UpdateService v1_17_0 schema); only Targets is acted on, the others are accepted. */
const UPDATE_PARAMETERS = new Set(["Targets", "ExcludeTargets", "ForceUpdate", "LocalImage", "Oem", "Stage"]);
/** Largest UpdateParameters part. */
const MAX_PARAMS = 64 << 10;

/** What the UpdateService advertises about pushes. */
export const PUSH_ADVERTISEMENT = {
  MultipartHttpPushUri: PUSH_URI,
  HttpPushUriOptions: {
    HttpPushUriApplyTime: { ApplyTime: "Immediate", "ApplyTime@Redfish.AllowableValues": [...APPLY_TIMES] },
  },
};

/** Reads the request to its end, handing chunks to `onChunk` until it throws or MAX_PUSH is passed. */
function consume(req: IncomingMessage, onChunk: (c: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let size = 0;
    let failed: unknown;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (failed !== undefined) return;
      if (size > MAX_PUSH) failed = new RedfishError(413, "GeneralError", ["The pushed image is too large."]);
      else {
        try {
          onChunk(c);
        } catch (e) {
          failed = e;
        }
      }
    });
    req.on("end", () => (failed === undefined ? resolve() : reject(failed)));
    req.on("error", reject);
  });
}

/** A push as read: its parameters and the image (undefined when there was no UpdateFile part). */
interface Upload {
  readonly params: Record<string, unknown>;
  readonly file?: { readonly name: string; readonly reader: ImageReader };
}

async function readUpload(req: IncomingMessage, boundary: string): Promise<Upload> {
  let params: Buffer | undefined;
  let file: Upload["file"];
  const open = (p: PartInfo): PartConsumer => {
    if (p.name === "UpdateParameters") {
      params = Buffer.alloc(0);
      return {
        data: (c) => {
          params = Buffer.concat([params ?? Buffer.alloc(0), c]);
          if (params.length > MAX_PARAMS)
            throw new RedfishError(413, "GeneralError", ["UpdateParameters is too large."]);
        },
        end: () => undefined,
      };
    }
    if (p.name === "UpdateFile") {
      const reader = new ImageReader();
      file = { name: p.filename || "image", reader };
      return { data: (c) => reader.feed(c), end: () => undefined };
    }
    return { data: () => undefined, end: () => undefined }; // Oem parts: read and ignored.
  };
  const multipart = new MultipartReader(boundary, open);
  await consume(req, (c) => multipart.feed(c));
  multipart.finish();
  if (params === undefined) throw new RedfishError(400, "PropertyMissing", ["UpdateParameters"]);
  let json: unknown;
  try {
    json = JSON.parse(params.toString("utf8"));
  } catch {
    throw new RedfishError(400, "MalformedJSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new RedfishError(400, "MalformedJSON");
  return { params: json as Record<string, unknown>, ...(file ? { file } : {}) };
}

/** The components named by `Targets` (FirmwareInventory URIs of this BMC); empty when none are named. */
function targetsOf(n: LabNode, targets: unknown): Component[] {
  if (targets === undefined) return [];
  if (!Array.isArray(targets))
    throw new RedfishError(400, "PropertyValueTypeError", [JSON.stringify(targets), "Targets"]);
  return targets.map((x) => {
    const id = typeof x === "string" ? x.replace(/\/$/, "").split("/").pop() : undefined;
    const c = COMPONENTS.find(
      (k) => n.ids.firmware[k] === id && x === `/redfish/v1/UpdateService/FirmwareInventory/${id}`,
    );
    if (!c) throw new RedfishError(400, "PropertyValueNotInList", [String(x), "Targets"]);
    return c;
  });
}

/** The parameters checked: what the image is for and when it applies. */
function checkParams(n: LabNode, params: Record<string, unknown>): { targets: Component[]; applyTime: ApplyTime } {
  for (const k of Object.keys(params))
    if (!UPDATE_PARAMETERS.has(k) && k !== "@Redfish.OperationApplyTime")
      throw new RedfishError(400, "PropertyUnknown", [k]);
  const at =
    params["@Redfish.OperationApplyTime"] ?? PUSH_ADVERTISEMENT.HttpPushUriOptions.HttpPushUriApplyTime.ApplyTime;
  if (typeof at !== "string" || !APPLY_TIMES.includes(at as ApplyTime))
    throw new RedfishError(400, "PropertyValueNotInList", [String(at), "@Redfish.OperationApplyTime"]);
  return { targets: targetsOf(n, params.Targets), applyTime: at as ApplyTime };
}

/** Refuses a push now: 503 while the component-busy fault fires, 409 while another update runs. */
function busy(ctx: Ctx, n: LabNode): RedfishError | undefined {
  const scope = { node: n.spec.name, path: ctx.path, method: ctx.method };
  const f = ctx.world.faults.take("component-busy", scope);
  if (f) {
    // Fires once unless the fault's count says more times.
    if (f.count === undefined) ctx.world.faults.remove(f.id);
    const s = String(f.retryAfterS ?? 1);
    return new RedfishError(503, "ServiceTemporarilyUnavailable", [s], { "Retry-After": s });
  }
  ctx.world.settleTasks(n);
  if (n.tasks.some((t) => ctx.world.taskPercent(t) < 100)) return new RedfishError(409, "ResourceInUse");
  return undefined;
}

/** Why the image cannot be installed (a message naming it), or undefined. */
function imageProblem(
  ctx: Ctx,
  n: LabNode,
  file: NonNullable<Upload["file"]>,
  targets: Component[],
): string | undefined {
  const facts = file.reader.facts();
  if (!facts.component) return `Image '${file.name}' is not a firmware package this BMC accepts (no RFIMG header).`;
  if (!facts.signed || ctx.world.faults.take("bad-signature", { node: n.spec.name }))
    return `Image '${file.name}' failed signature verification; it was not installed.`;
  if (targets.length > 0 && !targets.includes(facts.component))
    return `Image '${file.name}' is for the ${facts.component} firmware, not the target ${n.ids.firmware[targets[0]]}.`;
  return undefined;
}

/** POST MultipartHttpPushUri: 202 with a Task and its monitor in Location. */
export async function pushUpdate(ctx: Ctx, req: IncomingMessage): Promise<Reply> {
  const n = bmcNode(ctx);
  const ct = ctx.headers["content-type"];
  const boundary = boundaryOf(typeof ct === "string" ? ct : undefined);
  const refusal = boundary
    ? busy(ctx, n)
    : new RedfishError(415, "GeneralError", ["The push must be multipart/form-data with a boundary."]);
  if (refusal || !boundary) {
    await consume(req, () => undefined).catch(() => undefined);
    throw refusal;
  }
  const upload = await readUpload(req, boundary);
  const { targets, applyTime } = checkParams(n, upload.params);
  if (!upload.file) throw new RedfishError(400, "PropertyMissing", ["UpdateFile"]);
  const facts = upload.file.reader.facts();
  const failure = imageProblem(ctx, n, upload.file, targets);
  const component = facts.component ?? targets[0] ?? "bmc";
  const version = facts.version ?? n.firmware[component];
  const t = ctx.world.startUpdate(n, component, version, upload.file.name, {
    applyTime,
    ...(failure ? { failure } : {}),
  });
  ctx.world.settleTasks(n); // An instant task is already staged (or applied) in the body answered now.
  return {
    status: 202,
    body: taskBody(ctx.world, t),
    headers: { Location: `/redfish/v1/TaskService/TaskMonitors/${t.id}` },
  };
}
