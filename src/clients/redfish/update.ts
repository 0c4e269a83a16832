/**
 * UpdateService.SimpleUpdate and the Task it starts. The BMC answers 202 with a task monitor (Location) and/or
 * a Task body; the Task is polled until a terminal TaskState, with an injectable clock and sleep.
 */
import { RedfishError } from "../errors.js";
import type { HttpCore, HttpResponse } from "../http/core.js";
import { abortableSleep } from "../http/retry.js";
import { isObj, parseTask, TERMINAL_TASK_STATES } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson, TaskSnapshot } from "./types.js";

/** Options of simpleUpdate. */
export interface SimpleUpdateOptions {
  /** TransferProtocol to send (HTTP, HTTPS…); left out when the ImageURI's scheme says it. @default undefined */
  readonly transferProtocol?: string;
  /** Give up polling after this long. @default 1_800_000 (30 min) */
  readonly timeoutMs?: number;
  /** Pause between polls. @default 5_000 */
  readonly pollIntervalMs?: number;
  /** Called after every poll. */
  readonly onProgress?: (task: TaskSnapshot) => void;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly signal?: AbortSignal;
}

/** Starts the update and waits for its task; resolves with the final snapshot or throws TASK_FAILED/TASK_TIMEOUT. */
export async function runSimpleUpdate(
  t: RedfishTransport,
  core: HttpCore,
  updateService: RedfishJson,
  imageUri: string,
  targets: readonly string[],
  opts: SimpleUpdateOptions,
): Promise<TaskSnapshot> {
  const actions = isObj(updateService.Actions) ? updateService.Actions : {};
  const action = actions["#UpdateService.SimpleUpdate"];
  const target = isObj(action) && typeof action.target === "string" ? action.target : undefined;
  if (!target) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED",
      `the UpdateService at ${t.origin} has no #UpdateService.SimpleUpdate action`,
    );
  }
  const body: Record<string, unknown> = { ImageURI: imageUri };
  if (targets.length) body.Targets = [...targets];
  if (opts.transferProtocol) body.TransferProtocol = opts.transferProtocol;
  const started = await t.send("POST", target, { json: body, signal: opts.signal });
  let uri = taskUri(started);
  let snap = firstSnapshot(started, core, uri);
  if (!uri) return snap; // The BMC applied it synchronously (200/204 without a task).
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;
  const deadline = now() + (opts.timeoutMs ?? 1_800_000);
  for (;;) {
    opts.onProgress?.(snap);
    if (snap.state && TERMINAL_TASK_STATES.has(snap.state)) break;
    if (now() >= deadline) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_TASK_TIMEOUT",
        `firmware update task ${uri} still ${snap.state ?? "running"} (${snap.percentComplete ?? "?"}%) after ${opts.timeoutMs ?? 1_800_000} ms`,
        {},
        { task: snap },
      );
    }
    await sleep(opts.pollIntervalMs ?? 5_000, opts.signal);
    const res = await t.send("GET", uri, { signal: opts.signal, okStatus: (s) => s < 300 });
    const json = res.body.trim() ? core.parseJson<unknown>(res) : {};
    snap =
      isObj(json) && "TaskState" in json
        ? parseTask(json, uri)
        : { ...snap, state: res.status === 202 ? snap.state : "Completed" };
    // A task monitor may hand over to the Task resource itself.
    if (isObj(json) && typeof json["@odata.id"] === "string" && json["@odata.id"] !== uri) uri = json["@odata.id"];
  }
  if (snap.state !== "Completed" || snap.status === "Critical") {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_TASK_FAILED",
      `firmware update task ${uri} ended ${snap.state}${snap.status ? `/${snap.status}` : ""}${snap.messages.length ? `: ${snap.messages.join("; ")}` : ""}`,
      {},
      { task: snap },
    );
  }
  return snap;
}

function taskUri(res: HttpResponse): string | undefined {
  try {
    const j = res.body.trim() ? JSON.parse(res.body) : undefined;
    if (isObj(j) && typeof j["@odata.id"] === "string" && "TaskState" in j) return j["@odata.id"];
  } catch {
    // Not JSON: fall back to the Location header.
  }
  return res.status === 202 ? res.headers.location : undefined;
}

function firstSnapshot(res: HttpResponse, core: HttpCore, uri: string | undefined): TaskSnapshot {
  const j = res.body.trim() ? core.parseJson<unknown>(res) : {};
  if (isObj(j) && "TaskState" in j) return parseTask(j, uri ?? "");
  return { uri: uri ?? "", state: uri ? "New" : "Completed", messages: [] };
}
