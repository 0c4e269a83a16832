/**
 * rackform_pdu_outlet's identity across a re-address: the rack PDU's id and the outlet's, not the PDU's address. A
 * new endpoint is an in-place update when the same PDU (by id) with the same outlet answers there; anything else is
 * reported with both sides named, and nothing is switched.
 */

import { isNotFound } from "../../clients/classify.js";
import type { RedfishClient } from "../../clients/redfish/index.js";
import { type Context, type Diagnostics, path } from "../../framework/index.js";
import { normalEndpoint } from "../shared/endpoint.js";
import { bounded } from "../shared/timeouts.js";

/** How long a plan waits for the new address before leaving the check to the apply. */
const PLAN_CHECK_MS = 15_000;

/** The part of a Redfish client the identity check needs. */
type PduClient = Pick<RedfishClient, "origin" | "listPdus" | "getOutlet">;

/** Why the PDU at `client` is not the one recorded (pdu `pduId` with outlet `outletId`), or undefined when it is. */
export async function pduMismatch(client: PduClient, pduId: string, outletId: string): Promise<string | undefined> {
  // A service without PowerEquipment (a server's BMC) serves no rack PDU.
  const pdus = await client.listPdus().catch((e: unknown) => {
    if (isNotFound(e)) return [];
    throw e;
  });
  if (!pdus.some((p) => p.id === pduId)) {
    const there = pdus.map((p) => `${p.id}${p.serial ? ` (serial ${p.serial})` : ""}`).join(", ");
    return `it serves ${pdus.length === 0 ? "no rack PDU" : `rack PDU ${there}`}, not ${pduId}`;
  }
  try {
    await client.getOutlet(pduId, outletId);
  } catch (e) {
    if (isNotFound(e)) return `its rack PDU ${pduId} has no outlet ${outletId}`;
    throw e;
  }
  return undefined;
}

/** The report of a different PDU at the new address: an error at apply, a warning at plan (the apply then fails). */
export function reportDifferentPdu(
  diags: Diagnostics,
  e: { from: string; to: string; pduId: string; outletId: string; why: string },
  atPlan: boolean,
): void {
  const report = atPlan ? diags.warning.bind(diags) : diags.error.bind(diags);
  report(
    `A different PDU answers at the new address: ${normalEndpoint(e.to)}`,
    `This outlet is ${e.outletId} of rack PDU ${e.pduId} (recorded at ${normalEndpoint(e.from)}); at ` +
      `${normalEndpoint(e.to)} ${e.why}. ${atPlan ? "The apply will fail for this outlet and switch nothing." : "Nothing was switched."} ` +
      "If the address is wrong, correct endpoint; if the node now hangs off another PDU, set pdu_id and outlet_id " +
      "to it (which replaces this outlet), or import that outlet.",
    path("endpoint"),
  );
}

/** At plan: asks the new address which PDU it serves; silent when it does not answer (the apply checks again). */
export async function checkPduAtPlan(
  ctx: Context,
  client: PduClient,
  e: { from: string; to: string; pduId: string; outletId: string },
  diags: Diagnostics,
): Promise<void> {
  let why: string | undefined;
  try {
    why = await bounded(ctx, PLAN_CHECK_MS, "plan", `asking ${client.origin} which PDU it serves`, () =>
      pduMismatch(client, e.pduId, e.outletId),
    );
  } catch (err) {
    ctx.log.info("the new PDU address did not answer at plan; the apply checks it", {
      endpoint: client.origin,
      error: (err as Error).message,
    });
    return;
  }
  if (why) reportDifferentPdu(diags, { ...e, why }, true);
}
