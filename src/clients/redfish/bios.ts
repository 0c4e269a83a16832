/**
 * BIOS settings through Redfish (DSP0266 "Settings resource", Bios schema): the current `Attributes`, where pending
 * settings go (the `@Redfish.Settings` annotation's `SettingsObject`, never an assumed URI: Dell, HPE and Supermicro
 * name it differently), what is already staged there, the AttributeRegistry the BIOS names (found through the
 * service's Registries collection), and staging new values to apply at the next reset.
 */
import { RedfishError } from "../errors.js";
import { type AttributeRegistry, type BiosValue, parseAttributeRegistry } from "./bios-registry.js";
import { isObj, lastSegment, link, members, str } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson } from "./types.js";

/** A system's BIOS as rackform reads it. */
export interface BiosState {
  /** The Bios resource's own URI. */
  readonly ref: string;
  readonly attributes: Readonly<Record<string, BiosValue>>;
  /** The AttributeRegistry's id (e.g. "BiosAttributeRegistryP89.v1_0_0"), when the BIOS names one. */
  readonly registryId?: string;
  /** Where pending settings are written; undefined when the BIOS takes no settings. */
  readonly settingsRef?: string;
  /**
   * The apply times the settings object accepts (`@Redfish.Settings.SupportedApplyTimes`); empty when unstated (then
   * no `@Redfish.SettingsApplyTime` is sent: some BMCs refuse it).
   */
  readonly applyTimes: readonly string[];
  /** Settings staged and not applied yet: those of the settings object that differ from the current ones. */
  readonly pending: Readonly<Record<string, BiosValue>>;
  /** Messages of the last settings apply (e.g. one setting the BIOS refused at the last reset). */
  readonly lastApplyMessages: readonly { readonly messageId: string; readonly properties: readonly string[] }[];
}

/** How staged settings will be applied. */
export type ApplyTime = "OnReset" | "Immediate" | "unstated";

function attributesOf(json: RedfishJson): Record<string, BiosValue> {
  const a = isObj(json.Attributes) ? json.Attributes : {};
  const out: Record<string, BiosValue> = {};
  for (const [k, v] of Object.entries(a)) {
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

function settingsMessages(settings: Record<string, unknown>): BiosState["lastApplyMessages"] {
  const msgs = Array.isArray(settings.Messages) ? settings.Messages.filter(isObj) : [];
  return msgs.map((m) => ({
    messageId: str(m.MessageId) ?? "",
    properties: Array.isArray(m.RelatedProperties) ? m.RelatedProperties.filter((p) => typeof p === "string") : [],
  }));
}

/** The settings of `staged` that differ from `current`. */
function differing(
  current: Readonly<Record<string, BiosValue>>,
  staged: Readonly<Record<string, BiosValue>>,
): Record<string, BiosValue> {
  return Object.fromEntries(Object.entries(staged).filter(([k, v]) => current[k] !== v));
}

/** Reads the BIOS of the system at `systemRef`, with what is staged in its settings object. */
export async function readBios(t: RedfishTransport, systemRef: string): Promise<BiosState> {
  const system = await t.getJson(systemRef);
  const ref = link(system, "Bios");
  if (!ref) {
    throw new RedfishError("RACKFORM_ERR_REDFISH_NOT_FOUND", `${t.origin} system ${systemRef} has no Bios resource`);
  }
  const bios = await t.getJson(ref);
  const attributes = attributesOf(bios);
  const settings = isObj(bios["@Redfish.Settings"]) ? bios["@Redfish.Settings"] : undefined;
  const settingsRef =
    settings && isObj(settings.SettingsObject) ? str(settings.SettingsObject["@odata.id"]) : undefined;
  const staged = settingsRef && settingsRef !== ref ? attributesOf(await t.getJson(settingsRef)) : {};
  const applyTimes = Array.isArray(settings?.SupportedApplyTimes)
    ? settings.SupportedApplyTimes.filter((x): x is string => typeof x === "string")
    : [];
  const registryId = str(bios.AttributeRegistry);
  return {
    ref,
    attributes,
    ...(registryId ? { registryId } : {}),
    ...(settingsRef ? { settingsRef } : {}),
    applyTimes,
    pending: differing(attributes, staged),
    lastApplyMessages: settings ? settingsMessages(settings) : [],
  };
}

/** The registry file's name without its version: "BiosAttributeRegistryP89.v1_0_0" → "BiosAttributeRegistryP89". */
const family = (id: string) => id.replace(/\.v\d+_\d+(_\d+)?$/, "");

/**
 * The AttributeRegistry `registryId` names, through the service root's Registries collection: the file whose Id or
 * Registry is that id (else of the same registry family), its English Location (else the first). Undefined when the
 * service publishes none — the BMC then judges settings only when it applies them.
 */
export async function readAttributeRegistry(
  t: RedfishTransport,
  registryId: string,
): Promise<AttributeRegistry | undefined> {
  const registries = link(await t.root(), "Registries");
  if (!registries) return undefined;
  const refs = members(await t.getJson(registries));
  // A member's Id is its URI's last segment (DSP0266): read the file named like the registry (or its family) first,
  // and every file only when no member is named so.
  const likely = refs.filter((r) => family(lastSegment(r)) === family(registryId));
  const files = await Promise.all((likely.length > 0 ? likely : refs).map((r) => t.getJson(r)));
  const named = (f: RedfishJson, match: (id: string) => boolean) =>
    [f.Id, f.Registry].some((x) => typeof x === "string" && match(x));
  const file =
    files.find((f) => named(f, (x) => x === registryId)) ??
    files.find((f) => named(f, (x) => family(x) === family(registryId)));
  const locations = Array.isArray(file?.Location) ? file.Location.filter(isObj) : [];
  const where = locations.find((l) => l.Language === "en") ?? locations[0];
  const uri = where ? str(where.Uri) : undefined;
  return uri ? parseAttributeRegistry(await t.getJson(uri)) : undefined;
}

/**
 * Stages `attributes` in the settings object, to apply at the next reset: `@Redfish.SettingsApplyTime` OnReset only
 * where the BIOS lists OnReset in `SupportedApplyTimes`. Where it lists none the annotation is left out and the
 * service's own default holds: a Supermicro BMC without SupportedApplyTimes refuses the property outright (400
 * PropertyUnknown; bmclib PR #458, live on an AS-1114S), and such BMCs apply staged settings at the next reset anyway
 * (Supermicro's Redfish reference guide, HPE iLO's pending settings area). Returns which.
 *
 * Dell iDRAC refuses any settings PATCH while a BIOS config job it created from an earlier OnReset PATCH still waits
 * for its reset (400 IDRAC…SYS011 "Pending configuration values are already committed"): then the waiting job is
 * deleted (iDRAC discards its pending values with it) and the merged settings — those pending and `attributes` —
 * are staged again in one PATCH, which creates one new job (as bmclib's Dell provider recovers).
 */
export async function stageBiosSettings(
  t: RedfishTransport,
  bios: BiosState,
  attributes: Readonly<Record<string, BiosValue>>,
  signal?: AbortSignal,
): Promise<ApplyTime> {
  const settingsRef = bios.settingsRef;
  if (!settingsRef) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_NOT_FOUND",
      `${t.origin} BIOS ${bios.ref} takes no settings (no @Redfish.Settings SettingsObject)`,
    );
  }
  const onReset = bios.applyTimes.includes("OnReset");
  const patch = (attrs: Readonly<Record<string, BiosValue>>) =>
    t.send("PATCH", settingsRef, {
      json: { Attributes: attrs, ...(onReset ? { "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } } : {}) },
      ...(signal ? { signal } : {}),
    });
  try {
    await patch(attributes);
  } catch (e) {
    if (!pendingJobConflict(e) || !(await deleteWaitingBiosJob(t, signal))) throw e;
    await patch({ ...bios.pending, ...attributes });
  }
  return onReset ? "OnReset" : "unstated";
}

/** iDRAC's refusal of a settings PATCH because a config job waits for its reset (SYS011). */
function pendingJobConflict(e: unknown): boolean {
  const x = e as { status?: unknown; messageId?: unknown; message?: unknown };
  if (x?.status !== 400) return false;
  return /\.SYS011$/.test(String(x.messageId ?? "")) || /already committed/i.test(String(x.message ?? ""));
}

/**
 * Deletes the BIOS configuration job that waits for a reset, found through the service root's JobService (a job whose
 * Oem.Dell.JobType is BIOSConfiguration, not finished and not started). False when there is none to delete.
 */
async function deleteWaitingBiosJob(t: RedfishTransport, signal?: AbortSignal): Promise<boolean> {
  const service = link(await t.root(), "JobService");
  const jobsRef = service ? link(await t.getJson(service, signal), "Jobs") : undefined;
  if (!jobsRef) return false;
  for (const ref of members(await t.getJson(jobsRef, signal))) {
    const job = await t.getJson(ref, signal);
    const dell = isObj(job.Oem) && isObj(job.Oem.Dell) ? job.Oem.Dell : {};
    const waiting =
      ["New", "Pending", "Starting", "Scheduled"].includes(str(job.JobState) ?? "") && !dell.ActualRunningStartTime;
    if (dell.JobType === "BIOSConfiguration" && waiting) {
      await t.send("DELETE", ref, signal ? { signal } : {});
      return true;
    }
  }
  return false;
}

/** BIOS operations on one system of a BMC (RedfishClient.bios). */
export class BiosOps {
  constructor(
    private readonly t: RedfishTransport,
    private readonly systemRef: () => Promise<string>,
  ) {}

  /** The system's BIOS: current attributes, staged ones, where settings go. */
  async read(): Promise<BiosState> {
    return readBios(this.t, await this.systemRef());
  }

  /** The AttributeRegistry `registryId` names, or undefined when the service publishes none. */
  registry(registryId: string): Promise<AttributeRegistry | undefined> {
    return readAttributeRegistry(this.t, registryId);
  }

  /** Stages settings for the next reset; returns the apply time used. */
  stage(bios: BiosState, attributes: Readonly<Record<string, BiosValue>>, signal?: AbortSignal): Promise<ApplyTime> {
    return stageBiosSettings(this.t, bios, attributes, signal);
  }
}
