/**
 * rackform_pdu_outlet: the power state of one outlet of a Redfish rack PDU (DMTF PowerDistribution / Outlet,
 * switched with #Outlet.PowerControl). Schema in pdu-outlet-schema.ts, handlers in pdu-outlet-ops.ts.
 */
import { defineResource, type Resource } from "../../framework/index.js";
import {
  createOutlet,
  deleteOutlet,
  importOutlet,
  type PduOutletDeps,
  pduOutletDeps,
  planOutlet,
  readOutlet,
  updateOutlet,
} from "./pdu-outlet-ops.js";
import { pduOutletSchema } from "./pdu-outlet-schema.js";

/** The rackform_pdu_outlet resource; `deps` replaces the configured provider's (tests hand fakes). */
export function pduOutletResource(deps: (providerData: unknown) => PduOutletDeps = pduOutletDeps): Resource {
  return defineResource({
    typeName: "rackform_pdu_outlet",
    schema: pduOutletSchema,
    deps,
    create: createOutlet,
    read: readOutlet,
    update: updateOutlet,
    delete: deleteOutlet,
    modifyPlan: planOutlet,
    importState: importOutlet,
  });
}
