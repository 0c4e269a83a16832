/** Reading cmdaemon replies into typed records; a reply without a field rackform needs is RACKFORM_ERR_BCM_BAD_PAYLOAD. */
import { BcmError } from "./errors.js";
import type { BcmBurnStatus, BcmDevice, BcmDeviceStatus, BcmNamed } from "./types.js";

const ZERO_UUID = "00000000-0000-0000-0000-000000000000";

function obj(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new BcmError(
      "RACKFORM_ERR_BCM_BAD_PAYLOAD",
      `BCM ${what}: expected an object, got ${JSON.stringify(v)?.slice(0, 200)}`,
    );
  }
  return v as Record<string, unknown>;
}

function list(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new BcmError("RACKFORM_ERR_BCM_BAD_PAYLOAD", `BCM ${what}: expected a list`);
  return v;
}

const s = (v: unknown) => (typeof v === "string" ? v : "");

function uuidOf(o: Record<string, unknown>, key: string, what: string): string {
  const u = s(o[key]);
  if (!u) throw new BcmError("RACKFORM_ERR_BCM_BAD_PAYLOAD", `BCM ${what}: the entity has no ${key}`);
  return u;
}

/** A Device entity. */
export function device(v: unknown): BcmDevice {
  const o = obj(v, "device");
  const ifaces = Array.isArray(o.interfaces) ? o.interfaces.filter((i) => i && typeof i === "object") : [];
  const mac = s(o.mac).toLowerCase();
  const macs = new Set<string>();
  if (mac && mac !== "00:00:00:00:00:00") macs.add(mac);
  let bmcIp = "";
  for (const i of ifaces as Record<string, unknown>[]) {
    if (i.childType === "NetworkBmcInterface") bmcIp ||= s(i.ip);
    else if (s(i.mac) && s(i.mac) !== "00:00:00:00:00:00") macs.add(s(i.mac).toLowerCase());
  }
  const proxy = o.softwareImageProxy as { parentSoftwareImage?: unknown } | null | undefined;
  const img = proxy && typeof proxy.parentSoftwareImage === "string" ? proxy.parentSoftwareImage : "";
  return {
    uuid: uuidOf(o, "uuid", "device"),
    hostname: s(o.hostname),
    mac,
    macs: [...macs].sort(),
    category: s(o.category),
    bmcIp,
    powerControl: s(o.powerControl),
    softwareImage: img && img !== ZERO_UUID ? img : undefined,
    finalizeScript: s(o.finalizeScript),
    raw: o,
  };
}

/** A list of Device entities (PhysicalNode only: head nodes, switches and others are not rackform's). */
export function devices(v: unknown): BcmDevice[] {
  return list(v, "getDevices")
    .filter((d) => d && typeof d === "object" && (d as { childType?: unknown }).childType === "PhysicalNode")
    .map(device);
}

/** getStatusForDevices' entries. */
export function statuses(v: unknown): BcmDeviceStatus[] {
  return list(v, "getStatusForDevices")
    .filter((x) => x !== null)
    .map((x) => {
      const o = obj(x, "device status");
      if (typeof o.status !== "string") {
        throw new BcmError("RACKFORM_ERR_BCM_BAD_PAYLOAD", "BCM getStatusForDevices: an entry has no status");
      }
      return {
        uuid: uuidOf(o, "ref_device_uuid", "device status"),
        status: o.status.toUpperCase(),
        closed: o.closed === true,
        userMessage: s(o.userMessage),
        infoMessage: s(o.infoMessage),
        installedSoftwareImage: s(o.installedSoftwareImage),
      };
    });
}

/** Categories or software images. */
export function named(v: unknown, what: string): BcmNamed[] {
  return list(v, what).map((x) => {
    const o = obj(x, what);
    return { uuid: uuidOf(o, "uuid", what), name: s(o.name), raw: o };
  });
}

/** Burn status entries. */
export function burns(v: unknown): BcmBurnStatus[] {
  return list(v, "getBurnStatus").map((x) => {
    const o = obj(x, "burn status");
    return { uuid: uuidOf(o, "ref_device_uuid", "burn status"), status: s(o.status), log: s(o.log) };
  });
}
