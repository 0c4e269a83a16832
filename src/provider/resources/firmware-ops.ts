/**
 * rackform_firmware's read, plan, delete and import as top-level functions of (typed request, deps); create and
 * update (the convergence) are in firmware-apply.ts. Tests call them with fake deps.
 */
import { isNotFound } from "../../clients/classify.js";
import {
  type ApplyRequest,
  containsUnknown,
  isUnknownValue,
  type PlanChange,
  type PlanRequest,
  path,
  type TypedRequest,
  timeoutMs,
  UNKNOWN,
  type Value,
} from "../../framework/index.js";
import { addClientError } from "../errors/client-errors.js";
import { checkEndpointScheme } from "../shared/endpoint.js";
import type { FirmwareSighting } from "../shared/host-sightings.js";
import { warnTransientRead } from "../shared/read-hold.js";
import { bounded } from "../shared/timeouts.js";
import type { FirmwareBmc, FirmwareDeps } from "./firmware-deps.js";
import {
  type Baseline,
  type NodeFacts,
  nextRef,
  pendingOf,
  refOf,
  settingsOf,
  updateOrder,
  versionsOf,
} from "./firmware-model.js";
import {
  DEFAULT_TIMEOUT_MS,
  type FirmwareConfig,
  type FirmwarePlan,
  type FirmwareState,
  type firmwareSchema,
} from "./firmware-schema.js";
import {
  observeSecureBoot,
  type SecureBootWanted,
  converged as secureBootConverged,
  secureBootWanted,
  statusOf,
  targetStatus,
} from "./firmware-secure-boot.js";

type Schema = typeof firmwareSchema;

/** The BMC's origin. */
export const originOf = (endpoint: string): string => new URL(endpoint).origin;

/** The error site of a node's BMC. */
export function site(origin: string) {
  return { what: `BMC ${origin}`, endpointPath: path("endpoint"), notFoundPath: path("endpoint") };
}

/** The configured baseline (an empty one when none is given). */
export function baselineOf(v: Pick<FirmwareState, "components">): Baseline {
  return v.components ?? {};
}

/** Boolean text as the BMC's values read back (true/false), so "True" plans nothing once applied. */
export function biosWanted(v: Pick<FirmwareState, "bios">): Record<string, string> {
  const norm = (t: string) => (/^(true|false)$/i.test(t.trim()) ? t.trim().toLowerCase() : t);
  return Object.fromEntries(Object.entries(v.bios ?? {}).map(([k, t]) => [k, norm(t)]));
}

/** The wanted Secure Boot of a plan or state (undefined: not managed). */
export function secureBootOf(v: Pick<FirmwareState, "secure_boot">): SecureBootWanted | undefined {
  return secureBootWanted(v.secure_boot);
}

/**
 * Reads the node's FirmwareInventory and power, its BIOS when settings are wanted and its Secure Boot when managed
 * (an apply's read).
 */
export async function observe(bmc: FirmwareBmc, withBios: boolean, sb?: SecureBootWanted): Promise<NodeFacts> {
  const [inventory, system] = await Promise.all([bmc.firmwareInventory(), bmc.getSystem()]);
  const bios = withBios ? await bmc.bios().read() : undefined;
  const secureBoot = sb ? await observeSecureBoot(bmc, system.secureBootUri, sb) : undefined;
  return { inventory, power: system.powerState, ...(bios ? { bios } : {}), ...(secureBoot ? { secureBoot } : {}) };
}

/** Private state: the recorded versions and settings were read from the node (not only staged for its member). */
export const PRIVATE_VERIFIED = "read_from_node";

/** Private state: where the node's SecureBoot resource was found (a refresh reads it there, not through the System). */
const PRIVATE_SECURE_BOOT = "secure_boot_uri";

/**
 * The ref an apply records and offers its reset under: the planned one (the member follows it), or — planned unknown —
 * the baseline's with no apply counted yet.
 */
export function refIn(v: FirmwarePlan | FirmwareState): string {
  if (typeof v.ref === "string") return v.ref;
  return `${refOf(originOf(v.endpoint), baselineOf(v), biosWanted(v), secureBootOf(v))}/0`;
}

/** The state from what the node reports, with the configured inputs and this run's evidence. */
export function recorded(
  base: FirmwarePlan | FirmwareState,
  facts: NodeFacts,
  messages: readonly string[],
): FirmwareState {
  const origin = originOf(base.endpoint);
  const baseline = baselineOf(base);
  const wanted = biosWanted(base);
  const sb = secureBootOf(base);
  return {
    ...base,
    secure_boot_status: sb && facts.secureBoot ? statusOf(sb, facts.secureBoot) : null,
    id: origin,
    rolling: base.rolling === true,
    versions: versionsOf(facts.inventory, baseline),
    bios_settings: settingsOf(facts.bios, Object.keys(wanted)),
    bios_pending: pendingOf(facts.bios),
    ref: refIn(base),
    update_order: updateOrder(baseline),
    last_update_messages: [...messages],
  };
}

/**
 * A refresh's read, through what this process's rackform_bmc read just found where it can: that read's
 * FirmwareInventory (no request of its own), and when it found the node unchanged since its last full read, the
 * versions and settings recorded from the node stand (a BIOS setting or firmware only changes through a reset, which
 * changes the System). Settings, and a node with no such sighting (no rackform_bmc, a BMC it could not read), are read
 * from the BMC.
 */
async function refreshFacts(
  bmc: FirmwareBmc,
  st: FirmwareState,
  seen: FirmwareSighting | undefined,
): Promise<NodeFacts | "unchanged"> {
  const withBios = Object.keys(st.bios ?? {}).length > 0;
  if (seen === "unchanged") return "unchanged";
  if (seen === undefined || (withBios && !seen.bios)) return observe(bmc, withBios);
  if (!withBios || !seen.bios) return { inventory: seen.firmware };
  // The expansion carries the current settings, not the settings object: what was staged stands as recorded.
  const pending = st.bios_pending ?? {};
  const bios = { ref: "", attributes: seen.bios, applyTimes: [], pending, lastApplyMessages: [] };
  return { inventory: seen.firmware, bios };
}

/** Re-reads the versions and settings; null when the BMC no longer has the system (404). */
export async function readFirmware(
  r: ApplyRequest & { state: FirmwareState },
  deps: FirmwareDeps,
): Promise<FirmwareState | null> {
  const st = r.state;
  const origin = originOf(st.endpoint);
  const ms = timeoutMs({ timeouts: st.timeouts }, "read", DEFAULT_TIMEOUT_MS.read);
  const verified = r.private.value[PRIVATE_VERIFIED] === true;
  // An "unchanged" sighting vouches for values read from the node, not for ones only staged for its member.
  const seen = deps.sightings.firmwareOf(st.endpoint);
  try {
    const bmc = deps.bmc(origin);
    const sb = secureBootOf(st);
    const read = async () => {
      const facts = await refreshFacts(bmc, st, seen === "unchanged" && !verified ? undefined : seen);
      // Secure Boot changes without a reset (a flag set, a certificate removed): read whenever it is managed, at
      // the resource a previous read found (the System is read only to find it the first time).
      const known = r.private.value[PRIVATE_SECURE_BOOT];
      const uri = typeof known === "string" ? known : sb && (await bmc.getSystem()).secureBootUri;
      const secureBoot = sb ? await observeSecureBoot(bmc, uri, sb) : undefined;
      return { facts, secureBoot };
    };
    const { facts, secureBoot } = await bounded(r.context, ms, "read", `reading the firmware of ${origin}`, read);
    const status = sb && secureBoot ? statusOf(sb, secureBoot) : null;
    const { [PRIVATE_SECURE_BOOT]: _, ...rest } = r.private.value;
    const remembered = secureBoot ? { ...rest, [PRIVATE_SECURE_BOOT]: secureBoot.info.uri } : rest;
    if (facts === "unchanged") {
      r.private.set(remembered);
      return { ...st, secure_boot_status: status };
    }
    r.private.set({ ...remembered, [PRIVATE_VERIFIED]: true });
    return recorded(st, { ...facts, ...(secureBoot ? { secureBoot } : {}) }, st.last_update_messages ?? []);
  } catch (e) {
    if (isNotFound(e)) return null;
    if (warnTransientRead(r.diagnostics, e, `the firmware of ${origin}`)) return st;
    addClientError(r.diagnostics, e, "read the node's firmware", site(origin));
    return st;
  }
}

const same = (a: Readonly<Record<string, string>> | null, b: Readonly<Record<string, string>>) =>
  a !== null && Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);

/** The wanted versions by component, when every one is known. */
function plannedVersions(config: FirmwareConfig): Record<string, string> | undefined {
  const c = config.components;
  if (c === null) return {};
  if (isUnknownValue(c)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, t] of Object.entries(c)) {
    if (isUnknownValue(t) || isUnknownValue(t.version) || isUnknownValue(t.url) || isUnknownValue(t.sha256))
      return undefined;
    out[k] = t.version;
  }
  return out;
}

/**
 * The plan: `ref` and `update_order` from the configuration; the versions and settings the apply converges to,
 * shown against the ones read (an in-place update when they differ); a warning for settings someone else staged.
 */
export function planFirmware(r: PlanRequest<Schema>, deps: FirmwareDeps): PlanChange<Schema> | undefined {
  const plan = r.plan;
  if (!plan) return undefined;
  checkEndpointScheme(plan.endpoint, deps.allowHttp, path("endpoint"), r.diagnostics);
  const versions = plannedVersions(plan);
  const bios = plan.bios;
  if (isUnknownValue(plan.endpoint) || versions === undefined || isUnknownValue(bios)) return undefined;
  if (bios !== null && Object.values(bios).some(isUnknownValue)) return undefined;
  const wanted = biosWanted({ bios: bios as Record<string, string> | null });
  const baseline = (plan.components ?? {}) as Baseline;
  const origin = originOf(plan.endpoint);
  if (containsUnknown(plan.secure_boot as Value)) return undefined;
  const sb = secureBootOf({ secure_boot: plan.secure_boot as FirmwareState["secure_boot"] });
  const base = refOf(origin, baseline, wanted, sb);
  const next: FirmwareConfig = { ...plan, ref: nextRef(null, base), update_order: updateOrder(baseline) };
  const st = r.state;
  if (st === null) return { plan: next };
  const pending = Object.entries(st.bios_pending ?? {});
  if (pending.length > 0) {
    r.diagnostics.warning(
      "BIOS settings staged outside rackform",
      `The BIOS of ${origin} has settings staged that apply at its next reset: ${pending.map(([k, v]) => `${k} = ${v}`).join(", ")}. rackform does not overwrite them unless bios names them; clear them on the BMC if they are not meant to apply.`,
      path("bios_pending"),
    );
  }
  const sbDone = !sb || secureBootConverged(sb, st.secure_boot_status);
  const converged = same(st.versions, versions) && same(st.bios_settings, wanted) && sbDone;
  const sbStatus = sb
    ? { secure_boot_status: sbDone ? st.secure_boot_status : targetStatus(sb, st.secure_boot_status) }
    : { secure_boot_status: null };
  if (converged) {
    // Nothing to reset: the ref stays, so no cluster member rolls the node for it.
    const kept = { versions: st.versions, bios_settings: st.bios_settings, bios_pending: st.bios_pending, ...sbStatus };
    return { plan: { ...next, ref: st.ref, ...kept, last_update_messages: st.last_update_messages } };
  }
  // Only components and settings the last read found are shown moving; a new one is known after apply.
  const versionsKnown = Object.keys(versions).every((k) => st.versions !== null && k in st.versions);
  const settingsKnown = Object.keys(wanted).every((k) => st.bios_settings !== null && k in st.bios_settings);
  return {
    plan: {
      ...next,
      ref: nextRef(st.ref, base),
      versions: versionsKnown ? versions : UNKNOWN,
      bios_settings: settingsKnown ? wanted : UNKNOWN,
      ...sbStatus,
      bios_pending: UNKNOWN,
      last_update_messages: UNKNOWN,
    },
  };
}

/** A baseline is a wish on hardware: destroy forgets it (no firmware is rolled back, no setting undone). */
export function deleteFirmware(): void {}

/** The BMC's address; the baseline stays empty until the configuration gives one. */
export function importFirmware(r: TypedRequest & { id: string }): Partial<FirmwareState> | undefined {
  let u: URL;
  try {
    u = new URL(r.id.trim());
  } catch {
    r.diagnostics.error(
      "Invalid import id for rackform_firmware",
      `Expected the BMC's address, e.g. https://10.0.0.5; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  return { id: u.origin, endpoint: u.origin, rolling: false, last_update_messages: [] };
}
