/**
 * BCM device status → the seam's machine states, and the facts of one device. BCM has no separate commissioning:
 * a PhysicalNode with its MAC, BMC interface and credentials is identified and installable (ready). rackform marks
 * a deployment by setting the node's own software image (and its user data as the finalize script): with it set,
 * the node is deploying until cmdaemon reports it UP (deployed); without it the node is ready whatever its power.
 */
import type { BcmDevice, BcmDeviceStatus } from "../../clients/bcm/index.js";
import type { HostPower, MachineFacts, MachineState } from "./backend.js";

/** Statuses of a node the node-installer is working on (BCM 10/11 DeviceStatus names). */
const INSTALLER = /^INSTALL(ING|ER_(REBOOTING|CALLINGINIT|BURNING|UNREACHABLE))$/;

/** The seam's state of a device with status `s`. */
export function bcmState(d: BcmDevice, s: BcmDeviceStatus | undefined): MachineState {
  const status = s?.status ?? "UNKNOWN";
  if (s?.closed || status === "CLOSED") return "broken";
  if (status === "INSTALLER_FAILED") return d.softwareImage ? "failed" : "ready";
  if (!d.softwareImage) return "ready";
  if (status === "UP" || status === "INSTALLER_BURNING") return "deployed";
  if (INSTALLER.test(status) || status === "DOWN") return "deploying";
  return "other";
}

/** Host power as device status tells it: a node cmdaemon reaches or installs is on; DOWN is off. */
export function bcmPower(s: BcmDeviceStatus | undefined): HostPower {
  const status = s?.status ?? "";
  if (status === "UP" || INSTALLER.test(status) || status === "INSTALLER_FAILED") return "on";
  if (status === "DOWN") return "off";
  return "unknown";
}

/** The facts of a device; `imageName` is the software image it runs (when UP), "" otherwise. */
export function bcmFacts(d: BcmDevice, s: BcmDeviceStatus | undefined, imageName: string): MachineFacts {
  const state = bcmState(d, s);
  return {
    id: d.uuid,
    name: d.hostname,
    state,
    status: s?.status ?? "UNKNOWN",
    message: s?.userMessage || s?.infoMessage || "",
    macs: d.macs,
    power: bcmPower(s) === "denied" ? "unknown" : bcmPower(s),
    image: state === "deployed" ? imageName : "",
  };
}
