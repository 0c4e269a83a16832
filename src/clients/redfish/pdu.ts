/** Rack PDUs (PowerEquipment/RackPDUs) and their outlets, switched with #Outlet.PowerControl. */
import { RedfishError } from "../errors.js";
import { mapLimit } from "../http/semaphore.js";
import { link, members, parseOutlet, parsePdu } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { OutletPowerRequest, OutletState, PduInfo } from "./types.js";

type MemberRef = (collection: string, id: string, what: string) => Promise<string>;

async function rackPdusRef(t: RedfishTransport, powerEquipment: () => Promise<string>): Promise<string> {
  const ref = link(await t.getJson(await powerEquipment()), "RackPDUs");
  if (!ref) throw new RedfishError("RACKFORM_ERR_REDFISH_NOT_FOUND", `PowerEquipment at ${t.origin} has no RackPDUs`);
  return ref;
}

/** Every rack PDU of the service. */
export async function listPdus(
  t: RedfishTransport,
  powerEquipment: () => Promise<string>,
  parallel: number,
): Promise<PduInfo[]> {
  const refs = members(await t.getJson(await rackPdusRef(t, powerEquipment)));
  return mapLimit(refs, parallel, async (r) => parsePdu(await t.getJson(r)));
}

/** One outlet, found via RackPDUs → PDU → Outlets. */
export async function getOutlet(
  t: RedfishTransport,
  powerEquipment: () => Promise<string>,
  memberRef: MemberRef,
  pduId: string,
  outletId: string,
): Promise<OutletState> {
  const pdu = await t.getJson(await memberRef(await rackPdusRef(t, powerEquipment), pduId, "rack PDU"));
  const outlets = link(pdu, "Outlets");
  if (!outlets)
    throw new RedfishError("RACKFORM_ERR_REDFISH_NOT_FOUND", `rack PDU ${pduId} at ${t.origin} has no Outlets`);
  return parseOutlet(await t.getJson(await memberRef(outlets, outletId, `outlet of PDU ${pduId}`)));
}

/** Posts #Outlet.PowerControl and re-reads the outlet. */
export async function setOutletPower(
  t: RedfishTransport,
  outlet: OutletState,
  pduId: string,
  state: OutletPowerRequest,
): Promise<OutletState> {
  if (!outlet.controlTarget) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED",
      `outlet ${outlet.id} of PDU ${pduId} cannot be switched (no #Outlet.PowerControl action)`,
    );
  }
  await t.send("POST", outlet.controlTarget, { json: { PowerState: state } });
  return parseOutlet(await t.getJson(outlet.odataId));
}
