/** rackform_pdu_outlet's schema; its model (ModelOf) is what the handlers in pdu-outlet-ops.ts read and write. */
import {
  attr,
  type ModelOf,
  requiresReplace,
  stringLength,
  stringOneOf,
  timeoutsBlock,
  useStateForUnknown,
} from "../../framework/index.js";
import { endpointSpelling, redfishEndpoint } from "../shared/endpoint.js";

export const pduOutletSchema = {
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
} as const;

/** The recorded outlet. */
export type PduOutletState = ModelOf<typeof pduOutletSchema>;
/** The planned outlet at apply: computed attributes may be unknown. */
export type PduOutletPlan = ModelOf<typeof pduOutletSchema, "plan">;
/** The planned outlet at plan time: any attribute may be unknown. */
export type PduOutletConfig = ModelOf<typeof pduOutletSchema, "config">;
