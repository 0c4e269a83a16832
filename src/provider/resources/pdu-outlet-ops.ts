/**
 * rackform_pdu_outlet's handlers as top-level functions of (typed request, deps): the first step of a node's chain,
 * no outlet power, no BMC. Tests call them with fake deps.
 */

import { isNotFound } from "../../clients/classify.js";
import type { OutletState, RedfishClient } from "../../clients/redfish/index.js";
import { type Diagnostics, path, type TypedRequest, timeoutMs, type Value } from "../../framework/index.js";
import type { ProviderData } from "../config/config.js";
import { addClientError } from "../errors/client-errors.js";
import { checkEndpointScheme, normalEndpoint, sameEndpoint } from "../shared/endpoint.js";
import { warnTransientRead } from "../shared/read-hold.js";
import { bounded } from "../shared/timeouts.js";
import { checkPduAtPlan, pduMismatch, reportDifferentPdu } from "./pdu-outlet-identity.js";
import type { PduOutletConfig, PduOutletPlan, PduOutletState } from "./pdu-outlet-schema.js";

/** The part of a Redfish client an outlet needs. */
export type OutletClient = Pick<RedfishClient, "origin" | "listPdus" | "getOutlet" | "getOutletAt" | "setOutletPower">;

/** What rackform_pdu_outlet's handlers use. */
export interface PduOutletDeps {
  readonly allowHttp: boolean;
  redfishClient(endpoint: string): OutletClient;
  /** Waits for this power-on's turn on its PDU. */
  powerOnTurn(endpointOrigin: string, pduId: string): Promise<void>;
}

/** The deps of the configured provider. */
export function pduOutletDeps(providerData: unknown): PduOutletDeps {
  const data = providerData as ProviderData;
  return {
    allowHttp: data.redfish.allowHttp,
    redfishClient: (endpoint) => data.redfishClient(endpoint),
    powerOnTurn: (origin, pduId) => data.powerOnTurn(origin, pduId),
  };
}

const DEFAULT_TIMEOUT_MS = { create: 5 * 60_000, read: 2 * 60_000, update: 5 * 60_000, delete: 5 * 60_000 };

const OUTLET_URL = /^(https?:\/\/[^/]+)\/redfish\/v1\/PowerEquipment\/RackPDUs\/([^/]+)\/Outlets\/([^/]+)\/?$/;

type Op = "create" | "read" | "update" | "delete";

function ms(m: PduOutletPlan | PduOutletState, op: Op): number {
  return timeoutMs({ timeouts: m.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
}

function site(endpoint: string, pduId: string | null, outletId: string) {
  return {
    what: `PDU ${endpoint}${pduId ? ` (${pduId})` : ""} outlet ${outletId}`,
    endpointPath: path("endpoint"),
    notFoundPath: path("outlet_id"),
    device: "PDU" as const,
  };
}

/** The service does not let the rack PDU be chosen without pdu_id (none, or several). */
class PduChoiceError extends Error {
  override readonly name = "PduChoiceError";
}

async function resolvePdu(client: OutletClient, pduId: string | null): Promise<string> {
  if (pduId) return pduId;
  const pdus = await client.listPdus();
  if (pdus.length === 1) return pdus[0].id;
  throw new PduChoiceError(
    pdus.length === 0
      ? "the service has no rack PDU"
      : `the service has ${pdus.length} rack PDUs (${pdus.map((p) => p.id).join(", ")}); set pdu_id to one of them`,
  );
}

/** The state after a read or a switch; the id, once known, stays across a re-address. */
function toState(prior: PduOutletPlan, endpoint: string, pduId: string, o: OutletState): PduOutletState {
  return {
    ...prior,
    id: typeof prior.id === "string" ? prior.id : `${endpoint}${o.odataId}`,
    pdu_id: pduId,
    outlet_id: o.id,
    name: o.name ?? o.id,
    power_state: o.powerState ?? "Unknown",
    power_state_on_destroy: typeof prior.power_state_on_destroy === "string" ? prior.power_state_on_destroy : null,
  };
}

/** Sets the outlet and waits until the PDU reports the wanted state. */
async function converge(r: TypedRequest & { plan: PduOutletPlan }, deps: PduOutletDeps, op: Op) {
  const { context: ctx, plan: v } = r;
  const [endpoint, outletId, wanted] = [normalEndpoint(v.endpoint), v.outlet_id, v.power_state];
  const configuredPdu = typeof v.pdu_id === "string" ? v.pdu_id : null;
  const client = deps.redfishClient(endpoint);
  try {
    return await bounded(ctx, ms(v, op), op, `switching outlet ${outletId} of ${endpoint}`, async (signal) => {
      const pduId = await resolvePdu(client, configuredPdu);
      let o = await client.getOutlet(pduId, outletId);
      if (o.powerState !== wanted) {
        if (wanted === "On") await deps.powerOnTurn(endpoint, pduId);
        ctx.log.info("switching PDU outlet", {
          endpoint,
          pdu: pduId,
          outlet: outletId,
          from: o.powerState,
          to: wanted,
        });
        o = await client.setOutletPower(pduId, outletId, wanted as "On" | "Off");
        while (o.powerState !== wanted && !signal.aborted) {
          await new Promise((res) => setTimeout(res, 200));
          o = await client.getOutlet(pduId, outletId);
        }
      }
      return toState(v, endpoint, pduId, o);
    });
  } catch (e) {
    if (e instanceof PduChoiceError) {
      r.diagnostics.error("Cannot choose the rack PDU", `${endpoint}: ${e.message}.`, path("pdu_id"));
    } else {
      addClientError(r.diagnostics, e, `switch the outlet ${wanted}`, site(endpoint, configuredPdu, outletId));
    }
    return undefined;
  }
}

/** An endpoint unknown at plan is judged now; the plan already warned about a known one (allow_http). */
function httpAllowedAtApply(plan: PduOutletPlan, deps: PduOutletDeps, diags: Diagnostics): boolean {
  if (!deps.allowHttp) checkEndpointScheme(plan.endpoint, false, path("endpoint"), diags);
  return !diags.hasError();
}

/** The recorded PDU and outlet, and where it answered, when the plan moves it to another address. */
function move(state: PduOutletState | null, plan: { endpoint: unknown } | null) {
  if (!state || !plan) return undefined;
  const [from, to, pduId, outletId] = [state.endpoint, plan.endpoint, state.pdu_id, state.outlet_id];
  if (!from || typeof to !== "string" || !pduId || !outletId || sameEndpoint(from, to)) return undefined;
  return { from, to, pduId, outletId };
}

/** A re-addressed outlet: the same PDU and outlet must answer at the new address; false after a diagnostic. */
async function samePduAtNewAddress(
  r: TypedRequest & { plan: PduOutletPlan; state: PduOutletState },
  deps: PduOutletDeps,
) {
  const m = move(r.state, r.plan);
  if (!m) return true;
  try {
    const why = await bounded(r.context, DEFAULT_TIMEOUT_MS.update, "update", `checking the PDU at ${m.to}`, () =>
      pduMismatch(deps.redfishClient(normalEndpoint(m.to)), m.pduId, m.outletId),
    );
    if (why) reportDifferentPdu(r.diagnostics, { ...m, why }, false);
  } catch (e) {
    addClientError(
      r.diagnostics,
      e,
      "reach the PDU at its new address",
      site(normalEndpoint(m.to), m.pduId, m.outletId),
    );
  }
  return !r.diagnostics.hasError();
}

export async function createOutlet(r: TypedRequest & { plan: PduOutletPlan }, deps: PduOutletDeps) {
  if (!httpAllowedAtApply(r.plan, deps, r.diagnostics)) return undefined;
  return converge(r, deps, "create");
}

/** A failed update records nothing: the planned state (a new address, a switched outlet) did not happen. */
export async function updateOutlet(
  r: TypedRequest & { plan: PduOutletPlan; state: PduOutletState },
  deps: PduOutletDeps,
): Promise<PduOutletState> {
  if (!httpAllowedAtApply(r.plan, deps, r.diagnostics)) return r.state;
  if (!(await samePduAtNewAddress(r, deps))) return r.state;
  return (await converge(r, deps, "update")) ?? r.state;
}

export async function readOutlet(r: TypedRequest & { state: PduOutletState }, deps: PduOutletDeps) {
  const st = r.state;
  const [endpoint, pduId, outletId] = [normalEndpoint(st.endpoint), st.pdu_id, st.outlet_id];
  const client = deps.redfishClient(endpoint);
  try {
    // State holds the outlet's URL after the first discovery: a refresh is then a single GET.
    // The id keeps the address of the first discovery; its path is the outlet's wherever the PDU now answers.
    const known = typeof st.id === "string" && OUTLET_URL.test(st.id) ? new URL(st.id).pathname : undefined;
    const { pdu, o } = await bounded(
      r.context,
      ms(st, "read"),
      "read",
      `reading outlet ${outletId} of ${endpoint}`,
      async () => {
        if (known && pduId) return { pdu: pduId, o: await client.getOutletAt(known) };
        const pdu = await resolvePdu(client, pduId);
        return { pdu, o: await client.getOutlet(pdu, outletId) };
      },
    );
    return toState(st, endpoint, pdu, o);
  } catch (e) {
    if (isNotFound(e)) return null;
    // The recorded state stands either way: with a warning when the failure passes by itself, else an error.
    if (!warnTransientRead(r.diagnostics, e, `outlet ${outletId} of ${endpoint}`))
      addClientError(r.diagnostics, e, "read the outlet", site(endpoint, pduId, outletId));
    return st;
  }
}

export async function deleteOutlet(r: TypedRequest & { state: PduOutletState }, deps: PduOutletDeps) {
  if (r.state.power_state_on_destroy !== "Off") return;
  await converge({ ...r, plan: { ...r.state, power_state: "Off" } }, deps, "delete");
}

export async function planOutlet(
  r: TypedRequest & { plan: PduOutletConfig | null; state: PduOutletState | null },
  deps: PduOutletDeps,
) {
  if (!r.plan) return;
  checkEndpointScheme(r.plan.endpoint as Value, deps.allowHttp, path("endpoint"), r.diagnostics);
  const m = move(r.state, r.plan);
  if (m && !r.diagnostics.hasError())
    await checkPduAtPlan(r.context, deps.redfishClient(normalEndpoint(m.to)), m, r.diagnostics);
}

/** The outlet's URL names its endpoint, PDU and outlet. */
export function importOutlet(r: TypedRequest & { id: string }): Partial<PduOutletState> | undefined {
  const m = OUTLET_URL.exec(r.id.trim());
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_pdu_outlet",
      `Expected the outlet's Redfish URL (its id), e.g. https://10.0.0.9/redfish/v1/PowerEquipment/RackPDUs/r01-pdu-a/Outlets/7; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  const [endpoint, pdu_id, outlet_id] = [m[1], decodeURIComponent(m[2]), decodeURIComponent(m[3])];
  return { id: r.id.trim(), endpoint, pdu_id, outlet_id, power_state_on_destroy: "Unchanged" };
}
