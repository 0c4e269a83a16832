/**
 * MAAS node statuses: the integer `status` of a machine and its `status_name` label, as defined by MAAS
 * (src/maascommon/enums/node.py NodeStatus and NODE_STATUS_LABELS; checked against derived/enums.json in tests).
 */

/** Status ids by enum name. */
export const MAAS_STATUS = {
  NEW: 0,
  COMMISSIONING: 1,
  FAILED_COMMISSIONING: 2,
  MISSING: 3,
  READY: 4,
  RESERVED: 5,
  DEPLOYED: 6,
  RETIRED: 7,
  BROKEN: 8,
  DEPLOYING: 9,
  ALLOCATED: 10,
  FAILED_DEPLOYMENT: 11,
  RELEASING: 12,
  FAILED_RELEASING: 13,
  DISK_ERASING: 14,
  FAILED_DISK_ERASING: 15,
  RESCUE_MODE: 16,
  ENTERING_RESCUE_MODE: 17,
  FAILED_ENTERING_RESCUE_MODE: 18,
  EXITING_RESCUE_MODE: 19,
  FAILED_EXITING_RESCUE_MODE: 20,
  TESTING: 21,
  FAILED_TESTING: 22,
} as const;

/** A status enum name, e.g. "READY". */
export type MaasStatusName = keyof typeof MAAS_STATUS;

/** The `status_name` label MAAS shows for each status id. */
export const MAAS_STATUS_LABELS: Readonly<Record<number, string>> = {
  0: "New",
  1: "Commissioning",
  2: "Failed commissioning",
  3: "Missing",
  4: "Ready",
  5: "Reserved",
  6: "Deployed",
  7: "Retired",
  8: "Broken",
  9: "Deploying",
  10: "Allocated",
  11: "Failed deployment",
  12: "Releasing",
  13: "Releasing failed",
  14: "Disk erasing",
  15: "Failed disk erasing",
  16: "Rescue mode",
  17: "Entering rescue mode",
  18: "Failed to enter rescue mode",
  19: "Exiting rescue mode",
  20: "Failed to exit rescue mode",
  21: "Testing",
  22: "Failed testing",
};

/** Every FAILED_* status: where a MAAS action that went wrong leaves a machine. */
export const MAAS_FAILED_STATUSES: readonly number[] = Object.entries(MAAS_STATUS)
  .filter(([name]) => name.startsWith("FAILED_"))
  .map(([, id]) => id);

/** Script result status ids (metadataserver/enum.py SCRIPT_STATUS). */
export const MAAS_SCRIPT_STATUS = {
  PENDING: 0,
  RUNNING: 1,
  PASSED: 2,
  FAILED: 3,
  TIMEDOUT: 4,
  ABORTED: 5,
  DEGRADED: 6,
  INSTALLING: 7,
  FAILED_INSTALLING: 8,
  SKIPPED: 9,
  APPLYING_NETCONF: 10,
  FAILED_APPLYING_NETCONF: 11,
} as const;

/** Script result statuses MAAS counts as failure (SCRIPT_STATUS_FAILED). */
export const MAAS_SCRIPT_FAILED_STATUSES: ReadonlySet<number> = new Set([
  MAAS_SCRIPT_STATUS.FAILED,
  MAAS_SCRIPT_STATUS.TIMEDOUT,
  MAAS_SCRIPT_STATUS.FAILED_INSTALLING,
  MAAS_SCRIPT_STATUS.FAILED_APPLYING_NETCONF,
]);

/** Script result statuses after which a result no longer changes (not pending, running, installing or applying). */
export const MAAS_SCRIPT_SETTLED_STATUSES: ReadonlySet<number> = new Set([
  MAAS_SCRIPT_STATUS.PASSED,
  MAAS_SCRIPT_STATUS.DEGRADED,
  MAAS_SCRIPT_STATUS.ABORTED,
  MAAS_SCRIPT_STATUS.SKIPPED,
  ...MAAS_SCRIPT_FAILED_STATUSES,
]);

/** The id of a status given as id, enum name ("READY") or label ("Ready"); undefined when unknown. */
export function statusId(s: number | string): number | undefined {
  if (typeof s === "number") return s in MAAS_STATUS_LABELS ? s : undefined;
  if (s in MAAS_STATUS) return MAAS_STATUS[s as MaasStatusName];
  const hit = Object.entries(MAAS_STATUS_LABELS).find(([, label]) => label.toLowerCase() === s.toLowerCase());
  return hit ? Number(hit[0]) : undefined;
}

/** The label of a status id, or `status <id>` for an id this table does not know (a newer MAAS). */
export function statusLabel(id: number): string {
  return MAAS_STATUS_LABELS[id] ?? `status ${id}`;
}
