/**
 * What rackform_bmc (and the inventory data source) do with a BMC: wait until it answers, read its inventory, and map
 * it to state values; plus the baseline read from `expected`. Kept apart from the resource so both types share it.
 */

import { isUnreachable as isUnreachableService } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import { nextPollMs, type PollSpec } from "../../clients/http/poll.js";
import type {
  Inventory,
  RedfishClient,
  RefreshFingerprint,
  RefreshTag,
  SystemState,
} from "../../clients/redfish/index.js";
import type { Context, JsonValue, PrivateState } from "../../framework/index.js";
import type { Baseline } from "../shared/conformance.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import type { BmcExpected, BmcState } from "./bmc-schema.js";

/** The inventory and power/boot state of one system. */
export interface Discovered {
  readonly inv: Inventory;
  readonly sys: SystemState;
}

/** The part of a Redfish client a discovery uses. */
export type DiscoveryClient = Pick<RedfishClient, "origin" | "inventory" | "getSystem">;

/** True for failures a BMC shows while it boots (after its outlet came on) or is briefly overloaded. */
export function isNotReadyYet(e: unknown): boolean {
  if (!isClientError(e)) return false;
  if (e.code === "RACKFORM_ERR_HTTP_CONNECT" || e.code === "RACKFORM_ERR_HTTP_TIMEOUT") return true;
  if (e.code === "RACKFORM_ERR_REDFISH_BMC_BUSY") return true;
  return e.code === "RACKFORM_ERR_HTTP_STATUS" && (e.status === 503 || e.status === 429);
}

/** True when the BMC did not answer at all (as opposed to answering with an error), or not within the bound. */
export function isUnreachable(e: unknown): boolean {
  return e instanceof OperationTimeoutError || isUnreachableService(e);
}

/**
 * Reads inventory and system state within `ms`. With `waitForReady`, failures of a booting BMC (connection refused or
 * reset, 503) are retried until the time is up, and the timeout's message then carries the last such failure.
 */
export async function discover(
  ctx: Context,
  client: DiscoveryClient,
  systemId: string | undefined,
  opts: {
    readonly ms: number;
    readonly op: string;
    readonly waitForReady: boolean;
    /** Between two attempts while the BMC boots (the client already retries each request). @default 1000 */
    readonly pollMs?: PollSpec;
  },
): Promise<Discovered> {
  let last: unknown;
  const what = opts.waitForReady
    ? `waiting for the BMC ${client.origin} to answer`
    : `reading the BMC ${client.origin}`;
  try {
    return await bounded(ctx, opts.ms, opts.op, what, async (signal) => {
      const start = Date.now();
      for (let attempt = 1; ; attempt++) {
        try {
          const inv = await client.inventory(systemId);
          for (const w of inv.warnings ?? [])
            ctx.log.warn("BMC inventory incomplete", { endpoint: client.origin, detail: w });
          const sys = await client.getSystem(inv.systemId);
          return { inv, sys };
        } catch (e) {
          if (!opts.waitForReady || !isNotReadyYet(e) || signal.aborted) throw e;
          last = e;
          ctx.log.info("BMC not answering yet; waiting", {
            endpoint: client.origin,
            attempt,
            code: (e as { code?: string }).code,
          });
          await new Promise((r) => setTimeout(r, nextPollMs(opts.pollMs ?? 1_000, Date.now() - start)));
          if (signal.aborted) throw signal.reason;
        }
      }
    });
  } catch (e) {
    if (e instanceof OperationTimeoutError && last instanceof Error) {
      const err = new OperationTimeoutError(`${what} (last failure: ${last.message})`, e.ms, e.op);
      throw err;
    }
    throw e;
  }
}

/** The computed attributes of rackform_bmc that a discovery gives (all but id and conformant). */
export type InventoryValues = Pick<
  BmcState,
  | "system_id"
  | "system_uuid"
  | "serial"
  | "model"
  | "manufacturer"
  | "power_state"
  | "macs"
  | "gpus"
  | "gpu_count"
  | "memory_gib"
  | "cpu_count"
  | "firmware"
  | "bios_version"
  | "bmc_firmware_version"
>;

/** Inventory as state values of rackform_bmc's computed attributes (conformant excluded). */
export function inventoryValues(d: Discovered): InventoryValues {
  const { inv, sys } = d;
  return {
    system_id: inv.systemId,
    system_uuid: sys.uuid ?? null,
    serial: inv.serial ?? null,
    model: inv.model ?? null,
    manufacturer: inv.manufacturer ?? null,
    power_state: sys.powerState ?? "Unknown",
    macs: [...inv.macs],
    gpus: inv.gpus.map((g) => ({ model: g.model ?? null, serial: g.serial ?? null })),
    gpu_count: inv.gpus.length,
    memory_gib: inv.memoryGiB ?? null,
    cpu_count: inv.cpus.length,
    firmware: firmwareMap(inv),
    bios_version: inv.biosVersion ?? null,
    bmc_firmware_version: inv.bmcFirmwareVersion ?? null,
  };
}

/** FirmwareInventory as Id → version; components without a version are left out. */
export function firmwareMap(inv: Inventory): Record<string, string> {
  return Object.fromEntries(inv.firmware.flatMap((f) => (f.version ? [[f.id, f.version]] : [])));
}

/** The GPU models of a node, distinct, in inventory order, joined with ", " (null without GPUs). */
export function gpuModels(inv: Inventory): string | null {
  const models = [...new Set(inv.gpus.flatMap((g) => (g.model ? [g.model] : [])))];
  return models.length > 0 ? models.join(", ") : null;
}

/** The baseline in an `expected` value, or undefined when it is null (nothing is checked then). */
export function baselineOf(expected: BmcExpected): Baseline | undefined {
  const e = expected;
  if (!e) return undefined;
  const fw = e.firmware;
  return {
    gpuModel: e.gpu_model ?? undefined,
    gpuCount: e.gpu_count ?? undefined,
    dpuCount: e.dpu_count ?? undefined,
    minMemoryGiB: e.min_memory_gib ?? undefined,
    cpuCount: e.cpu_count ?? undefined,
    nicCount: e.nic_count ?? undefined,
    macs: e.macs === null ? undefined : e.macs.filter((m): m is string => typeof m === "string"),
    firmware: fw
      ? Object.fromEntries(Object.entries(fw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])))
      : undefined,
  };
}

/** Private-state key of rackform_bmc's refresh fingerprint (see `fingerprintOf`). */
export const PRIVATE_FINGERPRINT = "refresh";

/**
 * What a later refresh compares to skip the full read: the expanded System and FirmwareInventory reads of this
 * discovery (undefined when the BMC offers no `$expand`: then every refresh reads everything, correctness first).
 * Their ETags are kept only when the expanded System's ETag differs from the plain System's: a BMC that gives the
 * expanded payload its resource's own ETag would answer 304 while a child (a NIC, a GPU) changed, so its payloads are
 * compared by hash instead (a plain GET each, no body saved, still one request).
 */
export function fingerprintOf(d: Discovered): RefreshFingerprint | undefined {
  const r = d.inv.refresh;
  if (!r) return undefined;
  const trusted = r.system.etag !== undefined && r.system.etag !== d.sys.etag;
  const tag = (t: RefreshTag): RefreshTag => (trusted ? t : { path: t.path, hash: t.hash });
  return { system: tag(r.system), ...(r.firmware ? { firmware: tag(r.firmware) } : {}) };
}

/** `priv` with the fingerprint set, or removed when undefined. */
export function withFingerprint(priv: PrivateState, fp: RefreshFingerprint | undefined): PrivateState {
  const { [PRIVATE_FINGERPRINT]: _, ...rest } = priv;
  return fp ? { ...rest, [PRIVATE_FINGERPRINT]: JSON.parse(JSON.stringify(fp)) as JsonValue } : rest;
}

/** The fingerprint in private state, or undefined when there is none (or it is not one this provider wrote). */
export function fingerprintIn(priv: PrivateState): RefreshFingerprint | undefined {
  const v = priv[PRIVATE_FINGERPRINT];
  const tag = (t: unknown): t is RefreshTag =>
    typeof t === "object" &&
    t !== null &&
    typeof (t as RefreshTag).path === "string" &&
    typeof (t as RefreshTag).hash === "string" &&
    ["string", "undefined"].includes(typeof (t as RefreshTag).etag);
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const { system, firmware } = v as Record<string, unknown>;
  if (!tag(system) || (firmware !== undefined && !tag(firmware))) return undefined;
  return { system, ...(firmware ? { firmware } : {}) };
}

/**
 * A refresh against `fp` within `ms`: "unchanged" (one conditional GET each of the expanded System and
 * FirmwareInventory), or what the node now is, rebuilt from those payloads, with the fingerprint to keep next;
 * undefined when the fingerprint cannot be used (the BMC no longer offers `$expand`): read everything then.
 * `knownBmcFirmware` (from state) stands for the Manager's version while the firmware is unchanged. Errors are the
 * client's, as `discover` would have thrown them.
 */
export async function refreshedSince(
  ctx: Context,
  client: Pick<RedfishClient, "origin" | "refreshSince">,
  fp: RefreshFingerprint,
  ms: number,
  knownBmcFirmware: string | undefined,
): Promise<"unchanged" | { readonly d: Discovered; readonly fingerprint?: RefreshFingerprint } | undefined> {
  const r = await bounded(ctx, ms, "read", `reading the BMC ${client.origin}`, () =>
    client.refreshSince(fp, { bmcFirmwareVersion: knownBmcFirmware }),
  );
  if (!r) return undefined;
  if (r.unchanged) return "unchanged";
  for (const w of r.inventory.warnings ?? [])
    ctx.log.warn("BMC inventory incomplete", { endpoint: client.origin, detail: w });
  // The new tags carry over the old ones' ETag trust (refresh.ts); none when the read rested on uncovered links.
  return { d: { inv: r.inventory, sys: r.system }, fingerprint: r.inventory.refresh };
}
