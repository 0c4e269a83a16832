/** TaskService: firmware update tasks and their monitors, their state derived from simulated time. */
import type { UpdateTask, World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { bmcNode, type Ctx, collection, get, iso, link, type Route, status } from "./router.js";

const TASKS = "/redfish/v1/TaskService/Tasks";

const message = (id: string, text: string, severity: string, args?: readonly string[]) => ({
  "@odata.type": "#Message.v1_3_0.Message",
  MessageId: id,
  Message: text,
  ...(args ? { MessageArgs: [...args] } : {}),
  MessageSeverity: severity,
  Severity: severity,
});

/**
 * Messages of an ended task that pushed an OnReset image (Update message registry): awaiting activation at the
 * next reset, activated by it, or lost by it (power lost mid-activation: the old firmware stays).
 */
function activationMessages(t: UpdateTask): Record<string, unknown>[] {
  const args = [t.imageUri, t.component];
  if (t.activation === "activated")
    return [
      message(
        "Update.1.0.UpdateSuccessful",
        `Device '${t.component}' successfully updated with image '${t.imageUri}'.`,
        "OK",
        [t.component, t.imageUri],
      ),
    ];
  if (t.activation === "rolled-back")
    return [
      message(
        "Update.1.0.ActivateFailed",
        `Activation of image '${t.imageUri}' on '${t.component}' failed: power was lost during the reset that applied it; the component rolled back to its previous firmware.`,
        "Critical",
        args,
      ),
    ];
  return [
    message(
      "Update.1.0.AwaitToActivate",
      `Awaiting for an action to proceed with activating image '${t.imageUri}' on '${t.component}': it applies at the next host reset.`,
      "OK",
      args,
    ),
  ];
}

/** Task body; TaskState is derived from simulated time (and, for OnReset images, from the reset that applies them). */
export function taskBody(world: World, t: UpdateTask): Record<string, unknown> {
  const pct = world.taskPercent(t);
  const done = pct >= 100;
  // Standard services end a failed task in Exception; some vendors report their own "Failed".
  const failed = t.failedState ?? "Exception";
  const lost = t.activation === "rolled-back";
  const state = !done ? (pct === 0 ? "New" : "Running") : t.fails ? failed : lost ? "Exception" : "Completed";
  const critical = done && (t.fails || lost);
  const text = t.fails
    ? (t.failure ?? "The firmware image failed verification.")
    : done
      ? "The task completed successfully."
      : "The task is running.";
  const base = message(
    t.fails && done ? "Base.1.18.GeneralError" : "Base.1.18.Success",
    text,
    t.fails && done ? "Critical" : "OK",
  );
  return {
    "@odata.type": "#Task.v1_7_4.Task",
    "@odata.id": `${TASKS}/${t.id}`,
    Id: t.id,
    Name: `Firmware update (${t.component})`,
    TaskState: state,
    TaskStatus: critical ? "Critical" : "OK",
    PercentComplete: pct,
    StartTime: iso(t.startedAt),
    ...(done ? { EndTime: iso(t.startedAt + t.durationMs) } : {}),
    TaskMonitor: `/redfish/v1/TaskService/TaskMonitors/${t.id}`,
    Messages: [base, ...(done && t.activation ? activationMessages(t) : [])],
  };
}

function taskOf(ctx: Ctx): UpdateTask {
  const n = bmcNode(ctx);
  ctx.world.settleTasks(n);
  const t = n.tasks.find((x) => x.id === ctx.params.id);
  if (!t) throw new RedfishError(404, "ResourceNotFound", ["Task", ctx.params.id]);
  return t;
}

/** Routes of TaskService. */
export const taskServiceRoutes: Route[] = [
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
