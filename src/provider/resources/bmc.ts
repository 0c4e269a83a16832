/**
 * rackform_bmc: one node's Redfish BMC, the step after its outlet is on. Create waits for the BMC to boot, discovers
 * the system (MACs, GPUs, memory, firmware) and checks it against `expected`, the flavor's baseline.
 *
 * Non-conformance on create: one error listing every difference, and nothing is recorded. Create changes nothing on the
 * BMC before the check passes (the boot override is set only afterwards), so there is nothing to undo, and the next
 * apply simply tries again; a tainted object would only add a replacement to the next plan for the same outcome.
 *
 * Drift (a GPU lost, firmware changed out of band) is found by read, which re-inventories the node. Read does NOT fail:
 * it records the fresh values with `conformant = false` and a warning listing every difference (and the GPUs no longer
 * reported), and the plan then holds an in-place update of this node (`conformant: false -> (known after apply)`)
 * whose apply re-checks and records what it finds, with the measured-vs-expected lines as a warning, until the node
 * conforms again or `expected` is changed. Why not an error in that apply: it would stop every resource built on this
 * BMC in the same apply, the acceptance gate too — and the gate, whose `bmc_gpu_count` follows `gpu_count`, is what
 * judges the node again and takes it out of service (a GPU lost must not leave the node in its scheduler). An edited
 * `expected` still fails the apply on a node that does not meet it. Why not an error in read: refresh
 * runs before every plan, apply AND destroy of the whole stack, so one bad node would freeze the whole rack — including
 * the destroy or the baseline change that would deal with it. The update keeps the drift visible
 * (`plan -detailed-exitcode` exits 2) and the failure scoped to the one node. Why not a replacement: replacing the BMC
 * would make its id unknown and cascade into replacing everything built on it (enrollment, deployment).
 * A BMC that stops answering during read is treated the same way (warning, conformant = false), and keeps its last
 * known values.
 *
 * Drift is never destruction: a re-check (or an edited `expected`) plans the inventory with the values in state —
 * the ones read from the device, or the last known ones when it could not be read — never as unknown, so nothing built
 * on `macs` is replaced because a read failed or a baseline changed. A real change read from a reachable device (a
 * replaced NIC's MAC) is recorded by read as a known value, so the plan shows exactly what changes downstream. Only
 * `power_state` is left to the apply: the apply itself changes it (an outlet switched back on). When the inventory
 * found by the apply differs from the planned one (the device changed between plan and apply), the apply fails, keeps
 * the previous state and asks for a new plan.
 * Destroy only forgets the BMC: it powers nothing off and leaves boot settings as they are.
 *
 * Refresh cost (issue 12): where the BMC offers `$expand`, a full read leaves a fingerprint in private state (the
 * expanded System and FirmwareInventory, by ETag or body hash; bmc-discovery.ts), and the next read of a conformant
 * node only re-checks those two (If-None-Match → 304): unchanged, the state stands as it is, with nothing read beyond
 * the service root and the session's login and logout. A changed System (power, boot) rebuilds the inventory from the
 * very payloads re-read, with no further request while the firmware is unchanged. No fingerprint, a BMC without
 * `$expand`, a non-conformant node: everything is read, as before.
 */

import { isNotFound } from "../../clients/classify.js";
import type { PollSpec } from "../../clients/http/poll.js";
import type { RedfishClient, RefreshFingerprint } from "../../clients/redfish/index.js";
import {
  type Context,
  type Diagnostics,
  getString,
  isObjectValue,
  isUnknown,
  type ObjectValue,
  type PrivateState,
  path,
  type Resource,
  timeoutMs,
  timeoutsBlock,
  UNKNOWN,
  type Value,
} from "../../framework/index.js";
import { addClientError } from "../errors/client-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { checkEndpointScheme } from "../shared/endpoint.js";
import { holdOnTransientRead } from "../shared/read-hold.js";
import { endpointOf, inventoryChange, nonConformance, origin, vanishedGpus, what } from "./bmc-checks.js";
import {
  type Discovered,
  discover,
  fingerprintIn,
  fingerprintOf,
  inventoryValues,
  isUnreachable,
  refreshedSince,
  withFingerprint,
} from "./bmc-discovery.js";
import {
  checkIdentityAtPlan,
  identityChange,
  readdressed,
  reportDifferentSystem,
  systemChange,
  whoAnswers,
} from "./bmc-identity.js";
import { schemaAttributes } from "./bmc-schema.js";

const pick = <T extends object, K extends keyof T>(o: T, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

const DEFAULT_TIMEOUT_MS = { create: 10 * 60_000, read: 2 * 60_000, update: 10 * 60_000 };

/** Private flag set by read: the node answered and does not conform (drift), as opposed to a BMC that did not answer. */
const PRIVATE_DRIFT = "drift";

const SYSTEM_URL = /^(https?:\/\/[^/]+)(?:\/redfish\/v1\/?|\/redfish\/v1\/Systems\/([^/]+)\/?|\/?)$/;

function site(v: ObjectValue) {
  return { what: what(v), endpointPath: path("endpoint"), notFoundPath: path("system_id") };
}

/** The full state after a successful discovery; the id, once known, stays across a re-address. */
function stateOf(v: ObjectValue, d: Discovered, conformant: boolean): ObjectValue {
  return {
    ...v,
    // An import by the BMC's address alone is completed with the system path found.
    id: typeof v.id === "string" && v.id.includes("/Systems/") ? v.id : `${origin(endpointOf(v))}${d.sys.odataId}`,
    ...inventoryValues(d),
    conformant,
  };
}

/** Discovers (waiting for the BMC to boot), checks the baseline, then sets the boot override. */
/** What one create or update converges: the plan, the prior state (null on create), and where to report. */
interface ConvergeInput {
  readonly ctx: Context;
  readonly client: RedfishClient;
  readonly plan: ObjectValue;
  readonly prior: ObjectValue | null;
  readonly ms: number;
  readonly op: "create" | "update";
  readonly diags: Diagnostics;
  readonly readyPollMs: PollSpec;
}

async function converge(
  input: ConvergeInput,
): Promise<{ state: ObjectValue; fingerprint?: RefreshFingerprint } | undefined> {
  const { ctx, client, plan, prior, ms, op, diags, readyPollMs } = input;
  const systemId = typeof plan.system_id === "string" ? plan.system_id : undefined;
  let d: Discovered;
  try {
    d = await discover(ctx, client, systemId, { ms, op, waitForReady: true, pollMs: readyPollMs });
  } catch (e) {
    // A re-addressed BMC without the recorded system: another node's BMC answers there.
    const found =
      isNotFound(e) && readdressed(prior, plan)
        ? await whoAnswers(client, undefined).catch(() => undefined)
        : undefined;
    const change = found && systemChange(plan, found);
    if (found && change)
      reportDifferentSystem(diags, plan, found, change, getString(prior ?? {}, "endpoint") ?? undefined);
    else addClientError(diags, e, "discover the BMC", site(plan));
    return undefined;
  }
  if (d.inv.warnings?.length)
    diags.warning(
      // The BMC in the summary: the engines fold warnings of one summary into the first ("and N more similar
      // warnings"), which would hide every other node's dead links.
      `BMC inventory incomplete: ${client.origin}`,
      `${site(plan).what}: some linked resources could not be read and were left out:\n${d.inv.warnings?.join("\n")}\nThe node's identity (system, MACs, serial) was read; check the BMC's firmware if a count looks low.`,
    );
  const found = { systemId: d.inv.systemId, uuid: d.sys.uuid, ...pick(d.inv, "serial", "model", "manufacturer") };
  const swapped = identityChange(plan, found);
  if (swapped) {
    reportDifferentSystem(diags, plan, found, swapped, getString(prior ?? {}, "endpoint") ?? undefined);
    return undefined;
  }
  const moved = op === "update" ? inventoryChange(plan, d) : undefined;
  if (moved) {
    diags.error(
      "The node's inventory changed between plan and apply",
      `${what(plan, d)}: ${moved}. Nothing was changed and the previous state is kept; run the plan again to see what this change means for the resources built on this node.`,
      path("macs"),
    );
    return undefined;
  }
  const bad = nonConformance(plan, d);
  if (bad && op === "update" && isUnknown(plan.conformant)) {
    // The re-check of drift a read found on a running node: recorded, not fatal. An error here would stop every
    // resource built on this BMC in this apply, the acceptance gate too, which is what takes the node out of service.
    diags.warning(
      `Node still does not conform to its expected baseline: ${origin(getString(plan, "endpoint")!)}`,
      `${bad}\nRecorded as conformant = false. Fix the node (reseat or replace the part, update the firmware) or ` +
        "change expected to accept it; the next plan re-checks it again.",
      path("expected"),
    );
    return { state: stateOf(plan, d, false), fingerprint: fingerprintOf(d) };
  }
  if (bad) {
    diags.error(
      "Node does not conform to its expected baseline",
      `${bad}\nFix the node (reseat or replace the part, update the firmware) or change expected to accept it. ${op === "create" ? "Nothing was recorded; the next apply checks again." : "The previous state is kept."}`,
      path("expected"),
    );
    return undefined;
  }
  const target = getString(plan, "boot_source_override_target");
  const enabled = getString(plan, "boot_source_override_enabled") ?? "Once";
  const changed =
    prior === null ||
    prior.boot_source_override_target !== target ||
    prior.boot_source_override_enabled !== plan.boot_source_override_enabled;
  let fingerprint = fingerprintOf(d);
  if (target !== null && changed) {
    try {
      ctx.log.info("setting boot source override", { endpoint: client.origin, target, enabled });
      await client.setBootOverride(target, enabled as "Once" | "Continuous" | "Disabled", { systemId: d.inv.systemId });
    } catch (e) {
      addClientError(diags, e, "set the boot source override", {
        ...site(plan),
        notFoundPath: path("boot_source_override_target"),
      });
      return undefined;
    }
    // The override changed the System: the fingerprint is re-taken (the inventory it stands for is unchanged), else
    // the next refresh would read everything for a change this apply made. Failing that, there is none.
    fingerprint =
      fingerprint &&
      (await client.recheck(fingerprint).then(
        (r) => r.fingerprint,
        () => undefined,
      ));
  }
  return { state: stateOf(plan, d, true), fingerprint };
}

/** The rackform_bmc resource; one instance per provider process. */
export function bmcResource(): Resource {
  const slot = providerDataSlot("rackform_bmc");
  const client = (v: ObjectValue): RedfishClient => {
    return slot.get().redfishClient(origin(endpointOf(v)));
  };
  /** An endpoint unknown at plan is judged now; the plan already warned about a known one (allow_http). */
  const httpAllowedAtApply = (v: ObjectValue, diags: Diagnostics) => {
    if (!slot.get().redfish.allowHttp) checkEndpointScheme(v.endpoint ?? null, false, path("endpoint"), diags);
    return !diags.hasError();
  };
  /** Create and update: converge the plan from `prior` (null on create), recording the state and fingerprint. */
  const apply = async (
    req: { readonly context: Context; readonly plan: ObjectValue },
    resp: { state: Value; private: PrivateState; readonly diagnostics: Diagnostics },
    prior: ObjectValue | null,
    op: "create" | "update",
  ) => {
    if (!httpAllowedAtApply(req.plan, resp.diagnostics)) return;
    const s = await converge({
      ctx: req.context,
      client: client(req.plan),
      plan: req.plan,
      prior,
      ms: timeoutMs(req.plan, op, DEFAULT_TIMEOUT_MS[op]),
      op,
      diags: resp.diagnostics,
      readyPollMs: slot.get().timings.readyPollMs,
    });
    if (s) {
      resp.state = s.state;
      resp.private = withFingerprint(resp.private, s.fingerprint);
    }
  };
  /** The host power a read found (or confirmed), for the deployment read after it (host-sightings.ts). */
  const sighted = (v: ObjectValue) =>
    slot.get().sightings.saw(endpointOf(v), getString(v, "id") ?? "", getString(v, "power_state"));
  return {
    typeName: "rackform_bmc",
    schema: {
      version: 0,
      description:
        "One node's Redfish BMC, the step after its outlet is on. Create waits for the BMC to boot (connection " +
        "failures and 503 are retried until timeouts.create, default 10m), discovers the system (MACs, GPUs, memory, " +
        "CPUs, firmware) and checks it against `expected`: a node that does not conform fails with one error listing " +
        "every difference, and nothing is recorded. Drift found by a refresh (or a BMC that stopped answering) is a " +
        "warning, conformant = false and a planned in-place update that re-checks the node, so one bad node never blocks " +
        "the plans of its neighbours; the re-check of drift records what it finds (a warning, not an error), so the " +
        "node's acceptance gate (bmc_gpu_count = this gpu_count) can run again and take a node that lost a GPU out of " +
        "service in the same apply. A refresh of a conforming node reads only what it must where the BMC offers " +
        "$expand (the service root, the session's login and logout, and one conditional GET each of the expanded " +
        "System and FirmwareInventory), also when they changed (the node is re-read from them, and its Manager when " +
        "its firmware changed); without $expand, or without a previous full read, everything is read. " +
        "Credentials come from the provider's redfish block. Destroy only forgets the " +
        "BMC: it powers nothing off and changes no setting. Import with the endpoint or the system's URL.",
      attributes: schemaAttributes,
      blocks: { timeouts: timeoutsBlock(["create", "read", "update"]) },
    },

    configure: slot.configure,

    validateConfig(req, resp) {
      const c = req.config;
      if (c.boot_source_override_enabled !== null && c.boot_source_override_target === null) {
        resp.diagnostics.error(
          "Boot override without a target",
          'boot_source_override_enabled needs boot_source_override_target (e.g. "Pxe"); set both or neither.',
          path("boot_source_override_enabled"),
        );
      }
    },

    create: (req, resp) => apply(req, resp, null, "create"),

    update: (req, resp) => apply(req, resp, req.state, "update"),

    async read(req, resp) {
      const st = req.state;
      const systemId = typeof st.system_id === "string" ? st.system_id : undefined;
      const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
      // A conformant node whose expanded System and FirmwareInventory are unchanged since the last full read has
      // nothing new to record: two conditional GETs instead of the whole walk. A non-conformant one is read in full,
      // so its warning is repeated and its re-check planned from fresh values.
      const fp = st.conformant === true ? fingerprintIn(req.private) : undefined;
      let d: Discovered;
      let next: RefreshFingerprint | undefined;
      try {
        const bmcFirmware = typeof st.bmc_firmware_version === "string" ? st.bmc_firmware_version : undefined;
        const r = fp ? await refreshedSince(req.context, client(st), fp, ms, bmcFirmware) : undefined;
        if (r === "unchanged") {
          sighted(st);
          return;
        }
        if (r) ({ d, fingerprint: next } = r);
        else {
          d = await discover(req.context, client(st), systemId, { ms, op: "read", waitForReady: false });
          next = fingerprintOf(d);
        }
      } catch (e) {
        if (isNotFound(e) && st.conformant !== null) {
          resp.state = null;
        } else if (isUnreachable(e) && st.conformant !== null) {
          slot.get().sightings.lost(getString(st, "endpoint")!);
          resp.state = { ...st, conformant: false };
          resp.private = withFingerprint({ ...resp.private, [PRIVATE_DRIFT]: false }, undefined);
          resp.diagnostics.warning(
            // The node in every per-node summary: the engines fold warnings of one summary into the first.
            `BMC not answering; node marked non-conformant: ${origin(getString(st, "endpoint")!)}`,
            `${what(st)}: ${(e as Error).message}\nThe plan re-checks this node with an update; it fails until the BMC answers again (check its outlet and network).`,
            path("endpoint"),
          );
        } else if (
          st.conformant === null ||
          !holdOnTransientRead(resp, st, e, what(st), origin(getString(st, "endpoint")!))
        )
          addClientError(resp.diagnostics, e, "read the BMC", site(st));
        return;
      }
      const bad = nonConformance(st, d);
      resp.state = stateOf(st, d, bad === undefined);
      sighted(resp.state);
      resp.private = withFingerprint({ ...resp.private, [PRIVATE_DRIFT]: bad !== undefined }, next);
      if (bad) {
        const gone = vanishedGpus(st, d);
        resp.diagnostics.warning(
          `Node no longer conforms to its expected baseline: ${origin(getString(st, "endpoint")!)}`,
          `${bad}${gone ? `\n${gone}` : ""}\nThe plan updates this rackform_bmc to re-check it and record what it ` +
            "finds; a change of gpu_count also re-runs the node's acceptance gate (bmc_gpu_count), which " +
            "takes the node out of service while it fails. Fix the node or change expected.",
          path("expected"),
        );
      }
    },

    delete() {
      // Forgetting is all destroy does: the BMC belongs to the hardware, and powering off is the outlet's job.
    },

    async modifyPlan(req, resp) {
      const { plan, state } = req;
      if (!isObjectValue(plan)) return;
      checkEndpointScheme(plan.endpoint ?? null, slot.get().redfish.allowHttp, path("endpoint"), resp.diagnostics);
      if (!isObjectValue(state) || resp.diagnostics.hasError()) return;
      // A BMC moved to another address: the same system must answer there (else nothing is changed).
      if (readdressed(state, plan))
        await checkIdentityAtPlan(req.context, client(plan), plan, endpointOf(state), resp.diagnostics);
      // A node found non-conformant (or unreachable) by read: an update that re-checks it. Its inventory stays as
      // read (or last known); only the power state is left to the apply, which may change it.
      // A read that found the node non-conformant (drift, not a BMC that did not answer): the re-check records
      // what it finds, so conformant is left to the apply.
      if (state.conformant === false && req.private[PRIVATE_DRIFT] === true)
        resp.plan = { ...plan, conformant: UNKNOWN, power_state: UNKNOWN };
      else if (state.conformant === false) resp.plan = { ...plan, conformant: true, power_state: UNKNOWN };
      // Any other update (an edited expected, boot override, timeouts) re-checks too and succeeds only conformant.
      else if (isUnknown(plan.conformant)) resp.plan = { ...plan, conformant: true };
    },

    importState(req, resp) {
      const m = SYSTEM_URL.exec(req.id.trim());
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_bmc",
          `Expected the BMC's address or its system's Redfish URL, e.g. https://10.0.0.5 or https://10.0.0.5/redfish/v1/Systems/1; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      resp.state = {
        ...resp.state,
        id: req.id.trim(),
        endpoint: m[1],
        system_id: m[2] ? decodeURIComponent(m[2]) : null,
      };
    },
  };
}
