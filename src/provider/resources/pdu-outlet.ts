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
  type ObjectValue,
  path,
  type Resource,
  requiresReplace,
  stringLength,
  stringOneOf,
  timeoutMs,
  timeoutsBlock,
  useStateForUnknown,
  validator,
} from "../../framework/index.js";
import { addClientError, isGone } from "../client-errors.js";
import type { ProviderData } from "../config.js";
import { providerDataSlot } from "../data-slot.js";
import { holdOnTransientRead } from "../read-hold.js";
import { bounded } from "../timeouts.js";

const DEFAULT_TIMEOUT_MS = { create: 5 * 60_000, read: 2 * 60_000, update: 5 * 60_000, delete: 5 * 60_000 };

/** Accepts https://host[:port] (optionally /redfish/v1) without credentials. */
export const redfishEndpoint = validator("a Redfish service URL such as https://10.0.0.5", (req, resp) => {
  if (typeof req.value !== "string") return;
  let u: URL;
  try {
    u = new URL(req.value);
  } catch {
    resp.diagnostics.error(
      "Invalid Redfish endpoint",
      `${JSON.stringify(req.value)} is not a URL. Write the service address, e.g. "https://10.0.0.5".`,
      req.path,
    );
    return;
  }
  const problem =
    u.protocol !== "https:" && u.protocol !== "http:"
      ? `the scheme ${u.protocol} is not http or https`
      : u.username || u.password
        ? "it contains credentials; put them in the provider's redfish block instead"
        : !/^\/?(redfish\/v1\/?)?$/.test(u.pathname)
          ? `it has a path (${u.pathname}); give only the service address`
          : u.search || u.hash
            ? "it has a query or fragment"
            : undefined;
  if (problem) {
    resp.diagnostics.error(
      "Invalid Redfish endpoint",
      `${JSON.stringify(u.origin)}…: ${problem}. Write the service address, e.g. "https://10.0.0.5".`,
      req.path,
    );
  }
});

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

function toState(prior: ObjectValue, endpoint: string, pduId: string, o: OutletState): ObjectValue {
  return {
    ...prior,
    id: `${endpoint}${o.odataId}`,
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

function normalEndpoint(e: string): string {
  return new URL(e).origin;
}

/** The rackform_pdu_outlet resource; one instance per provider process. */
export function pduOutletResource(): Resource {
  const slot = providerDataSlot("rackform_pdu_outlet");
  const need = slot.get;
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
            'Address of the PDU\'s Redfish service, e.g. "https://10.0.0.9". Changing it replaces the resource.',
          validators: [redfishEndpoint],
          planModifiers: [requiresReplace()],
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
        const known =
          typeof st.id === "string" && st.id.startsWith(`${endpoint}/`) ? new URL(st.id).pathname : undefined;
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
