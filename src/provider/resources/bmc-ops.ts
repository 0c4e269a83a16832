/**
 * rackform_bmc's handlers as top-level functions of (typed request, deps): read (drift as a warning and a planned
 * re-check, a cheap refresh by fingerprint), the plan rules, validation and import. Create and update converge in
 * bmc-ops-converge.ts. Tests call them with fake deps.
 */

import { isNotFound } from "../../clients/classify.js";
import type { PollSpec } from "../../clients/http/poll.js";
import type { RefreshFingerprint } from "../../clients/redfish/index.js";
import {
  type ApplyRequest,
  type Diagnostics,
  isUnknownValue,
  type PlanChange,
  type PlanRequest,
  path,
  type TypedRequest,
  timeoutMs,
  UNKNOWN,
} from "../../framework/index.js";
import type { ProviderData } from "../config/config.js";
import { addClientError } from "../errors/client-errors.js";
import { checkEndpointScheme } from "../shared/endpoint.js";
import type { HostSightings } from "../shared/host-sightings.js";
import { warnTransientRead } from "../shared/read-hold.js";
import { nonConformance, origin, site, vanishedGpus, what } from "./bmc-checks.js";
import {
  type Discovered,
  discover,
  fingerprintIn,
  fingerprintOf,
  isUnreachable,
  refreshedSince,
  withFingerprint,
} from "./bmc-discovery.js";
import { warnUnhealthy } from "./bmc-health.js";
import { checkIdentityAtPlan, readdressed } from "./bmc-identity.js";
import {
  carryLogHealth,
  cursorIn,
  isLogFinding,
  logHealthValues,
  newLogEntries,
  PRIVATE_HOST_OFF,
  rootIn,
  withCursor,
  withHostOff,
  withRoot,
} from "./bmc-log.js";
import { type BmcClient, converge, stateOf } from "./bmc-ops-converge.js";
import type { BmcConfig, BmcPlan, BmcState, bmcSchema } from "./bmc-schema.js";

export type { BmcClient } from "./bmc-ops-converge.js";

/** What rackform_bmc's handlers use. */
export interface BmcDeps {
  readonly allowHttp: boolean;
  /** Between two attempts to reach a BMC that is still booting (the client also retries each request). */
  readonly readyPollMs: PollSpec;
  /** The client of one BMC (its origin), with the provider's redfish credentials. */
  redfishClient(endpoint: string): BmcClient;
  /** Host power seen through BMCs in this process, for the deployments read after them (host-sightings.ts). */
  readonly sightings: Pick<HostSightings, "saw" | "lost" | "sawFirmware">;
}

/** The deps of the configured provider. */
export function bmcDeps(providerData: unknown): BmcDeps {
  const data = providerData as ProviderData;
  return {
    allowHttp: data.redfish.allowHttp,
    readyPollMs: data.timings.readyPollMs,
    redfishClient: (endpoint) => data.redfishClient(endpoint),
    sightings: data.sightings,
  };
}

const DEFAULT_TIMEOUT_MS = { create: 10 * 60_000, read: 2 * 60_000, update: 10 * 60_000 };

type Op = keyof typeof DEFAULT_TIMEOUT_MS;

/** Private flag set by read: the node answered and does not conform (drift), as opposed to a BMC that did not answer. */
const PRIVATE_DRIFT = "drift";

const SYSTEM_URL = /^(https?:\/\/[^/]+)(?:\/redfish\/v1\/?|\/redfish\/v1\/Systems\/([^/]+)\/?|\/?)$/;

function ms(m: BmcPlan, op: Op): number {
  return timeoutMs({ timeouts: m.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
}

function clientOf(deps: BmcDeps, endpoint: string): BmcClient {
  return deps.redfishClient(origin(endpoint));
}

/** An endpoint unknown at plan is judged now; the plan already warned about a known one (allow_http). */
function httpAllowedAtApply(plan: BmcPlan, deps: BmcDeps, diags: Diagnostics): boolean {
  if (!deps.allowHttp) checkEndpointScheme(plan.endpoint, false, path("endpoint"), diags);
  return !diags.hasError();
}

/** Create and update: converge the plan from `prior` (null on create), recording the state and fingerprint. */
async function applyBmc(
  r: ApplyRequest & { plan: BmcPlan },
  deps: BmcDeps,
  prior: BmcState | null,
  op: "create" | "update",
): Promise<BmcState | undefined> {
  if (!httpAllowedAtApply(r.plan, deps, r.diagnostics)) return undefined;
  const s = await converge({
    ctx: r.context,
    client: clientOf(deps, r.plan.endpoint),
    plan: r.plan,
    prior,
    ms: ms(r.plan, op),
    op,
    diags: r.diagnostics,
    readyPollMs: deps.readyPollMs,
  });
  if (!s) return undefined;
  const client = clientOf(deps, r.plan.endpoint);
  const systemId = s.state.system_id ?? undefined;
  // The log is read here too: on create that takes its baseline, so a refresh asks only for what is logged after.
  const log = await newLogEntries(r.context, client, r.private.value, { systemId });
  const health = [
    ...(s.state.health ?? []).filter((f) => !isLogFinding(f)),
    ...carryLogHealth(prior?.health, logHealthValues(log.found, new Date()), undefined),
  ];
  r.private.set(withCursor(withFingerprint(r.private.value, s.fingerprint), log.cursor));
  await rememberRoot(r, client);
  return { ...s.state, health };
}

/** Discovers and checks the node; nothing is recorded unless it conforms. */
export function createBmc(r: ApplyRequest & { plan: BmcPlan }, deps: BmcDeps): Promise<BmcState | undefined> {
  return applyBmc(r, deps, null, "create");
}

/** Re-checks the node (a re-address, a re-check of drift, an edited baseline or boot override). */
export function updateBmc(
  r: ApplyRequest & { plan: BmcPlan; state: BmcState },
  deps: BmcDeps,
): Promise<BmcState | undefined> {
  return applyBmc(r, deps, r.state, "update");
}

/** The host power a read found (or confirmed), for the deployment read after it (host-sightings.ts). */
function sighted(deps: BmcDeps, v: BmcState): void {
  deps.sightings.saw(v.endpoint, v.id ?? "", v.power_state);
}

type NodeRead = "unchanged" | { readonly d: Discovered; readonly next?: RefreshFingerprint };

/** The refresh by fingerprint where it applies, else the full read. */
async function readNode(r: ApplyRequest & { state: BmcState }, deps: BmcDeps): Promise<NodeRead> {
  const st = r.state;
  const client = clientOf(deps, st.endpoint);
  const timeout = ms(st, "read");
  // A conformant node whose expanded System and FirmwareInventory are unchanged since the last full read has
  // nothing new to record: two conditional GETs instead of the whole walk. A non-conformant one is read in full,
  // so its warning is repeated and its re-check planned from fresh values.
  const fp = st.conformant === true ? fingerprintIn(r.private.value) : undefined;
  const bmcFirmware = st.bmc_firmware_version ?? undefined;
  // The service root an earlier read recorded stands in for reading it again (one request less per refresh).
  const root = fp ? rootIn(r.private.value) : undefined;
  if (root) client.assumeServiceRoot(root);
  let since: Awaited<ReturnType<typeof refreshedSince>>;
  try {
    since = fp ? await refreshedSince(r.context, client, fp, timeout, bmcFirmware) : undefined;
  } catch (e) {
    // A recorded root may be stale (the BMC's firmware changed since): read everything, the root included.
    if (!root || isUnreachable(e)) throw e;
    client.forgetServiceRoot();
    since = undefined;
  }
  if (since === "unchanged") return since;
  if (since) return { d: since.d, next: since.fingerprint };
  const d = await discover(r.context, client, st.system_id ?? undefined, {
    ms: timeout,
    op: "read",
    waitForReady: false,
  });
  return { d, next: fingerprintOf(d) };
}

/** A BMC that did not answer: the last known values stand, non-conformant, with a warning and a planned re-check. */
function markUnreachable(r: ApplyRequest & { state: BmcState }, deps: BmcDeps, e: unknown): BmcState {
  const st = r.state;
  deps.sightings.lost(st.endpoint);
  r.private.set(withFingerprint({ ...r.private.value, [PRIVATE_DRIFT]: false }, undefined));
  r.diagnostics.warning(
    // The node in every per-node summary: the engines fold warnings of one summary into the first.
    `BMC not answering; node marked non-conformant: ${origin(st.endpoint)}`,
    `${what(st)}: ${(e as Error).message}\nThe plan re-checks this node with an update; it fails until the BMC answers again (check its outlet and network).`,
    path("endpoint"),
  );
  return { ...st, conformant: false };
}

/**
 * A failed read: gone (null) on a 404, unreachable as drift, a passing failure as a warning, anything else an error;
 * but an imported BMC (conformant still null) never read yet fails.
 */
function readFailed(r: ApplyRequest & { state: BmcState }, deps: BmcDeps, e: unknown): BmcState | null {
  const st = r.state;
  if (isNotFound(e) && st.conformant !== null) return null;
  if (isUnreachable(e) && st.conformant !== null) return markUnreachable(r, deps, e);
  if (st.conformant === null || !warnTransientRead(r.diagnostics, e, what(st), origin(st.endpoint)))
    addClientError(r.diagnostics, e, "read the BMC", site(st));
  return st;
}

/** Records what a read found: the fresh values, conformant or not (drift: a warning naming every difference). */
async function recordRead(
  r: ApplyRequest & { state: BmcState },
  deps: BmcDeps,
  d: Discovered,
  next?: RefreshFingerprint,
) {
  const st = r.state;
  const bad = nonConformance(st, d);
  const state = await withLogHealth(r, deps, stateOf(st, d, bad === undefined), d);
  warnUnhealthy(r.diagnostics, origin(st.endpoint), state.health ?? []);
  sighted(deps, state);
  r.private.set(withFingerprint({ ...r.private.value, [PRIVATE_DRIFT]: bad !== undefined }, next));
  if (bad) {
    const gone = vanishedGpus(st, d);
    r.diagnostics.warning(
      `Node no longer conforms to its expected baseline: ${origin(st.endpoint)}`,
      `${bad}${gone ? `\n${gone}` : ""}\nThe plan updates this rackform_bmc to re-check it and record what it ` +
        "finds; a change of gpu_count also re-runs the node's acceptance gate (bmc_gpu_count), which " +
        "takes the node out of service while it fails. Fix the node or change expected.",
      path("expected"),
    );
  }
  return state;
}

/**
 * Re-inventories the node. Drift and an unreachable BMC are warnings with conformant = false, never errors: a refresh
 * error would freeze the plans of the whole rack. A 404 means the system is gone.
 */
export async function readBmc(r: ApplyRequest & { state: BmcState }, deps: BmcDeps): Promise<BmcState | null> {
  let found: NodeRead;
  try {
    found = await readNode(r, deps);
  } catch (e) {
    return readFailed(r, deps, e);
  }
  if (found === "unchanged") {
    const state = await withLogHealth(r, deps, r.state, undefined);
    warnUnhealthy(r.diagnostics, origin(r.state.endpoint), state.health ?? []);
    sighted(deps, state);
    deps.sightings.sawFirmware(r.state.endpoint, "unchanged");
    return state;
  }
  const { firmware, biosAttributes: bios } = found.d.inv;
  deps.sightings.sawFirmware(r.state.endpoint, { firmware, ...(bios ? { bios } : {}) });
  const state = await recordRead(r, deps, found.d, found.next);
  await rememberRoot(r, clientOf(deps, r.state.endpoint));
  return state;
}

/** Records the service root this read used (no request: the client has it) while a refresh fingerprint is kept. */
async function rememberRoot(r: { private: ApplyRequest["private"] }, client: BmcClient): Promise<void> {
  const keep = fingerprintIn(r.private.value) !== undefined;
  const root = keep ? await client.serviceRoot().catch(() => undefined) : undefined;
  r.private.set(withRoot(r.private.value, root));
}

/**
 * `state` with the findings of the entries logged since the last read (bmc-log.ts). `d`: what this read discovered
 * (undefined when the System was unchanged: then only a log kept outside its expansion can hold new entries).
 */
async function withLogHealth(
  r: ApplyRequest & { state: BmcState },
  deps: BmcDeps,
  state: BmcState,
  d: Discovered | undefined,
): Promise<BmcState> {
  const cursor = cursorIn(r.private.value);
  if (!d && cursor?.embedded) return state;
  const client = clientOf(deps, state.endpoint);
  const log = await newLogEntries(r.context, client, r.private.value, {
    embedded: d?.inv.eventLog,
    systemId: state.system_id ?? undefined,
  });
  const power = d
    ? {
        powerState: d.sys.powerState,
        lastResetTime: d.sys.lastResetTime,
        offSeenBefore: r.private.value[PRIVATE_HOST_OFF] === true,
        recovered:
          (r.state.health ?? []).some((f) => !isLogFinding(f)) && !(state.health ?? []).some((f) => !isLogFinding(f)),
      }
    : undefined;
  const logHealth = carryLogHealth(r.state.health, logHealthValues(log.found, new Date()), power);
  r.private.set(withCursor(withHostOff(r.private.value, d?.sys.powerState), log.cursor));
  const before = (state.health ?? []).filter(isLogFinding);
  if (!d && JSON.stringify(before) === JSON.stringify(logHealth)) return state;
  return { ...state, health: [...(state.health ?? []).filter((f) => !isLogFinding(f)), ...logHealth] };
}

/** Forgetting is all destroy does: the BMC belongs to the hardware, and powering off is the outlet's job. */
export function deleteBmc(): void {}

/**
 * The plan rules: plain http judged (allow_http); a re-addressed BMC asked which system answers (a warning when
 * another does); a node found non-conformant or unreachable by read planned as an update that re-checks it.
 */
export async function planBmc(
  r: PlanRequest<typeof bmcSchema>,
  deps: BmcDeps,
): Promise<PlanChange<typeof bmcSchema> | undefined> {
  const { plan, state } = r;
  if (!plan) return undefined;
  checkEndpointScheme(plan.endpoint, deps.allowHttp, path("endpoint"), r.diagnostics);
  if (!state || r.diagnostics.hasError()) return undefined;
  // A BMC moved to another address: the same system must answer there (else nothing is changed).
  if (typeof plan.endpoint === "string" && readdressed(state, plan))
    await checkIdentityAtPlan(r.context, clientOf(deps, plan.endpoint), plan, state.endpoint, r.diagnostics);
  const next = recheckPlan(plan, state, r.private[PRIVATE_DRIFT] === true);
  return next ? { plan: next } : undefined;
}

/** The plan of a node to re-check; `drift`: read found it answering and non-conformant. */
function recheckPlan(plan: BmcConfig, state: BmcState, drift: boolean): BmcConfig | undefined {
  // A node found non-conformant (or unreachable) by read: an update that re-checks it. Its inventory stays as
  // read (or last known); only the power state is left to the apply, which may change it.
  // A read that found the node non-conformant (drift, not a BMC that did not answer): the re-check records
  // what it finds, so conformant is left to the apply.
  if (state.conformant === false && drift) return { ...plan, conformant: UNKNOWN, power_state: UNKNOWN };
  if (state.conformant === false) return { ...plan, conformant: true, power_state: UNKNOWN };
  // Any other update (an edited expected, boot override, timeouts) re-checks too and succeeds only conformant.
  if (isUnknownValue(plan.conformant)) return { ...plan, conformant: true };
  return undefined;
}

/** A boot override needs its target. */
export function validateBmc(r: TypedRequest & { config: BmcConfig }): void {
  const c = r.config;
  if (c.boot_source_override_enabled !== null && c.boot_source_override_target === null) {
    r.diagnostics.error(
      "Boot override without a target",
      'boot_source_override_enabled needs boot_source_override_target (e.g. "Pxe"); set both or neither.',
      path("boot_source_override_enabled"),
    );
  }
}

/** The BMC's address, or its system's URL (then naming the system). */
export function importBmc(r: TypedRequest & { id: string }): Partial<BmcState> | undefined {
  const m = SYSTEM_URL.exec(r.id.trim());
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_bmc",
      `Expected the BMC's address or its system's Redfish URL, e.g. https://10.0.0.5 or https://10.0.0.5/redfish/v1/Systems/1; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  return { id: r.id.trim(), endpoint: m[1], system_id: m[2] ? decodeURIComponent(m[2]) : null };
}
