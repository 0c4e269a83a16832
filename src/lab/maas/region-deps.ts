/** What the MAAS handler families are bound to (store, lifecycle, clock) and the lookups they share. */
import type { LabClock } from "./clock.js";
import { notFound } from "./http-io.js";
import type { Lifecycle } from "./lifecycle.js";
import type { ActionContext } from "./router.js";
import type { MaasStore, MachineRecord } from "./store.js";

/** What the handlers need from the region. */
export interface RegionDeps {
  store: MaasStore;
  lifecycle: Lifecycle;
  clock: LabClock;
}

/** Username of the caller (the lab has one admin user). */
export function userOf(ctx: ActionContext): string {
  return ctx.user?.username ?? "admin";
}

/** The machine named by the path's system_id, or MAAS's 404 for `model`. */
export function machineOf(deps: RegionDeps, ctx: ActionContext, model = "Machine"): MachineRecord {
  const m = deps.store.machine(ctx.path.system_id);
  if (!m) throw notFound(model);
  return m;
}
