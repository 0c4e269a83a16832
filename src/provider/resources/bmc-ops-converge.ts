/**
 * rackform_bmc's create and update: discover the node (waiting for its BMC to boot), check that it is the recorded
 * system with the planned inventory and that it conforms to `expected`, then set the boot override. Split from
 * bmc-ops.ts so each file reads whole.
 */

import { isNotFound } from "../../clients/classify.js";
import type { PollSpec } from "../../clients/http/poll.js";
import type { RedfishClient, RefreshFingerprint } from "../../clients/redfish/index.js";
import { type Context, type Diagnostics, isUnknownValue, path } from "../../framework/index.js";
import { addClientError } from "../errors/client-errors.js";
import { inventoryChange, nonConformance, origin, site, what } from "./bmc-checks.js";
import { type Discovered, discover, fingerprintOf, inventoryValues } from "./bmc-discovery.js";
import { healthValues } from "./bmc-health.js";
import { identityChange, readdressed, reportDifferentSystem, systemChange, whoAnswers } from "./bmc-identity.js";
import type { BmcPlan, BmcState } from "./bmc-schema.js";

/** The part of a Redfish client rackform_bmc uses. */
export type BmcClient = Pick<
  RedfishClient,
  | "origin"
  | "inventory"
  | "getSystem"
  | "setBootOverride"
  | "recheck"
  | "refreshSince"
  | "eventLogSince"
  | "serviceRoot"
  | "assumeServiceRoot"
  | "forgetServiceRoot"
>;

/** What one create or update converges: the plan, the prior state (null on create), and where to report. */
export interface ConvergeInput {
  readonly ctx: Context;
  readonly client: BmcClient;
  readonly plan: BmcPlan;
  readonly prior: BmcState | null;
  readonly ms: number;
  readonly op: "create" | "update";
  readonly diags: Diagnostics;
  readonly readyPollMs: PollSpec;
}

/** The state to record and the refresh fingerprint to keep in private state (none: the next read reads all). */
export interface Converged {
  readonly state: BmcState;
  readonly fingerprint?: RefreshFingerprint;
}

const pick = <T extends object, K extends keyof T>(o: T, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

/**
 * The full state after a successful discovery of `v` (a plan, or the state a read started from); the id, once known,
 * stays across a re-address.
 */
export function stateOf(v: BmcPlan, d: Discovered, conformant: boolean): BmcState {
  return {
    ...v,
    // An import by the BMC's address alone is completed with the system path found.
    id: typeof v.id === "string" && v.id.includes("/Systems/") ? v.id : `${origin(v.endpoint)}${d.sys.odataId}`,
    ...inventoryValues(d),
    health: healthValues(d.inv.health ?? [], isUnknownValue(v.health) ? null : v.health),
    conformant,
  };
}

/** Discovers the node, waiting for its BMC to boot; undefined after a diagnostic. */
async function discoverAtApply(input: ConvergeInput): Promise<Discovered | undefined> {
  const { ctx, client, plan, prior, ms, op, diags, readyPollMs } = input;
  const systemId = typeof plan.system_id === "string" ? plan.system_id : undefined;
  try {
    return await discover(ctx, client, systemId, { ms, op, waitForReady: true, pollMs: readyPollMs });
  } catch (e) {
    // A re-addressed BMC without the recorded system: another node's BMC answers there.
    const found =
      isNotFound(e) && readdressed(prior, plan)
        ? await whoAnswers(client, undefined).catch(() => undefined)
        : undefined;
    const change = found && systemChange(plan, found);
    if (found && change) reportDifferentSystem(diags, { plan, found, change, priorEndpoint: prior?.endpoint });
    else addClientError(diags, e, "discover the BMC", site(plan));
    return undefined;
  }
}

/** A warning naming the linked resources the inventory had to leave out, if any. */
function warnIncomplete(input: ConvergeInput, d: Discovered): void {
  if (d.inv.warnings?.length)
    input.diags.warning(
      // The BMC in the summary: the engines fold warnings of one summary into the first ("and N more similar
      // warnings"), which would hide every other node's dead links.
      `BMC inventory incomplete: ${input.client.origin}`,
      `${site(input.plan).what}: some linked resources could not be read and were left out:\n${d.inv.warnings?.join("\n")}\nThe node's identity (system, MACs, serial) was read; check the BMC's firmware if a count looks low.`,
    );
}

/** True after an error when another system answers, or (on update) the inventory moved since the plan. */
function hardwareChanged(input: ConvergeInput, d: Discovered): boolean {
  const { plan, prior, op, diags } = input;
  const found = { systemId: d.inv.systemId, uuid: d.sys.uuid, ...pick(d.inv, "serial", "model", "manufacturer") };
  const swapped = identityChange(plan, found);
  if (swapped) {
    reportDifferentSystem(diags, { plan, found, change: swapped, priorEndpoint: prior?.endpoint });
    return true;
  }
  const moved = op === "update" ? inventoryChange(plan, d) : undefined;
  if (moved) {
    diags.error(
      "The node's inventory changed between plan and apply",
      `${what(plan, d)}: ${moved}. Nothing was changed and the previous state is kept; run the plan again to see what this change means for the resources built on this node.`,
      path("macs"),
    );
    return true;
  }
  return false;
}

/**
 * The re-check of drift a read found on a running node: recorded, not fatal. An error here would stop every resource
 * built on this BMC in this apply, the acceptance gate too, which is what takes the node out of service.
 */
function recordDrift(input: ConvergeInput, d: Discovered, bad: string): Converged {
  input.diags.warning(
    `Node still does not conform to its expected baseline: ${origin(input.plan.endpoint)}`,
    `${bad}\nRecorded as conformant = false. Fix the node (reseat or replace the part, update the firmware) or ` +
      "change expected to accept it; the next plan re-checks it again.",
    path("expected"),
  );
  return { state: stateOf(input.plan, d, false), fingerprint: fingerprintOf(d) };
}

/** Sets the planned boot override when it is new or changed; the state, or undefined after a diagnostic. */
async function setBootOverride(input: ConvergeInput, d: Discovered): Promise<Converged | undefined> {
  const { ctx, client, plan, prior, diags } = input;
  const target = plan.boot_source_override_target;
  const enabled = plan.boot_source_override_enabled ?? "Once";
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

/**
 * Create and update: discovers (waiting for the BMC to boot), checks identity, inventory and baseline, then sets the
 * boot override. Undefined after an error diagnostic: nothing is recorded (create) or the prior state is kept.
 */
export async function converge(input: ConvergeInput): Promise<Converged | undefined> {
  const d = await discoverAtApply(input);
  if (!d) return undefined;
  warnIncomplete(input, d);
  if (hardwareChanged(input, d)) return undefined;
  const bad = nonConformance(input.plan, d);
  if (bad && input.op === "update" && isUnknownValue(input.plan.conformant)) return recordDrift(input, d, bad);
  if (bad) {
    input.diags.error(
      "Node does not conform to its expected baseline",
      `${bad}\nFix the node (reseat or replace the part, update the firmware) or change expected to accept it. ${input.op === "create" ? "Nothing was recorded; the next apply checks again." : "The previous state is kept."}`,
      path("expected"),
    );
    return undefined;
  }
  return setBootOverride(input, d);
}
