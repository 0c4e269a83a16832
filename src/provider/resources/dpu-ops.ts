/**
 * rackform_dpu's handlers as top-level functions of (typed request, deps): converge a BlueField-3 DPU through its own
 * BMC — mode first (Mode.Set, two Arm reboots, a host power cycle through the host's BMC), then the pinned BFB
 * (SimpleUpdate on DPU_OS over the BMC's rshim), then the rshim policy. Tests call them with fake deps.
 */

import { isNotFound } from "../../clients/classify.js";
import type { BlueFieldOps, DpuMode, DpuState as DpuReport, RedfishClient } from "../../clients/redfish/index.js";
import {
  type Context,
  type Diagnostics,
  type PlanRequest,
  path,
  type TypedRequest,
  timeoutMs,
} from "../../framework/index.js";
import type { ProviderData } from "../config/config.js";
import { addClientError, failedTaskMessages } from "../errors/client-errors.js";
import { checkEndpointScheme } from "../shared/endpoint.js";
import { type HostPace, isHostOn, waitHostPower } from "../shared/host-power.js";
import { bounded } from "../shared/timeouts.js";
import type { DpuPlan, DpuState, dpuSchema } from "./dpu-schema.js";

/** The BlueField operations of a DPU's BMC that rackform_dpu uses. */
export type DpuOps = Pick<
  BlueFieldOps,
  | "state"
  | "setMode"
  | "expectMode"
  | "setHostRshim"
  | "setBmcRshim"
  | "rebootArm"
  | "waitBooted"
  | "waitBmcRshim"
  | "installBfb"
>;

/** The part of the host BMC's client a mode change uses: its power. */
export type HostPowerClient = Pick<RedfishClient, "getSystem" | "power">;

/** What rackform_dpu's handlers use. */
export interface DpuDeps {
  readonly allowHttp: boolean;
  /** Between two polls of a DPU. */
  readonly pollMs: number;
  /** How the host's power is polled while it is cycled. */
  readonly hostPace: HostPace;
  /** The DPU BMC at `endpoint` (its origin), with its own credentials when set, else the provider's. */
  dpu(endpoint: string, username: string | undefined, password: string | undefined): DpuOps;
  /** The host's BMC (its origin), with the provider's redfish credentials. */
  host(endpoint: string): HostPowerClient;
}

/** The deps of the configured provider. */
export function dpuDeps(providerData: unknown): DpuDeps {
  const data = providerData as ProviderData;
  const p = data.timings.readyPollMs;
  return {
    allowHttp: data.redfish.allowHttp,
    pollMs: typeof p === "number" ? p : 5_000,
    hostPace: data.hostPace,
    dpu: (endpoint, username, password) => data.dpuClient(endpoint, username, password).bluefield(),
    host: (endpoint) => data.redfishClient(endpoint),
  };
}

const DEFAULT_TIMEOUT_MS = { create: 90 * 60_000, read: 2 * 60_000, update: 90 * 60_000 };

/**
 * A state as recorded: the DPU may not report its mode or DPU_OS version (recorded as null, so the next plan shows
 * the change), and an imported DPU has no bfb until its first apply.
 */
type DpuRecorded = Omit<DpuState, "mode" | "bfb"> & {
  readonly mode: string | null;
  readonly bfb: { readonly version: string | null; readonly url: string | null; readonly sha256: string | null } | null;
};

/** The model type of a recorded state (its nulls are what the DPU reported). */
const asState = (s: DpuRecorded): DpuState => s as DpuState;

const origin = (e: string) => new URL(e).origin;

function site(endpoint: string) {
  return { what: `DPU ${endpoint}`, endpointPath: path("endpoint"), notFoundPath: path("endpoint") };
}

function opsOf(deps: DpuDeps, v: DpuPlan | DpuRecorded): DpuOps {
  return deps.dpu(origin(v.endpoint), v.username ?? undefined, v.password ?? undefined);
}

/** The state from what the DPU reports, keeping the configured url/sha256 and credentials. */
async function observed(ops: DpuOps, v: DpuPlan | DpuRecorded, messages: readonly string[]): Promise<DpuRecorded> {
  const s = await ops.state();
  const bfb = v.bfb;
  return {
    ...v,
    id: origin(v.endpoint),
    mode: s.mode ?? null,
    bfb: { version: s.bfbVersion ?? null, url: bfb?.url ?? null, sha256: bfb?.sha256 ?? null },
    rshim: typeof v.rshim === "string" ? v.rshim : "bmc",
    serial: s.serial ?? null,
    last_install_messages: [...messages],
  };
}

/** Power-cycles the host (PERST), leaving it in the power state it had. */
async function cycleHost(deps: DpuDeps, endpoint: string, signal: AbortSignal): Promise<void> {
  const host = deps.host(origin(endpoint));
  const ms = deps.hostPace;
  const was = (await host.getSystem()).powerState;
  if (isHostOn(was)) {
    await waitHostPower(host, "On", ms, signal);
    await host.power("ForceOff");
    await waitHostPower(host, "Off", ms, signal);
  }
  await host.power("On");
  await waitHostPower(host, "On", ms, signal);
  if (!isHostOn(was)) {
    await host.power("ForceOff");
    await waitHostPower(host, "Off", ms, signal);
  }
}

class MissingHostError extends Error {
  constructor(from: string, to: string) {
    super(
      `The DPU runs ${from}; ${to} takes effect only after a host power cycle, and host_endpoint (the host's BMC) is not set. Set it to the host's rackform_bmc endpoint.`,
    );
  }
}

/** One convergence under way: what it works on, and the step it is at (named by an error). */
interface Run {
  readonly ctx: Context;
  readonly deps: DpuDeps;
  readonly plan: DpuPlan;
  readonly ops: DpuOps;
  readonly endpoint: string;
  readonly diags: Diagnostics;
  readonly signal: AbortSignal;
  readonly progress: { step: string };
}

const waitOf = (run: Run) => ({ pollIntervalMs: run.deps.pollMs, signal: run.signal });

/** Mode.Set, two Arm reboots and a host power cycle; what the DPU then reports. */
async function switchMode(run: Run, s: DpuReport, mode: DpuMode): Promise<DpuReport> {
  const { ctx, ops, plan, endpoint } = run;
  const host = plan.host_endpoint;
  if (!host) throw new MissingHostError(s.mode ?? "unknown", mode);
  run.progress.step = `switch the DPU to ${mode}`;
  ctx.log.info("DPU mode change: Mode.Set, two Arm reboots, host power cycle", { endpoint, from: s.mode, to: mode });
  await ops.setMode(mode);
  for (let i = 0; i < 2; i++) {
    await ops.rebootArm();
    await ops.waitBooted(waitOf(run));
  }
  await cycleHost(run.deps, host, run.signal);
  await ops.waitBooted(waitOf(run));
  return ops.expectMode(mode);
}

/**
 * Installs the pinned BFB; a state to record at once when the install failed (the task's messages, or a version
 * other than the pinned one after it), else undefined.
 */
async function installBfb(run: Run, s: DpuReport): Promise<DpuRecorded | undefined> {
  const { ctx, ops, plan, endpoint, diags } = run;
  const version = plan.bfb.version;
  run.progress.step = `install BFB ${version}`;
  ctx.log.info("DPU BFB install", { endpoint, from: s.bfbVersion, to: version });
  try {
    await ops.installBfb(plan.bfb.url, waitOf(run));
  } catch (e) {
    const messages = failedTaskMessages(e);
    if (!messages) throw e;
    addClientError(diags, e, run.progress.step, site(endpoint));
    return await observed(ops, plan, messages);
  }
  const after = await ops.waitBooted(waitOf(run));
  if (after.bfbVersion === version) return undefined;
  diags.error(
    `Failed to ${run.progress.step}`,
    `DPU ${endpoint}: the install task completed but DPU_OS reports ${JSON.stringify(after.bfbVersion)}, not ${JSON.stringify(version)}. Check that bfb.version is the version this .bfb installs.`,
    path("bfb", "version"),
  );
  return await observed(ops, plan, []);
}

/** Mode, then BFB, then rshim policy; the state to record. */
async function convergeSteps(run: Run): Promise<DpuRecorded> {
  const { ops, plan } = run;
  const mode = plan.mode as DpuMode;
  const version = plan.bfb.version;
  const policy = typeof plan.rshim === "string" ? plan.rshim : "bmc";
  let s = await ops.waitBooted(waitOf(run));
  if (s.mode !== mode) s = await switchMode(run, s, mode);
  if (s.bfbVersion !== version || policy === "bmc") {
    run.progress.step = "give the DPU's rshim to its BMC";
    if (s.hostRshim !== "Disabled") await ops.setHostRshim(false);
    if (s.bmcRshim !== true) await ops.setBmcRshim(true);
    await ops.waitBmcRshim({ ...waitOf(run), timeoutMs: 120_000 });
  }
  if (s.bfbVersion !== version) {
    const failed = await installBfb(run, s);
    if (failed) return failed;
  }
  if (policy === "host") {
    run.progress.step = "give the DPU's rshim back to the host";
    await ops.setBmcRshim(false);
    await ops.setHostRshim(true);
  }
  return await observed(ops, plan, []);
}

/** Create and update: the converged state, or undefined after a diagnostic. */
async function converge(
  r: TypedRequest & { plan: DpuPlan },
  deps: DpuDeps,
  op: "create" | "update",
): Promise<DpuState | undefined> {
  const { context: ctx, plan, diagnostics: diags } = r;
  const endpoint = origin(plan.endpoint);
  const ops = opsOf(deps, plan);
  const ms = timeoutMs({ timeouts: plan.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
  const progress = { step: "read the DPU" };
  try {
    const s = await bounded(ctx, ms, op, `converging DPU ${endpoint}`, (signal) =>
      convergeSteps({ ctx, deps, plan, ops, endpoint, diags, signal, progress }),
    );
    return asState(s);
  } catch (e) {
    if (e instanceof MissingHostError) {
      diags.error("Cannot change the DPU's mode without its host", e.message, path("host_endpoint"));
    } else addClientError(diags, e, progress.step, site(endpoint));
    return undefined;
  }
}

/** Converges the DPU; a failed install keeps it (tainted) with the task's messages. */
export function createDpu(r: TypedRequest & { plan: DpuPlan }, deps: DpuDeps): Promise<DpuState | undefined> {
  return converge(r, deps, "create");
}

/** Converges the DPU again (a mode, BFB or rshim policy changed in config or out of band). */
export function updateDpu(r: TypedRequest & { plan: DpuPlan }, deps: DpuDeps): Promise<DpuState | undefined> {
  return converge(r, deps, "update");
}

/** Reads the mode, the DPU_OS version and the serial; null when the DPU's BMC no longer has them (404). */
export async function readDpu(r: TypedRequest & { state: DpuState }, deps: DpuDeps): Promise<DpuState | null> {
  const st: DpuRecorded = r.state;
  const endpoint = origin(st.endpoint);
  try {
    const ops = opsOf(deps, st);
    const ms = timeoutMs({ timeouts: st.timeouts }, "read", DEFAULT_TIMEOUT_MS.read);
    const messages = st.last_install_messages ?? [];
    const s = await bounded(r.context, ms, "read", `reading DPU ${endpoint}`, () => observed(ops, st, messages));
    return asState(s);
  } catch (e) {
    if (isNotFound(e)) return null;
    addClientError(r.diagnostics, e, "read the DPU", site(endpoint));
    return r.state;
  }
}

/** A DPU is hardware: destroy only forgets it (mode and BFB stay as they are). */
export function deleteDpu(): void {}

/** Plain http judged (allow_http) for both BMCs; a mode change needs the host's BMC to power-cycle it. */
export function planDpu(r: PlanRequest<typeof dpuSchema>, deps: DpuDeps): void {
  const p = r.plan;
  if (!p) return;
  checkEndpointScheme(p.endpoint, deps.allowHttp, path("endpoint"), r.diagnostics);
  checkEndpointScheme(p.host_endpoint, deps.allowHttp, path("host_endpoint"), r.diagnostics);
  const st = r.state;
  const mode = p.mode;
  const changes = st === null ? false : typeof mode === "string" && st.mode !== mode;
  if (changes && p.host_endpoint === null) {
    r.diagnostics.error(
      "Cannot change the DPU's mode without its host",
      `The DPU runs ${String(st?.mode)}; ${String(mode)} takes effect only after a host power cycle. Set host_endpoint to the host's BMC (its rackform_bmc endpoint).`,
      path("host_endpoint"),
    );
  }
}

/** The DPU BMC's address; the bfb stays null until the first apply. */
export function importDpu(r: TypedRequest & { id: string }): Partial<DpuState> | undefined {
  let u: URL;
  try {
    u = new URL(r.id.trim());
  } catch {
    r.diagnostics.error(
      "Invalid import id for rackform_dpu",
      `Expected the DPU BMC's address, e.g. https://10.0.1.21; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  const imported: Partial<DpuRecorded> = { id: u.origin, endpoint: u.origin, rshim: "bmc", bfb: null };
  return imported as Partial<DpuState>;
}
