/**
 * rackform_pdu_outlet: the power state of one outlet of a Redfish rack PDU (DMTF PowerDistribution / Outlet,
 * switched with #Outlet.PowerControl). The first step of a node's chain: no outlet power, no BMC.
 */

import type { OutletState, RedfishClient } from "../../clients/redfish/index.js";
import {
  attr,
  type Context,
  type Diagnostics,
  getString,
  isObjectValue,
  type ObjectValue,
  path,
  type Resource,
  requiresReplace,
  stringLength,
  stringOneOf,
  timeoutMs,
  timeoutsBlock,
  useStateForUnknown,
  type Value,
} from "../../framework/index.js";
import { addClientError, isGone } from "../client-errors.js";
import type { ProviderData } from "../config.js";
import { providerDataSlot } from "../data-slot.js";
import { checkEndpointScheme, endpointSpelling, normalEndpoint, redfishEndpoint, sameEndpoint } from "../endpoint.js";
import { holdOnTransientRead } from "../read-hold.js";
import { bounded } from "../timeouts.js";
import { checkPduAtPlan, pduMismatch, reportDifferentPdu } from "./pdu-outlet-identity.js";

const DEFAULT_TIMEOUT_MS = { create: 5 * 60_000, read: 2 * 60_000, update: 5 * 60_000, delete: 5 * 60_000 };

const OUTLET_URL = /^(https?:\/\/[^/]+)\/redfish\/v1\/PowerEquipment\/RackPDUs\/([^/]+)\/Outlets\/([^/]+)\/?$/;

function site(endpoint: string, pduId: string | null, outletId: string) {
  return {
    what: `PDU ${endpoint}${pduId ? ` (${pduId})` : ""} outlet ${outletId}`,
    endpointPath: path("endpoint"),
    notFoundPath: path("outlet_id"),
    device: "PDU" as const,
  };
}

async function resolvePdu(client: RedfishClient, pduId: string | null): Promise<string> {
  if (pduId) return pduId;
  const pdus = await client.listPdus();
  if (pdus.length === 1) return pdus[0].id;
  throw new Error(
    pdus.length === 0
      ? "the service has no rack PDU"
      : `the service has ${pdus.length} rack PDUs (${pdus.map((p) => p.id).join(", ")}); set pdu_id to one of them`,
  );
}

/** The state after a read or a switch; the id, once known, stays across a re-address. */
function toState(prior: ObjectValue, endpoint: string, pduId: string, o: OutletState): ObjectValue {
  return {
    ...prior,
    id: typeof prior.id === "string" ? prior.id : `${endpoint}${o.odataId}`,
    pdu_id: pduId,
    outlet_id: o.id,
    name: o.name ?? o.id,
    power_state: o.powerState ?? "Unknown",
  };
}

/** Sets the outlet and waits until the PDU reports the wanted state. */
async function converge(
  ctx: Context,
  data: ProviderData,
  v: ObjectValue,
  ms: number,
  op: string,
  diags: Diagnostics,
): Promise<ObjectValue | undefined> {
  const endpoint = normalEndpoint(getString(v, "endpoint")!);
  const outletId = getString(v, "outlet_id")!;
  const wanted = getString(v, "power_state")!;
  const configuredPdu = typeof v.pdu_id === "string" ? v.pdu_id : null;
  const client = data.redfishClient(endpoint);
  try {
    return await bounded(ctx, ms, op, `switching outlet ${outletId} of ${endpoint}`, async (signal) => {
      const pduId = await resolvePdu(client, configuredPdu);
      let o = await client.getOutlet(pduId, outletId);
      if (o.powerState !== wanted) {
        if (wanted === "On") await data.powerOnTurn(endpoint, pduId);
        ctx.log.info("switching PDU outlet", {
          endpoint,
          pdu: pduId,
          outlet: outletId,
          from: o.powerState,
          to: wanted,
        });
        o = await client.setOutletPower(pduId, outletId, wanted as "On" | "Off");
        while (o.powerState !== wanted && !signal.aborted) {
          await new Promise((r) => setTimeout(r, 200));
          o = await client.getOutlet(pduId, outletId);
        }
      }
      return toState(v, endpoint, pduId, o);
    });
  } catch (e) {
    if (e instanceof Error && !("code" in e) && /rack PDU/.test(e.message)) {
      diags.error("Cannot choose the rack PDU", `${endpoint}: ${e.message}.`, path("pdu_id"));
    } else {
      addClientError(diags, e, `switch the outlet ${wanted}`, site(endpoint, configuredPdu, outletId));
    }
    return undefined;
  }
}

/** The rackform_pdu_outlet resource; one instance per provider process. */
export function pduOutletResource(): Resource {
  const slot = providerDataSlot("rackform_pdu_outlet");
  const need = slot.get;
  /** An endpoint unknown at plan is judged now; the plan already warned about a known one (allow_http). */
  const httpAllowedAtApply = (v: ObjectValue, diags: Diagnostics) => {
    if (!need().redfish.allowHttp) checkEndpointScheme(v.endpoint ?? null, false, path("endpoint"), diags);
    return !diags.hasError();
  };
  /** The recorded PDU and outlet, and where it answered, when the plan moves it to another address. */
  const move = (state: Value, plan: Value) => {
    if (!isObjectValue(state) || !isObjectValue(plan)) return undefined;
    const [from, to] = [getString(state, "endpoint"), plan.endpoint];
    const [pduId, outletId] = [getString(state, "pdu_id"), getString(state, "outlet_id")];
    if (!from || typeof to !== "string" || !pduId || !outletId || sameEndpoint(from, to)) return undefined;
    return { from, to, pduId, outletId };
  };
  /** A re-addressed outlet: the same PDU and outlet must answer at the new address; false after a diagnostic. */
  const samePduAtNewAddress = async (ctx: Context, state: Value, plan: Value, diags: Diagnostics) => {
    const m = move(state, plan);
    if (!m) return true;
    try {
      const why = await bounded(ctx, DEFAULT_TIMEOUT_MS.update, "update", `checking the PDU at ${m.to}`, () =>
        pduMismatch(need().redfishClient(normalEndpoint(m.to)), m.pduId, m.outletId),
      );
      if (why) reportDifferentPdu(diags, { ...m, why }, false);
    } catch (e) {
      addClientError(diags, e, "reach the PDU at its new address", site(normalEndpoint(m.to), m.pduId, m.outletId));
    }
    return !diags.hasError();
  };
  return {
    typeName: "rackform_pdu_outlet",
    schema: {
      version: 0,
      description:
        "The power state of one outlet of a Redfish rack PDU (DMTF RackPDU Outlet, switched with #Outlet.PowerControl). " +
        "Power-ons on one PDU are spaced by the provider's redfish.power_on_interval; different PDUs power on in parallel. " +
        "Import with the outlet's URL.",
      attributes: {
        id: attr.string({
          computed: true,
          description:
            "The outlet's Redfish URL, with the rack PDU's own id and the outlet's, e.g. " +
            "https://10.0.0.9/redfish/v1/PowerEquipment/RackPDUs/r01-pdu-a/Outlets/7; also its import id.",
          planModifiers: [useStateForUnknown()],
        }),
        endpoint: attr.string({
          required: true,
          description:
            'Address of the PDU\'s Redfish service, e.g. "https://10.0.0.9" (https; http:// only with the ' +
            "provider's redfish.allow_http). Another spelling of the same address (a trailing slash, the default " +
            "port 443, the host's case) plans nothing. A new address is an in-place update: the apply checks that " +
            "the same rack PDU (pdu_id) with this outlet answers there and records it; a different PDU there fails " +
            "the apply for this outlet, naming both, and switches nothing.",
          validators: [redfishEndpoint],
          planModifiers: [endpointSpelling()],
        }),
        pdu_id: attr.string({
          optional: true,
          computed: true,
          description:
            'Id of the rack PDU under PowerEquipment/RackPDUs, e.g. "r01-pdu-a". @default the service\'s only rack PDU',
          validators: [stringLength({ min: 1 })],
          planModifiers: [useStateForUnknown(), requiresReplace()],
        }),
        outlet_id: attr.string({
          required: true,
          description: 'Id of the outlet as the PDU names it, e.g. "7" (or "A1"). Changing it replaces the resource.',
          validators: [stringLength({ min: 1, max: 64 })],
          planModifiers: [requiresReplace()],
        }),
        power_state: attr.string({
          required: true,
          description: 'Wanted power state: "On" or "Off". Drift (someone flipped the outlet) shows in the next plan.',
          validators: [stringOneOf("On", "Off")],
        }),
        power_state_on_destroy: attr.string({
          optional: true,
          computed: true,
          default: "Unchanged",
          description:
            'What destroy does to the outlet: "Off" cuts power; "Unchanged" only forgets it. @default "Unchanged"',
          validators: [stringOneOf("Off", "Unchanged")],
        }),
        name: attr.string({
          computed: true,
          description: "The outlet's name as the PDU reports it.",
          planModifiers: [useStateForUnknown()],
        }),
      },
      blocks: { timeouts: timeoutsBlock(["create", "read", "update", "delete"]) },
    },

    configure: slot.configure,

    async create(req, resp) {
      if (!httpAllowedAtApply(req.plan, resp.diagnostics)) return;
      const s = await converge(
        req.context,
        need(),
        req.plan,
        timeoutMs(req.plan, "create", DEFAULT_TIMEOUT_MS.create),
        "create",
        resp.diagnostics,
      );
      if (s) resp.state = s;
    },

    async update(req, resp) {
      // A failed update records nothing: the planned state (a new address, a switched outlet) did not happen.
      resp.state = req.state;
      if (!httpAllowedAtApply(req.plan, resp.diagnostics)) return;
      if (!(await samePduAtNewAddress(req.context, req.state, req.plan, resp.diagnostics))) return;
      const s = await converge(
        req.context,
        need(),
        req.plan,
        timeoutMs(req.plan, "update", DEFAULT_TIMEOUT_MS.update),
        "update",
        resp.diagnostics,
      );
      if (s) resp.state = s;
    },

    async read(req, resp) {
      const st = req.state;
      const endpoint = normalEndpoint(getString(st, "endpoint")!);
      const pduId = getString(st, "pdu_id");
      const outletId = getString(st, "outlet_id")!;
      const client = need().redfishClient(endpoint);
      const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
      try {
        // State holds the outlet's URL after the first discovery: a refresh is then a single GET.
        // The id keeps the address of the first discovery; its path is the outlet's wherever the PDU now answers.
        const known = typeof st.id === "string" && OUTLET_URL.test(st.id) ? new URL(st.id).pathname : undefined;
        const { pdu, o } = await bounded(
          req.context,
          ms,
          "read",
          `reading outlet ${outletId} of ${endpoint}`,
          async () => {
            if (known && pduId) return { pdu: pduId, o: await client.getOutletAt(known) };
            const pdu = await resolvePdu(client, pduId);
            return { pdu, o: await client.getOutlet(pdu, outletId) };
          },
        );
        resp.state = toState(st, endpoint, pdu, o);
      } catch (e) {
        if (isGone(e)) resp.state = null;
        else if (!holdOnTransientRead(resp, st, e, `outlet ${outletId} of ${endpoint}`))
          addClientError(resp.diagnostics, e, "read the outlet", site(endpoint, pduId, outletId));
      }
    },

    async delete(req, resp) {
      if (getString(req.state, "power_state_on_destroy") !== "Off") return;
      const off = { ...req.state, power_state: "Off" };
      await converge(
        req.context,
        need(),
        off,
        timeoutMs(req.state, "delete", DEFAULT_TIMEOUT_MS.delete),
        "delete",
        resp.diagnostics,
      );
    },

    async modifyPlan(req, resp) {
      if (!isObjectValue(req.plan)) return;
      const endpoint = req.plan.endpoint ?? null;
      checkEndpointScheme(endpoint, need().redfish.allowHttp, path("endpoint"), resp.diagnostics);
      const m = move(req.state, req.plan);
      if (m && !resp.diagnostics.hasError())
        await checkPduAtPlan(req.context, need().redfishClient(normalEndpoint(m.to)), m, resp.diagnostics);
    },

    importState(req, resp) {
      const m = OUTLET_URL.exec(req.id.trim());
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_pdu_outlet",
          `Expected the outlet's Redfish URL (its id), e.g. https://10.0.0.9/redfish/v1/PowerEquipment/RackPDUs/r01-pdu-a/Outlets/7; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      resp.state = {
        ...resp.state,
        id: req.id.trim(),
        endpoint: m[1],
        pdu_id: decodeURIComponent(m[2]),
        outlet_id: decodeURIComponent(m[3]),
        power_state_on_destroy: "Unchanged",
      };
    },
  };
}
