/** cmdevice calls: devices (add, get, update, remove, validate), categories and software images (cmpart). */
import { randomUUID } from "node:crypto";
import type { BcmStore, DeviceEntity, InterfaceEntity } from "./store.js";

/** One validation finding, as cmdaemon lists them in the replies of its validate, add and update calls. */
export interface Validation {
  field: string;
  message: string;
  error_code: "BAD_VALUE" | "DUPLICATE_FIELD" | "NOT_NULL" | "INVALID_REFERENCE";
  severity: "ERROR" | "WARNING";
  ref_entity_uuid: string;
}

const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const MAC = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

function finding(field: string, message: string, code: Validation["error_code"], ref = ""): Validation {
  return { field, message, error_code: code, severity: "ERROR", ref_entity_uuid: ref };
}

/** The findings for `d` against the other devices. */
export function validateDevice(store: BcmStore, d: DeviceEntity): Validation[] {
  const out: Validation[] = [];
  if (!d.hostname || !HOSTNAME.test(d.hostname)) out.push(finding("hostname", "Invalid hostname", "BAD_VALUE"));
  if (d.mac && !MAC.test(d.mac)) out.push(finding("mac", "Invalid MAC address", "BAD_VALUE"));
  if (!store.categories.has(d.category)) out.push(finding("category", "Category does not exist", "INVALID_REFERENCE"));
  const img = d.softwareImageProxy?.parentSoftwareImage;
  if (img && !store.images.has(img))
    out.push(finding("softwareImageProxy", "Software image does not exist", "INVALID_REFERENCE"));
  for (const o of store.devices.values()) {
    if (o.uuid === d.uuid) continue;
    if (o.hostname.toLowerCase() === d.hostname.toLowerCase())
      out.push(finding("hostname", `Hostname ${d.hostname} is already used`, "DUPLICATE_FIELD", o.uuid));
    if (d.mac && o.mac.toLowerCase() === d.mac.toLowerCase() && d.mac !== "00:00:00:00:00:00")
      out.push(finding("mac", `MAC ${d.mac} is already used by ${o.hostname}`, "DUPLICATE_FIELD", o.uuid));
  }
  return out;
}

function str(v: unknown, dflt = ""): string {
  return typeof v === "string" ? v : dflt;
}

/** A device entity from a request's argument (unknown fields dropped; missing ones defaulted). */
export function deviceFrom(store: BcmStore, raw: unknown, prior?: DeviceEntity): DeviceEntity {
  const o = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const has = (k: string) => Object.hasOwn(o, k);
  const bmc = (o.bmcSettings && typeof o.bmcSettings === "object" ? o.bmcSettings : {}) as Record<string, unknown>;
  const proxy = o.softwareImageProxy as { parentSoftwareImage?: unknown } | null | undefined;
  const ifaces = Array.isArray(o.interfaces)
    ? o.interfaces.map(
        (i): InterfaceEntity => ({
          baseType: "NetworkInterface",
          childType:
            (i as Record<string, unknown>).childType === "NetworkBmcInterface"
              ? "NetworkBmcInterface"
              : "NetworkPhysicalInterface",
          uuid: str((i as Record<string, unknown>).uuid) || randomUUID(),
          name: str((i as Record<string, unknown>).name),
          mac: str((i as Record<string, unknown>).mac),
          ip: str((i as Record<string, unknown>).ip),
        }),
      )
    : undefined;
  return {
    baseType: "Device",
    childType: "PhysicalNode",
    uuid: prior?.uuid ?? (str(o.uuid) && str(o.uuid) !== ZERO_UUID ? str(o.uuid) : randomUUID()),
    hostname: has("hostname") ? str(o.hostname) : (prior?.hostname ?? ""),
    mac: has("mac") ? str(o.mac).toLowerCase() : (prior?.mac ?? ""),
    category: has("category") ? str(o.category) : (prior?.category ?? store.defaultCategory().uuid),
    powerControl: has("powerControl") ? str(o.powerControl) : (prior?.powerControl ?? "none"),
    bmcSettings: {
      baseType: "BMCSettings",
      userName: has("bmcSettings") ? str(bmc.userName) : (prior?.bmcSettings.userName ?? ""),
      password: has("bmcSettings") ? str(bmc.password) : (prior?.bmcSettings.password ?? ""),
    },
    interfaces: ifaces ?? prior?.interfaces ?? [],
    softwareImageProxy: has("softwareImageProxy")
      ? proxy && typeof proxy.parentSoftwareImage === "string" && proxy.parentSoftwareImage !== ZERO_UUID
        ? { baseType: "SoftwareImageProxy", parentSoftwareImage: proxy.parentSoftwareImage }
        : null
      : (prior?.softwareImageProxy ?? null),
    finalizeScript: has("finalizeScript") ? str(o.finalizeScript) : (prior?.finalizeScript ?? ""),
    notes: has("notes") ? str(o.notes) : (prior?.notes ?? ""),
    revision: prior ? String(Number(prior.revision) + 1) : "1",
  };
}

/** cmdaemon's zero uuid (an unset reference). */
export const ZERO_UUID = "00000000-0000-0000-0000-000000000000";

/** A device as the API shows it: the BMC password is write-only (cmdaemon masks it for reads). */
export function shown(d: DeviceEntity): DeviceEntity {
  return { ...d, bmcSettings: { ...d.bmcSettings, password: d.bmcSettings.password ? "********" : "" } };
}

/** addDevice(entity, force) / updateDevice(entity, force): {success, validation[], updated_entity}. */
export function saveDevice(store: BcmStore, raw: unknown, update: boolean): Record<string, unknown> {
  const key = str((raw as Record<string, unknown> | null)?.uuid);
  const prior = update ? store.devices.get(key) : undefined;
  if (update && !prior) {
    return { success: false, validation: [finding("uuid", `No device with uuid ${key}`, "INVALID_REFERENCE")] };
  }
  if (!update && key && key !== ZERO_UUID && store.devices.has(key)) {
    return { success: false, validation: [finding("uuid", "An entity with this uuid exists", "DUPLICATE_FIELD", key)] };
  }
  const d = deviceFrom(store, raw, prior);
  const validation = validateDevice(store, d);
  if (validation.length > 0) return { success: false, validation };
  store.devices.set(d.uuid, d);
  return { success: true, validation: [], updated_entity: shown(d) };
}
