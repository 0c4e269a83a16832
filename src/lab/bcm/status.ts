/**
 * Device status as cmstatus reports it, driven by the host behind the device's BMC: a host that is not running is
 * DOWN; a host that came up PXE-boots the node-installer, which installs the device's software image for
 * `installMs` (INSTALLING) and then boots it (UP), or fails (INSTALLER_FAILED) or never finishes (a hang). A closed
 * device reports CLOSED whatever its host does; a burn (acceptance) run shows INSTALLER_BURNING while it runs.
 */
import type { BcmStore, DeviceEntity } from "./store.js";

/** The status words the lab reports (a subset of cmdaemon's DeviceStatus.Status). */
export type DeviceStatusWord = "UP" | "DOWN" | "CLOSED" | "INSTALLING" | "INSTALLER_FAILED" | "INSTALLER_BURNING";

/** How the lab learns about hosts and install outcomes. */
export interface StatusDeps {
  now(): number;
  /** When the host behind this BMC IP finished powering on (ms), or undefined when it is not running. */
  hostUpSince(bmcIp: string): number | undefined;
  /** How the install of this boot ends (consumes a fault); "ok" when nothing interferes. */
  installOutcome(device: DeviceEntity): "ok" | "fail" | "hang";
  /** Duration of one install (the time profile's deployMs). */
  installMs(): number;
  /** Told when a device's status differs from the one last computed ("REMOVED" when deleted, "REDEFINED" when its image or finalize script changed). */
  observe?(d: DeviceEntity, from: string | undefined, to: string): void;
}

/** The BMC interface's IP of a device ("" when it has none). */
export function bmcIp(d: DeviceEntity): string {
  return d.interfaces.find((i) => i.childType === "NetworkBmcInterface")?.ip ?? "";
}

/** The status of one device now (follows a new boot when the host came up again). */
export function deviceStatus(store: BcmStore, deps: StatusDeps, d: DeviceEntity): DeviceStatusWord {
  const rt = store.runtimeOf(d.uuid);
  const now = deps.now();
  const since = deps.hostUpSince(bmcIp(d));
  if (since === undefined) {
    rt.boot = undefined;
    return rt.closed ? "CLOSED" : "DOWN";
  }
  if (!rt.boot || rt.boot.at !== since) {
    rt.boot = { at: since, image: store.effectiveImage(d)?.uuid ?? "", outcome: deps.installOutcome(d) };
  }
  if (rt.closed) return "CLOSED";
  if (rt.burn && now < rt.burn.startedAt + rt.burn.durationMs) return "INSTALLER_BURNING";
  if (rt.boot.outcome === "hang" || now < rt.boot.at + deps.installMs()) return "INSTALLING";
  return rt.boot.outcome === "fail" ? "INSTALLER_FAILED" : "UP";
}

/** The DeviceStatus entity of getStatusForDevices. */
export function statusEntity(store: BcmStore, deps: StatusDeps, d: DeviceEntity): Record<string, unknown> {
  const status = deviceStatus(store, deps, d);
  const rt = store.runtimeOf(d.uuid);
  if (rt.lastStatus !== status) {
    const from = rt.lastStatus;
    rt.lastStatus = status;
    deps.observe?.(d, from, status);
  }
  const installed = status === "UP" || status === "INSTALLER_BURNING" ? rt.boot?.image : undefined;
  return {
    baseType: "DeviceStatus",
    ref_device_uuid: d.uuid,
    hostname: d.hostname,
    status,
    closed: rt.closed,
    userMessage: rt.userMessage,
    infoMessage: status === "INSTALLER_FAILED" ? "node-installer: provisioning of the software image failed" : "",
    // Lab extension (see README): the software image the running boot installed.
    installedSoftwareImage: installed ? (store.images.get(installed)?.name ?? "") : "",
  };
}
