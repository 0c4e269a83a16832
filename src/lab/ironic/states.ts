/** Ironic's provision states, API verbs and which verb is allowed from which state (ironic/common/states.py, 21.4 + service). */

/** Provision state names exactly as the API shows them. */
export const S = {
  ENROLL: "enroll",
  VERIFYING: "verifying",
  MANAGEABLE: "manageable",
  INSPECTING: "inspecting",
  INSPECTWAIT: "inspect wait",
  INSPECTFAIL: "inspect failed",
  CLEANING: "cleaning",
  CLEANWAIT: "clean wait",
  CLEANFAIL: "clean failed",
  AVAILABLE: "available",
  DEPLOYING: "deploying",
  DEPLOYWAIT: "wait call-back",
  DEPLOYFAIL: "deploy failed",
  ACTIVE: "active",
  DELETING: "deleting",
  ERROR: "error",
  ADOPTFAIL: "adopt failed",
  SERVICING: "servicing",
  SERVICEWAIT: "service wait",
  SERVICEFAIL: "service failed",
} as const;

/** API verbs (the `target` of PUT …/states/provision) and the state-machine event each one fires. */
export const VERBS: Readonly<Record<string, string>> = {
  active: "deploy",
  deploy: "deploy",
  deleted: "delete",
  undeploy: "delete",
  manage: "manage",
  provide: "provide",
  inspect: "inspect",
  abort: "abort",
  clean: "clean",
  rebuild: "rebuild",
  service: "service",
};

/** Events accepted in each state; anything else is InvalidStateRequested (or NodeLocked while reserved). */
const ACTIONABLE: Readonly<Record<string, readonly string[]>> = {
  [S.ENROLL]: ["manage"],
  [S.MANAGEABLE]: ["provide", "clean", "inspect", "adopt"],
  [S.AVAILABLE]: ["deploy", "manage"],
  [S.ACTIVE]: ["rebuild", "delete", "rescue", "service"],
  [S.DEPLOYFAIL]: ["rebuild", "deploy", "delete"],
  [S.DEPLOYWAIT]: ["delete"],
  [S.ERROR]: ["rebuild", "delete"],
  [S.CLEANFAIL]: ["manage"],
  [S.CLEANWAIT]: ["abort"],
  [S.INSPECTFAIL]: ["manage", "inspect"],
  [S.INSPECTWAIT]: ["abort"],
  [S.ADOPTFAIL]: ["adopt", "manage"],
  [S.SERVICEWAIT]: ["abort"],
  [S.SERVICEFAIL]: ["service", "abort", "rescue"],
};

/** True when `event` may be fired from `state`. */
export function isActionable(state: string, event: string): boolean {
  return ACTIONABLE[state]?.includes(event) ?? false;
}

/** States in which DELETE /v1/nodes/{id} is allowed (DELETE_ALLOWED_STATES + available, the 21.4 default). */
export const DELETE_ALLOWED: readonly string[] = [S.MANAGEABLE, S.ENROLL, S.ADOPTFAIL, S.AVAILABLE];

/** States whose node may be patched while a target is set (UPDATE_ALLOWED_STATES). */
export const UPDATE_ALLOWED: readonly string[] = [
  S.DEPLOYFAIL,
  S.INSPECTING,
  S.INSPECTFAIL,
  S.INSPECTWAIT,
  S.CLEANFAIL,
  S.ERROR,
  S.VERIFYING,
  S.ADOPTFAIL,
];

/** Targets PUT …/states/power accepts. */
export const POWER_TARGETS: readonly string[] = [
  "power on",
  "power off",
  "rebooting",
  "soft power off",
  "soft rebooting",
];
