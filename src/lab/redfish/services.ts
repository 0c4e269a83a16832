/** The BMC's services beside the system: Managers, Chassis, UpdateService, TaskService, Bios and Registries. */
import { biosRoutes } from "./bios.js";
import { biosJobRoutes } from "./bios-jobs.js";
import { chassisRoutes } from "./chassis.js";
import { managerRoutes } from "./managers.js";
import type { Route } from "./router.js";
import { taskServiceRoutes } from "./task-service.js";
import { updateServiceRoutes } from "./update-service.js";

/** Routes of Managers, Chassis, UpdateService, TaskService, Bios and Registries. */
export const serviceRoutes: Route[] = [
  ...managerRoutes,
  ...chassisRoutes,
  ...updateServiceRoutes,
  ...taskServiceRoutes,
  ...biosRoutes,
  ...biosJobRoutes,
];
