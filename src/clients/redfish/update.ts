/**
 * UpdateService.SimpleUpdate and the Task it starts. The BMC answers 202 with a task monitor (Location) and/or
 * a Task body; the Task is polled until a terminal TaskState, with an injectable clock and sleep.
 */
import { RedfishError } from "../errors.js";
import type { HttpCore, HttpResponse } from "../http/core.js";
import { abortableSleep } from "../http/retry.js";
import { expandLevels, getExpanded } from "./expand.js";
import { isObj, isTerminalTaskState, link, members, parseTask } from "./parse.js";
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
  const before = await listTasks(t);
  const started = await t.send("POST", target, { json: body, signal: opts.signal });
  return followUpdate(t, core, started, before, opts);
}

/** Tasks present before an update was started, so the one it starts can be told apart. */
export type TasksBefore = { collection?: string; refs: Set<string> };

/**
 * Follows the task an update request started (`started`: the BMC's answer) until it ends; resolves with the final
 * snapshot or throws TASK_FAILED / TASK_TIMEOUT / TASK_UNTRACKED.
 */
export async function followUpdate(
  t: RedfishTransport,
  core: HttpCore,
  started: HttpResponse,
  before: TasksBefore,
  opts: SimpleUpdateOptions,
): Promise<TaskSnapshot> {
  const uri = await findTask(t, core, started, before);
  const snap = firstSnapshot(started, core, uri);
  if (!uri) {
    if (started.status !== 202) return snap; // The BMC applied it synchronously (200/204 without a task).
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_TASK_UNTRACKED",
      `the BMC at ${t.origin} accepted the firmware update (HTTP 202) but named no task to follow (no Location header, Task body, task in its messages, or new task in TaskService)`,
      { method: "POST", url: started.url, status: 202 },
    );
  }
  return pollTask(t, core, uri, snap, opts);
}

/**
 * Polls the task at `uri` (a Task or a task monitor) from its snapshot `snap` until it ends; resolves with the final
 * snapshot or throws TASK_FAILED / TASK_TIMEOUT. Also how a re-apply follows a task a crashed run left running.
 */
export async function pollTask(
  t: RedfishTransport,
  core: HttpCore,
  taskUri: string,
  first: TaskSnapshot,
  opts: SimpleUpdateOptions,
): Promise<TaskSnapshot> {
  let uri = taskUri;
  let snap = first;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;
  const deadline = now() + (opts.timeoutMs ?? 1_800_000);
  for (;;) {
    opts.onProgress?.(snap);
    if (isTerminalTaskState(snap.state)) break;
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
  if (snap.state?.toLowerCase() !== "completed" || snap.status === "Critical") {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_TASK_FAILED",
      `firmware update task ${uri} ended ${snap.state}${snap.status ? `/${snap.status}` : ""}${snap.messages.length ? `: ${snap.messages.join("; ")}` : ""}`,
      {},
      { task: snap },
    );
  }
  return snap;
}

/** Ids of the tasks in TaskService now (empty when the BMC has no TaskService or it cannot be read). */
export async function listTasks(t: RedfishTransport): Promise<TasksBefore> {
  try {
    const svc = link(await t.root(), "Tasks");
    const collection = svc ? link(await t.getJson(svc), "Tasks") : undefined;
    return { collection, refs: new Set(collection ? members(await t.getJson(collection)) : []) };
  } catch {
    return { refs: new Set() };
  }
}

/** The update tasks of TaskService that have not ended (a re-apply after a crash follows them, never starts anew). */
export async function runningTasks(t: RedfishTransport): Promise<TaskSnapshot[]> {
  let list: RedfishJson;
  try {
    const svc = link(await t.root(), "Tasks");
    const collection = svc ? link(await t.getJson(svc), "Tasks") : undefined;
    if (!collection) return [];
    // Where the service expands, the tasks come in one read of the collection; members left out are read by link.
    list = expandLevels(await t.root()) > 0 ? (await getExpanded(t, collection, 1)).json : await t.getJson(collection);
  } catch {
    return []; // No TaskService, or one that cannot be read: no task to follow (as listTasks).
  }
  const inline = new Map<string, RedfishJson>();
  for (const m of Array.isArray(list.Members) ? list.Members : []) {
    if (isObj(m) && typeof m["@odata.id"] === "string" && "TaskState" in m) inline.set(m["@odata.id"], m);
  }
  const out: TaskSnapshot[] = [];
  for (const ref of members(list)) {
    const json = inline.get(ref) ?? (await t.getJson(ref).catch(() => undefined));
    if (!isObj(json) || !("TaskState" in json)) continue;
    const snap = parseTask(json, ref);
    if (!isTerminalTaskState(snap.state)) out.push(snap);
  }
  return out;
}

/** Task links in a body's @Message.ExtendedInfo MessageArgs (top level or under `error`): paths, or iDRAC job ids. */
function taskFromMessages(json: unknown, tasks: string | undefined): string | undefined {
  if (!isObj(json)) return undefined;
  const err = isObj(json.error) ? json.error : {};
  const infos = [json["@Message.ExtendedInfo"], err["@Message.ExtendedInfo"]].flatMap((v) =>
    Array.isArray(v) ? v : isObj(v) ? [v] : [],
  );
  for (const info of infos) {
    const args = isObj(info) && Array.isArray(info.MessageArgs) ? info.MessageArgs : [];
    for (const a of args) {
      if (typeof a !== "string") continue;
      const path = /\/redfish\/v1\/\S*(?:Tasks|TaskMonitors|Jobs)\/[^\s"']+/.exec(a)?.[0];
      if (path) return path;
      if (tasks && /^JID_\d+$/.test(a.trim())) return `${tasks.replace(/\/+$/, "")}/${a.trim()}`;
    }
  }
  return undefined;
}

/**
 * The task to follow, by DSP0266's order of precedence and then vendors' habits: the Location of a 202 (task
 * monitor), the Task in the body, a task named in the body's @Message.ExtendedInfo arguments, and last a task
 * that appeared in TaskService since just before the request.
 */
async function findTask(
  t: RedfishTransport,
  core: HttpCore,
  res: HttpResponse,
  before: TasksBefore,
): Promise<string | undefined> {
  if (res.status === 202 && res.headers.location) return res.headers.location;
  let j: unknown;
  try {
    j = res.body.trim() ? JSON.parse(res.body) : undefined;
  } catch {
    j = undefined; // Not JSON: nothing to read a task from.
  }
  if (isObj(j) && typeof j["@odata.id"] === "string") {
    const type = typeof j["@odata.type"] === "string" ? j["@odata.type"] : "";
    if ("TaskState" in j || type.startsWith("#Task.")) return j["@odata.id"];
  }
  const fromMessages = taskFromMessages(j, before.collection);
  if (fromMessages) return fromMessages;
  if (res.status !== 202 || !before.collection) return undefined;
  const after = await t.getJson(before.collection).catch(() => ({}));
  const fresh = members(after).filter((r) => !before.refs.has(r));
  if (fresh.length > 0) core.log(`redfish ${t.origin}: 202 without a task link; following new task ${fresh.at(-1)}`);
  return fresh.at(-1);
}

function firstSnapshot(res: HttpResponse, core: HttpCore, uri: string | undefined): TaskSnapshot {
  const j = res.body.trim() ? core.parseJson<unknown>(res) : {};
  if (isObj(j) && "TaskState" in j) return parseTask(j, uri ?? "");
  return { uri: uri ?? "", state: uri ? "New" : "Completed", messages: [] };
}
