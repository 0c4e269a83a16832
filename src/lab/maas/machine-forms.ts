/** Validation of machine create/update/deploy input, with MAAS's field-error messages. */
import { invalid, type Params } from "./http-io.js";
import type { PowerParams } from "./power.js";
import type { MaasStore, MachineRecord, NamedRecord } from "./store.js";

const ARCHES = ["amd64/generic", "arm64/generic", "i386/generic", "ppc64el/generic", "s390x/generic"];
const POWER_TYPES = [
  "amt",
  "apc",
  "dli",
  "eaton",
  "hmc",
  "hmcz",
  "ipmi",
  "lxd",
  "manual",
  "moonshot",
  "mscm",
  "msftocs",
  "openbmc",
  "proxmox",
  "raritan",
  "recs_box",
  "redfish",
  "sm15k",
  "ucsm",
  "virsh",
  "vmware",
  "webhook",
  "wedge",
];
/** Ubuntu series the lab's region has synced images for. */
export const UBUNTU_SERIES = ["focal", "jammy", "noble"];

/** Normalises an architecture ("amd64" → "amd64/generic") or throws MAAS's field error. */
export function parseArchitecture(value: string | undefined): string {
  const arch = value === undefined ? "" : value.includes("/") ? value : `${value}/generic`;
  if (!ARCHES.includes(arch)) {
    const choices = ARCHES.map((a) => `'${a}'`).join(", ");
    throw invalid({
      architecture: [`'${value ?? ""}' is not a valid architecture.  It should be one of: ${choices}.`],
    });
  }
  return arch;
}

/** Normalises a MAC address to lower-case colon form, or undefined when it is not one. */
export function normaliseMac(value: string): string | undefined {
  const hex = value.trim().toLowerCase().replace(/[-:.]/g, "");
  if (!/^[0-9a-f]{12}$/.test(hex)) return undefined;
  return hex.match(/../g)!.join(":");
}

/** Power parameters from `power_parameters` (JSON, as python-libmaas sends) and `power_parameters_<name>` fields. */
export function parsePowerParams(params: Params, base: PowerParams = {}): PowerParams | undefined {
  let out: PowerParams | undefined;
  const json = params.get("power_parameters");
  if (json !== undefined && json !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw invalid({ power_parameters: ["Enter valid JSON."] });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw invalid({ power_parameters: ["Power parameters must be a JSON object."] });
    }
    out = { ...base };
    for (const [k, v] of Object.entries(parsed)) out[k] = String(v);
  }
  for (const name of params.names()) {
    if (!name.startsWith("power_parameters_")) continue;
    out ??= { ...base };
    out[name.slice("power_parameters_".length)] = params.get(name) ?? "";
  }
  return out;
}

/** Checks a power type name against MAAS's drivers. */
export function parsePowerType(value: string): string {
  if (!POWER_TYPES.includes(value)) {
    throw invalid({ power_type: [`Select a valid choice. ${value} is not one of the available choices.`] });
  }
  return value;
}

/** Checks a hostname is a DNS label and not used by another machine. */
export function checkHostname(store: MaasStore, hostname: string, self?: MachineRecord): string {
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(hostname)) {
    throw invalid({ hostname: [`Invalid hostname: Label is not valid: ${hostname}`] });
  }
  for (const m of store.machines.values()) {
    if (m !== self && m.hostname === hostname) {
      throw invalid({ hostname: [`Node with hostname "${hostname}" already exists.`] });
    }
  }
  return hostname;
}

/** Validates the MAC list of a new machine (at least one, well-formed, not in use). */
export function parseMacs(store: MaasStore, values: string[]): string[] {
  const list = values.flatMap((v) => v.split(",")).filter((v) => v.trim() !== "");
  if (list.length === 0) throw invalid({ mac_addresses: ["This field is required."] });
  const macs: string[] = [];
  for (const v of list) {
    const mac = normaliseMac(v);
    if (!mac)
      throw invalid({ mac_addresses: [`One or more MAC addresses is invalid. ('${v}' is not a valid MAC address.)`] });
    for (const m of store.machines.values()) {
      if (m.interfaces.some((i) => i.macAddress === mac)) {
        throw invalid({
          mac_addresses: [
            `One or more MAC addresses is invalid. (MAC address ${mac} already in use on ${m.hostname}.)`,
          ],
        });
      }
    }
    macs.push(mac);
  }
  return macs;
}

/** Resolves deploy's osystem/distro_series against Ubuntu series and uploaded custom images. */
export function parseSeries(
  store: MaasStore,
  osystem: string | undefined,
  series: string | undefined,
): [string, string] {
  const s = series ?? "jammy";
  const bare = s.replace(/^custom\//, "");
  // Only a usable image can be deployed: an upload whose file has not all arrived (or failed its sha256) is not one.
  const usable = [...store.bootResources.values()].filter(
    (b) => b.type === "Uploaded" && b.files.every((f) => f.complete),
  );
  for (const b of usable) {
    if (b.name.replace(/^custom\//, "") === bare) return ["custom", bare];
  }
  if ((osystem ?? "ubuntu") === "ubuntu" && UBUNTU_SERIES.includes(s)) return ["ubuntu", s];
  const choices = [...UBUNTU_SERIES.map((x) => `ubuntu/${x}`), ...usable.map((b) => b.name)];
  throw invalid({
    distro_series: [
      `'${s}' is not a valid distro_series.  It should be one of: ${choices.map((c) => `'${c}'`).join(", ")}.`,
    ],
  });
}

/** Decodes deploy's base64 user_data (a field or a file part). */
export function parseUserData(params: Params): Buffer | null {
  const raw = params.get("user_data");
  if (raw === undefined || raw === "") return null;
  const compact = raw.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw invalid({ user_data: ["User data must be base64 encoded."] });
  }
  return Buffer.from(compact, "base64");
}

/** Splits a MAAS list parameter given as repeated fields and/or comma-separated values. */
export function listParam(params: Params, name: string): string[] | undefined {
  const values = params.all(name);
  const file = params.files.get(name);
  if (values.length === 0 && !file) return undefined;
  return [...values, ...(file ? [file.toString("utf8")] : [])]
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** A zone or pool named by `field` (Django's ModelChoiceField error when unknown); "default" when absent. */
export function choice(
  records: Map<string, NamedRecord>,
  params: Params,
  field: string,
  current?: NamedRecord,
): NamedRecord {
  const name = params.get(field);
  if (name === undefined || name === "") return current ?? records.get("default")!;
  const r = records.get(name);
  if (!r) throw invalid({ [field]: ["Select a valid choice. That choice is not one of the available choices."] });
  return r;
}
