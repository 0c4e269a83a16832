/**
 * rackform_bmc's hardware identity: the system's UUID, serial, model and manufacturer, recorded at create. They stay
 * the node's identity when its BMC moves to another address (a renumbered management network, a new VLAN, a DNS name
 * for an IP): a re-address is an in-place update that checks the same system answers at the new address, and a
 * different system there is a hardware change reported with both identities and the fix, with nothing changed.
 */

import { isNotFound } from "../../clients/classify.js";
import type { RedfishClient } from "../../clients/redfish/index.js";
import { type Context, type Diagnostics, path } from "../../framework/index.js";
import { normalEndpoint, sameEndpoint } from "../shared/endpoint.js";
import { bounded } from "../shared/timeouts.js";

/** What identifies a system, as read from a BMC (absent fields: the BMC does not report them). */
export interface SystemIdentity {
  readonly systemId?: string;
  readonly uuid?: string;
  readonly serial?: string;
  readonly model?: string;
  readonly manufacturer?: string;
}

/**
 * The attributes the identity checks read, from a state, an apply-time plan or a plan-time config: only known strings
 * count (an unknown or null value is not an identity).
 */
export interface IdentityFields {
  readonly endpoint?: unknown;
  readonly system_id?: unknown;
  readonly system_uuid?: unknown;
  readonly serial?: unknown;
  readonly model?: unknown;
  readonly manufacturer?: unknown;
}

/** The part of a Redfish client that asks which system answers. */
export type IdentityClient = Pick<RedfishClient, "origin" | "getSystem">;

const known = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The identity attributes of the state, by the field they hold. */
const RECORDED = { uuid: "system_uuid", serial: "serial", model: "model", manufacturer: "manufacturer" } as const;

/** How long a plan waits for the new address to answer before leaving the identity check to the apply. */
export const PLAN_CHECK_MS = 15_000;

/** True when the plan moves the BMC to another address (not another spelling of the same one). */
export function readdressed(state: IdentityFields | null, plan: IdentityFields | null): boolean {
  const [before, after] = [known(state?.endpoint), known(plan?.endpoint)];
  return before !== undefined && after !== undefined && !sameEndpoint(before, after);
}

/**
 * How `found` differs from the identity `recorded` holds (its known string values), or undefined when nothing
 * recorded differs. Fields `found` leaves out (not read) and fields never recorded (a state from before system_uuid)
 * are not compared; a field `found` holds as undefined (read, not reported) is a difference.
 */
export function identityChange(recorded: IdentityFields, found: SystemIdentity): string | undefined {
  for (const [field, attribute] of Object.entries(RECORDED)) {
    const was = recorded[attribute];
    const now = found[field as keyof typeof RECORDED];
    if (typeof was !== "string" || !(field in found)) continue;
    if (field === "uuid" ? was.toLowerCase() !== now?.toLowerCase() : was !== (now ?? null))
      return `${attribute} was ${was}, now ${now ?? "not reported"}`;
  }
  return undefined;
}

/** "system 1, serial S, UUID U" from the values a state or a read holds. */
export function describeIdentity(id: SystemIdentity): string {
  const parts = [
    id.systemId ? `system ${id.systemId}` : undefined,
    id.serial ? `serial ${id.serial}` : undefined,
    id.uuid ? `UUID ${id.uuid}` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(", ") : "no identity reported";
}

/** The identity a state (or a plan carrying the state's computed values) records. */
export function recordedIdentity(v: IdentityFields): SystemIdentity {
  return {
    systemId: known(v.system_id),
    uuid: known(v.system_uuid),
    serial: known(v.serial),
    model: known(v.model),
    manufacturer: known(v.manufacturer),
  };
}

/** A different system where the recorded one should answer: what to report and where. */
export interface DifferentSystem {
  /** The plan (or the state) holding the recorded identity and the address asked. */
  readonly plan: IdentityFields;
  readonly found: SystemIdentity;
  /** How the identities differ (identityChange, systemChange). */
  readonly change: string;
  /** The state's endpoint before a re-address (where the recorded system answered), else undefined. */
  readonly priorEndpoint: string | undefined;
  /** At plan the report is a warning: the apply fails for this node. */
  readonly atPlan?: boolean;
}

/**
 * The error for a different system at the BMC's address: both identities and the fix; after a re-address (a prior
 * endpoint elsewhere), naming where the recorded system answered.
 */
export function reportDifferentSystem(diags: Diagnostics, d: DifferentSystem): void {
  const { plan, found, change, priorEndpoint, atPlan = false } = d;
  const at = normalEndpoint(known(plan.endpoint) ?? "");
  const recorded = describeIdentity(recordedIdentity(plan));
  const seen = describeIdentity(found);
  if (priorEndpoint !== undefined && !sameEndpoint(priorEndpoint, at)) {
    // At plan a warning: an error would stop the whole plan, the neighbours' changes too; the apply fails this node.
    const report = atPlan ? diags.warning.bind(diags) : diags.error.bind(diags);
    report(
      `A different system answers at the new BMC address: ${at}`,
      `This node is ${recorded} (recorded at ${normalEndpoint(priorEndpoint)}); ${at} answers as ${seen} (${change}). ` +
        `${atPlan ? "The apply will fail for this node and change nothing." : "Nothing was changed."} ` +
        "If the address is wrong, correct endpoint. If this node's hardware really was " +
        "replaced, replace the node's chain (terraform apply -replace on this rackform_bmc and the resources built " +
        "on it: its machine, deployment, acceptance and cluster member), or import the new system in its place.",
      path("endpoint"),
    );
    return;
  }
  diags.error(
    "A different system answers at this BMC",
    `BMC ${at}: this node is ${recorded}; it now answers as ${seen} (${change}). The board was swapped or the ` +
      "address reassigned; check the cabling, then replace this resource (terraform apply -replace=…) to discover " +
      "the new system.",
    path("endpoint"),
  );
}

/**
 * At plan, a re-addressed BMC is asked who answers at its new address (one GET of its system): a different system is
 * reported now, as a warning naming both identities (the apply then fails for this node only, its neighbours
 * converge). An address that does not answer yet (a BMC being moved) is left to the apply, which checks anyway.
 */
export async function checkIdentityAtPlan(
  ctx: Context,
  client: IdentityClient,
  plan: IdentityFields,
  priorEndpoint: string,
  diags: Diagnostics,
): Promise<void> {
  const systemId = known(plan.system_id);
  let found: SystemIdentity;
  try {
    found = await bounded(ctx, PLAN_CHECK_MS, "plan", `asking ${client.origin} which system answers`, () =>
      whoAnswers(client, systemId),
    );
  } catch (e) {
    ctx.log.info("the new BMC address did not answer at plan; the apply checks the system's identity", {
      endpoint: client.origin,
      error: (e as Error).message,
    });
    return;
  }
  const change = systemChange(plan, found);
  if (change) reportDifferentSystem(diags, { plan, found, change, priorEndpoint, atPlan: true });
}

/**
 * Who answers at a BMC: the recorded system when it has one by that id, else its only system (another vendor's BMC
 * names its system otherwise, e.g. "1" and "DGX"). Throws when neither can be read.
 */
export async function whoAnswers(
  client: Pick<RedfishClient, "getSystem">,
  systemId: string | undefined,
): Promise<SystemIdentity> {
  try {
    const sys = await client.getSystem(systemId);
    return { systemId: sys.id, uuid: sys.uuid, serial: sys.serial };
  } catch (e) {
    if (systemId === undefined || !isNotFound(e)) throw e;
    const sys = await client.getSystem();
    return { systemId: sys.id, uuid: sys.uuid, serial: sys.serial };
  }
}

/** identityChange, also naming another system id (the recorded one is not there). */
export function systemChange(recorded: IdentityFields, found: SystemIdentity): string | undefined {
  const id = known(recorded.system_id);
  if (id !== undefined && found.systemId !== undefined && found.systemId !== id)
    return `system ${id} is not there, only ${found.systemId}`;
  return identityChange(recorded, found);
}
