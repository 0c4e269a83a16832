/**
 * rackform_firmware: one node's firmware baseline and BIOS settings, converged through its BMC — everything checked
 * before anything is written, images pushed for the next reset in vendor order, settings staged, one reset (here for
 * a node not in service, else by its cluster member inside the disruption budget), versions and settings read back.
 * Schema in firmware-schema.ts; read and plan in firmware-ops.ts, the convergence in firmware-apply.ts and
 * firmware-step.ts.
 */
import { defineResource, type Resource } from "../../framework/index.js";
import { applyFirmware } from "./firmware-apply.js";
import { type FirmwareDeps, firmwareDeps } from "./firmware-deps.js";
import { deleteFirmware, importFirmware, planFirmware, readFirmware } from "./firmware-ops.js";
import { firmwareSchema } from "./firmware-schema.js";

/** The rackform_firmware resource; `deps` replaces the configured provider's (tests hand fakes). */
export function firmwareResource(deps: (providerData: unknown) => FirmwareDeps = firmwareDeps): Resource {
  return defineResource({
    typeName: "rackform_firmware",
    schema: firmwareSchema,
    deps,
    create: (r, d) => applyFirmware(r, d, "create"),
    read: readFirmware,
    update: (r, d) => applyFirmware(r, d, "update"),
    delete: deleteFirmware,
    modifyPlan: planFirmware,
    importState: importFirmware,
  });
}
