/** TaskService: firmware update tasks and their monitors, their state derived from simulated time. */
import type { UpdateTask, World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { bmcNode, type Ctx, collection, get, iso, link, type Route, status } from "./router.js";

const TASKS = "/redfish/v1/TaskService/Tasks";

/** Task body; TaskState is derived from simulated time. */
export function taskBody(world: World, t: UpdateTask): Record<string, unknown> {
  const pct = world.taskPercent(t);
  const done = pct >= 100;
  // Standard services end a failed task in Exception; some vendors report their own "Failed".
  const failed = t.failedState ?? "Exception";
  const state = !done ? (pct === 0 ? "New" : "Running") : t.fails ? failed : "Completed";
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
