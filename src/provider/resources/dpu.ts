/**
 * rackform_dpu: a BlueField-3 DPU converged through its own BMC — mode first (Mode.Set, two Arm reboots, a host
 * power cycle through the host's BMC), then the pinned BFB (SimpleUpdate on DPU_OS over the BMC's rshim), then the
 * rshim policy. Why the host's BMC and not its outlet: an outlet cycle also cuts the DPU's BMC and the host's BMC
 * (minutes of boot on real hardware) where a chassis power cycle is what NVIDIA's procedure asks for; and the host is
 * left in the power state it had, so a machine not yet enrolled is not found running.
 */

import { isNotFound } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import type { BlueFieldOps, DpuMode, RedfishClient } from "../../clients/redfish/index.js";
import {
  type Context,
  type Diagnostics,
  getObject,
  getString,
  isUnknown,
  type ObjectValue,
  path,
  type Resource,
  timeoutMs,
} from "../../framework/index.js";
import type { ProviderData } from "../config/config.js";
import { addClientError } from "../errors/client-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { checkEndpointScheme } from "../shared/endpoint.js";
import { bounded } from "../shared/timeouts.js";
import { DPU_SCHEMA } from "./dpu-schema.js";

const DEFAULT_TIMEOUT_MS = { create: 90 * 60_000, read: 2 * 60_000, update: 90 * 60_000 };

const origin = (e: string) => new URL(e).origin;

function site(endpoint: string) {
  return { what: `DPU ${endpoint}`, endpointPath: path("endpoint"), notFoundPath: path("endpoint") };
}

function clientOf(data: ProviderData, v: ObjectValue): RedfishClient {
  const user = getString(v, "username") ?? undefined;
  const pass = getString(v, "password") ?? undefined;
  return data.dpuClient(origin(getString(v, "endpoint")!), user, pass);
}

function pollMs(data: ProviderData): number {
  const p = data.timings.readyPollMs;
  return typeof p === "number" ? p : 5_000;
}

/** The state from what the DPU reports, keeping the configured url/sha256 and credentials. */
async function observed(ops: BlueFieldOps, v: ObjectValue, messages: readonly string[]): Promise<ObjectValue> {
  const s = await ops.state();
  const bfb = getObject(v, "bfb") ?? {};
  return {
    ...v,
    id: origin(getString(v, "endpoint")!),
    mode: s.mode ?? null,
    bfb: { version: s.bfbVersion ?? null, url: bfb.url ?? null, sha256: bfb.sha256 ?? null },
    rshim: getString(v, "rshim") ?? "bmc",
    serial: s.serial ?? null,
    last_install_messages: [...messages],
  };
}

/** Waits for the host's power to read `state` (On/Off) through its BMC. */
async function hostPower(host: RedfishClient, state: "On" | "Off", ms: number, signal: AbortSignal): Promise<void> {
  for (;;) {
    const s = await host.getSystem();
    if (s.powerState === state) return;
    if (signal.aborted) throw signal.reason;
    await new Promise((r) => setTimeout(r, ms));
  }
}

/** Power-cycles the host (PERST), leaving it in the power state it had. */
async function cycleHost(data: ProviderData, endpoint: string, signal: AbortSignal): Promise<void> {
  const host = data.redfishClient(origin(endpoint));
  const ms = pollMs(data);
  const was = (await host.getSystem()).powerState;
  if (was === "On" || was === "PoweringOn") {
    await hostPower(host, "On", ms, signal);
    await host.power("ForceOff");
    await hostPower(host, "Off", ms, signal);
  }
  await host.power("On");
  await hostPower(host, "On", ms, signal);
  if (was !== "On" && was !== "PoweringOn") {
    await host.power("ForceOff");
    await hostPower(host, "Off", ms, signal);
  }
}

/** Mode, then BFB, then rshim policy; returns the state, or undefined with diagnostics. */
async function converge(
  ctx: Context,
  data: ProviderData,
  plan: ObjectValue,
  op: "create" | "update",
  diags: Diagnostics,
): Promise<ObjectValue | undefined> {
  const endpoint = origin(getString(plan, "endpoint")!);
  const ops = clientOf(data, plan).bluefield();
  const mode = getString(plan, "mode") as DpuMode;
  const bfb = getObject(plan, "bfb") ?? {};
  const version = getString(bfb, "version")!;
  const policy = getString(plan, "rshim") ?? "bmc";
  const wait = { pollIntervalMs: pollMs(data) };
  const ms = timeoutMs(plan, op, DEFAULT_TIMEOUT_MS[op]);
  let step = "read the DPU";
  try {
    return await bounded(ctx, ms, op, `converging DPU ${endpoint}`, async (signal) => {
      let s = await ops.waitBooted({ ...wait, signal });
      if (s.mode !== mode) {
        const host = getString(plan, "host_endpoint");
        if (!host) throw new MissingHostError(s.mode ?? "unknown", mode);
        step = `switch the DPU to ${mode}`;
        ctx.log.info("DPU mode change: Mode.Set, two Arm reboots, host power cycle", {
          endpoint,
          from: s.mode,
          to: mode,
        });
        await ops.setMode(mode);
        for (let i = 0; i < 2; i++) {
          await ops.rebootArm();
          await ops.waitBooted({ ...wait, signal });
        }
        await cycleHost(data, host, signal);
        await ops.waitBooted({ ...wait, signal });
        s = await ops.expectMode(mode);
      }
      if (s.bfbVersion !== version || policy === "bmc") {
        step = "give the DPU's rshim to its BMC";
        if (s.hostRshim !== "Disabled") await ops.setHostRshim(false);
        if (s.bmcRshim !== true) await ops.setBmcRshim(true);
        await ops.waitBmcRshim({ ...wait, timeoutMs: 120_000, signal });
      }
      let messages: readonly string[] = [];
      if (s.bfbVersion !== version) {
        step = `install BFB ${version}`;
        ctx.log.info("DPU BFB install", { endpoint, from: s.bfbVersion, to: version });
        try {
          await ops.installBfb(getString(bfb, "url")!, { ...wait, signal });
        } catch (e) {
          if (!isClientError(e) || e.code !== "RACKFORM_ERR_REDFISH_TASK_FAILED") throw e;
          const details = (e as { details?: { task?: { messages?: readonly string[] } } }).details;
          const task = details?.task;
          messages = task?.messages ?? [e.message];
          addClientError(diags, e, step, site(endpoint));
          return await observed(ops, plan, messages);
        }
        const after = await ops.waitBooted({ ...wait, signal });
        if (after.bfbVersion !== version) {
          diags.error(
            `Failed to ${step}`,
            `DPU ${endpoint}: the install task completed but DPU_OS reports ${JSON.stringify(after.bfbVersion)}, not ${JSON.stringify(version)}. Check that bfb.version is the version this .bfb installs.`,
            path("bfb", "version"),
          );
          return await observed(ops, plan, []);
        }
      }
      if (policy === "host") {
        step = "give the DPU's rshim back to the host";
        await ops.setBmcRshim(false);
        await ops.setHostRshim(true);
      }
      return await observed(ops, plan, messages);
    });
  } catch (e) {
    if (e instanceof MissingHostError) {
      diags.error("Cannot change the DPU's mode without its host", e.message, path("host_endpoint"));
    } else addClientError(diags, e, step, site(endpoint));
    return undefined;
  }
}

class MissingHostError extends Error {
  constructor(from: string, to: string) {
    super(
      `The DPU runs ${from}; ${to} takes effect only after a host power cycle, and host_endpoint (the host's BMC) is not set. Set it to the host's rackform_bmc endpoint.`,
    );
  }
}

/** The rackform_dpu resource; one instance per provider process. */
export function dpuResource(): Resource {
  const slot = providerDataSlot("rackform_dpu");
  const need = slot.get;
  return {
    typeName: "rackform_dpu",
    schema: DPU_SCHEMA,
    configure: slot.configure,

    modifyPlan(req, resp) {
      const plan = resp.plan;
      if (typeof plan !== "object" || plan === null || Array.isArray(plan) || isUnknown(plan)) return;
      const p = plan as ObjectValue;
      const allowHttp = slot.get().redfish.allowHttp;
      for (const a of ["endpoint", "host_endpoint"])
        checkEndpointScheme(p[a] ?? null, allowHttp, path(a), resp.diagnostics);
      const st = req.state as ObjectValue | null;
      const mode = p.mode;
      const changes = st === null ? false : typeof mode === "string" && st.mode !== mode;
      if (changes && p.host_endpoint === null) {
        resp.diagnostics.error(
          "Cannot change the DPU's mode without its host",
          `The DPU runs ${String(st?.mode)}; ${String(mode)} takes effect only after a host power cycle. Set host_endpoint to the host's BMC (its rackform_bmc endpoint).`,
          path("host_endpoint"),
        );
      }
    },

    async create(req, resp) {
      const s = await converge(req.context, need(), req.plan, "create", resp.diagnostics);
      if (s) resp.state = s;
    },

    async update(req, resp) {
      const s = await converge(req.context, need(), req.plan, "update", resp.diagnostics);
      if (s) resp.state = s;
    },

    async read(req, resp) {
      const st = req.state;
      const endpoint = origin(getString(st, "endpoint")!);
      try {
        const ops = clientOf(need(), st).bluefield();
        const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
        const messages = (Array.isArray(st.last_install_messages) ? st.last_install_messages : []) as string[];
        resp.state = await bounded(req.context, ms, "read", `reading DPU ${endpoint}`, () =>
          observed(ops, st, messages),
        );
      } catch (e) {
        if (isNotFound(e)) resp.state = null;
        else addClientError(resp.diagnostics, e, "read the DPU", site(endpoint));
      }
    },

    async delete() {
      // A DPU is hardware: destroy only forgets it (mode and BFB stay as they are).
    },

    importState(req, resp) {
      let u: URL;
      try {
        u = new URL(req.id.trim());
      } catch {
        resp.diagnostics.error(
          "Invalid import id for rackform_dpu",
          `Expected the DPU BMC's address, e.g. https://10.0.1.21; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      resp.state = { ...resp.state, id: u.origin, endpoint: u.origin, rshim: "bmc", bfb: null };
    },
  };
}
