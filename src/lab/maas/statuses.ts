/** MAAS node and script status enumerations (ids and labels as MAAS serves them) and the allowed transitions. */

/** Node status ids, as the integer `status` field of a machine. */
export const NodeStatus = {
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

/** One of the NodeStatus ids. */
export type NodeStatusId = (typeof NodeStatus)[keyof typeof NodeStatus];

const LABELS: Record<number, string> = {
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

/** The `status_name` MAAS shows for a status id. */
export function statusName(status: number): string {
  return LABELS[status] ?? "Unknown";
}

const S = NodeStatus;
// Transitions this lab performs, a subset of MAAS's table (rescue mode and missing/retired are not simulated).
const TRANSITIONS: Record<number, readonly number[]> = {
  [S.NEW]: [S.COMMISSIONING, S.TESTING, S.READY, S.BROKEN],
  [S.COMMISSIONING]: [S.FAILED_COMMISSIONING, S.READY, S.NEW, S.BROKEN, S.TESTING],
  [S.FAILED_COMMISSIONING]: [S.COMMISSIONING, S.BROKEN, S.TESTING],
  [S.READY]: [S.COMMISSIONING, S.ALLOCATED, S.RESERVED, S.BROKEN, S.TESTING],
  [S.ALLOCATED]: [S.READY, S.BROKEN, S.DEPLOYING, S.DISK_ERASING, S.RELEASING, S.TESTING],
  [S.RELEASING]: [S.NEW, S.ALLOCATED, S.DEPLOYED, S.READY, S.BROKEN, S.FAILED_DISK_ERASING, S.FAILED_RELEASING],
  [S.DEPLOYING]: [S.ALLOCATED, S.BROKEN, S.FAILED_DEPLOYMENT, S.DEPLOYED, S.READY, S.DISK_ERASING, S.RELEASING],
  [S.FAILED_DEPLOYMENT]: [S.ALLOCATED, S.BROKEN, S.READY, S.DISK_ERASING, S.RELEASING, S.TESTING],
  [S.DEPLOYED]: [S.ALLOCATED, S.BROKEN, S.READY, S.DISK_ERASING, S.RELEASING, S.TESTING],
  [S.BROKEN]: [S.COMMISSIONING, S.READY, S.DISK_ERASING, S.RELEASING, S.TESTING, S.DEPLOYED],
  [S.FAILED_RELEASING]: [S.RELEASING, S.DISK_ERASING, S.READY, S.BROKEN, S.TESTING],
  [S.DISK_ERASING]: [S.BROKEN, S.DISK_ERASING, S.FAILED_DISK_ERASING, S.READY, S.RELEASING],
  [S.FAILED_DISK_ERASING]: [S.DISK_ERASING, S.RELEASING, S.BROKEN, S.ALLOCATED, S.READY, S.TESTING],
  [S.TESTING]: [S.BROKEN, S.NEW, S.READY, S.RESERVED, S.ALLOCATED, S.DEPLOYED, S.FAILED_TESTING],
  [S.FAILED_TESTING]: [S.COMMISSIONING, S.BROKEN, S.TESTING, S.READY, S.DEPLOYED],
};

/** Whether MAAS allows a node to move from `from` to `to`. */
export function canTransition(from: number, to: number): boolean {
  return TRANSITIONS[from]?.includes(to) ?? false;
}

/** Statuses from which `op=release` starts a release (MAAS's RELEASABLE_STATUSES). */
export const RELEASABLE: readonly number[] = [
  S.ALLOCATED,
  S.RESERVED,
  S.BROKEN,
  S.DEPLOYING,
  S.DEPLOYED,
  S.FAILED_DEPLOYMENT,
  S.FAILED_DISK_ERASING,
  S.FAILED_RELEASING,
];

/** Script result status ids (SCRIPT_STATUS) with their labels. */
export const ScriptStatus = {
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

const SCRIPT_LABELS: Record<number, string> = {
  [-1]: "Unknown",
  0: "Pending",
  1: "Running",
  2: "Passed",
  3: "Failed",
  4: "Timed out",
  5: "Aborted",
  6: "Degraded",
  7: "Installing dependencies",
  8: "Failed installing dependencies",
  9: "Skipped",
  10: "Applying custom network configuration",
  11: "Failed to apply custom network configuration",
};

/** The label MAAS shows for a script status id (-1 means no results yet). */
export function scriptStatusName(status: number): string {
  return SCRIPT_LABELS[status] ?? "Unknown";
}

/** Script status ids that count as failure (SCRIPT_STATUS_FAILED), most telling first. */
export const SCRIPT_FAILED: readonly number[] = [
  ScriptStatus.FAILED,
  ScriptStatus.TIMEDOUT,
  ScriptStatus.FAILED_INSTALLING,
  ScriptStatus.FAILED_APPLYING_NETCONF,
];

/** Result set types (RESULT_TYPE): which phase ran the scripts. */
export const ResultType = { COMMISSIONING: 0, INSTALLATION: 1, TESTING: 2, RELEASE: 3 } as const;

const RESULT_TYPE_NAMES: Record<number, string> = { 0: "Commissioning", 1: "Installation", 2: "Testing", 3: "Release" };

/** Label of a result set type. */
export function resultTypeName(type: number): string {
  return RESULT_TYPE_NAMES[type] ?? "Unknown";
}

/** Parses `type=` of nodes/{id}/results/ the way MAAS does (names or numbers); undefined when invalid. */
export function parseResultType(value: string): number | undefined {
  if (/^\d+$/.test(value)) return RESULT_TYPE_NAMES[Number(value)] ? Number(value) : undefined;
  const names: Record<string, number> = {
    test: 2,
    testing: 2,
    commission: 0,
    commissioning: 0,
    install: 1,
    installation: 1,
    release: 3,
  };
  return names[value];
}
