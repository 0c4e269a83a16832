/**
 * What the Ironic adapter reads from a node: Ironic's provision states and what they mean to the backend seam, the
 * fields it asks for, and the facts (state, MACs, power, images) it maps a node to. Kept apart from the adapter's
 * operations (ironic.ts).
 */
import { IronicError, type IronicNode } from "../../clients/ironic/index.js";
import type { ProvisionTarget } from "../../clients/ironic/types.js";
import { type MachineFacts, type MachineState, normalMac, withoutUserinfo } from "./backend.js";

/** Ironic provision state → normalized state (ironic/common/states.py). Maintenance reads as "broken". */
export const IRONIC_STATE_TABLE: Readonly<Record<string, MachineState>> = {
  enroll: "enrolled",
  verifying: "enrolling",
  manageable: "enrolled",
  adopting: "enrolling",
  "adopt failed": "failed",
  inspecting: "commissioning",
  "inspect wait": "commissioning",
  "inspect failed": "failed",
  cleaning: "commissioning",
  "clean wait": "commissioning",
  "clean failed": "failed",
  available: "ready",
  deploying: "deploying",
  "wait call-back": "deploying",
  "deploy failed": "failed",
  active: "deployed",
  deleting: "releasing",
  error: "failed",
  servicing: "deployed",
  "service wait": "deployed",
  "service failed": "failed",
};

export const FIELDS = [
  "uuid",
  "name",
  "provision_state",
  "target_provision_state",
  "power_state",
  "last_error",
  "maintenance",
  "maintenance_reason",
  "fault",
  "driver_info",
  "instance_info",
];
/**
 * What a refresh reads from the shared node list: the facts, the acceptance evidence and a health remedy's mark
 * (remedy-marks.ts), in one list.
 */
export const SHARED_FIELDS = [...FIELDS, "driver_internal_info", "extra"];
export const PAST_AVAILABLE = new Set([
  "available",
  "deploying",
  "wait call-back",
  "active",
  "servicing",
  "service wait",
]);
/** Failed states that `manage` brings back to manageable (then inspection runs again). */
export const MANAGE_FIRST = new Set(["inspect failed", "clean failed", "adopt failed"]);
/** States that `deleted` (undeploy, with cleaning) brings back to available before the node can be deleted. */
export const UNDEPLOY_FIRST = new Set(["active", "deploy failed", "error", "wait call-back"]);
export const DELETABLE = new Set(["enroll", "manageable", "available", "adopt failed"]);
/** Commissioning's state → step table: the transition from each state (given whether this run inspected already). */
type CommissionStep = (inspected: boolean) => ProvisionTarget;
const manage: CommissionStep = () => "manage";
export const COMMISSION_STEP: ReadonlyMap<string, CommissionStep> = new Map<string, CommissionStep>([
  ["enroll", manage],
  ...[...MANAGE_FIRST].map((ps): [string, CommissionStep] => [ps, manage]),
  ["manageable", (inspected) => (inspected ? "provide" : "inspect")],
]);
// The resource bounds the operation through the signal; this keeps the client's own default from ending it first.
export const FOREVER_MS = 30 * 86_400_000;
// Transitions per operation: a node needs at most manage, inspect, provide (plus one repair); more means a loop.
export const MAX_STEPS = 8;

/**
 * Taken out of service by a person or by rackform: in maintenance for another reason than Ironic's own power sync
 * (fault "power failure": the BMC did not answer; the conductor lifts it when the BMC answers again, so it is no
 * hand-made change and says nothing about the machine).
 */
export const outOfService = (n: IronicNode): boolean => n.maintenance === true && n.fault !== "power failure";

export function facts(n: IronicNode, macs: readonly string[]): MachineFacts {
  const ps = n.provisionState ?? "unknown";
  return {
    id: n.uuid,
    name: n.name ?? n.uuid,
    state: outOfService(n) ? "broken" : (IRONIC_STATE_TABLE[ps] ?? "other"),
    status: ps,
    message: outOfService(n) ? (n.maintenanceReason ?? "in maintenance") : (n.lastError ?? ""),
    macs: [...new Set(macs.map(normalMac))].sort(),
    power: n.powerState === "power on" ? "on" : n.powerState === "power off" ? "off" : "unknown",
    image: deployedImage(n),
    ...deployImagesOf(n),
  };
}

function deployImagesOf(n: IronicNode): Pick<MachineFacts, "deployImages"> {
  const { deploy_kernel: kernel, deploy_ramdisk: ramdisk } = n.driverInfo ?? {};
  return typeof kernel === "string" && typeof ramdisk === "string" ? { deployImages: { kernel, ramdisk } } : {};
}

/** `<image_source> sha256:<hash>` from instance_info (see imageLabel); "" when no image is set. */
function deployedImage(n: IronicNode): string | undefined {
  if (!n.instanceInfo) return undefined;
  const src = n.instanceInfo.image_source;
  if (typeof src !== "string" || src === "") return "";
  const hash = n.instanceInfo.image_os_hash_value ?? n.instanceInfo.image_checksum;
  return `${withoutUserinfo(src)} sha256:${typeof hash === "string" ? hash.toLowerCase() : ""}`;
}

export function isProvisionFailure(e: unknown): e is IronicError {
  return e instanceof IronicError && e.code === "RACKFORM_ERR_IRONIC_PROVISION_FAILED";
}
