/**
 * rackform_dpu: a BlueField-3 DPU converged through its own BMC — mode first (Mode.Set, two Arm reboots, a host
 * power cycle through the host's BMC), then the pinned BFB (SimpleUpdate on DPU_OS over the BMC's rshim), then the
 * rshim policy. Why the host's BMC and not its outlet: an outlet cycle also cuts the DPU's BMC and the host's BMC
 * (minutes of boot on real hardware) where a chassis power cycle is what NVIDIA's procedure asks for; and the host is
 * left in the power state it had, so a machine not yet enrolled is not found running.
 * Schema in dpu-schema.ts, handlers in dpu-ops.ts.
 */

import { defineResource, type Resource } from "../../framework/index.js";
import { createDpu, type DpuDeps, deleteDpu, dpuDeps, importDpu, planDpu, readDpu, updateDpu } from "./dpu-ops.js";
import { dpuSchema } from "./dpu-schema.js";

/** The rackform_dpu resource; `deps` replaces the configured provider's (tests hand fakes). */
export function dpuResource(deps: (providerData: unknown) => DpuDeps = dpuDeps): Resource {
  return defineResource({
    typeName: "rackform_dpu",
    schema: dpuSchema,
    deps,
    create: createDpu,
    read: readDpu,
    update: updateDpu,
    delete: deleteDpu,
    modifyPlan: planDpu,
    importState: importDpu,
  });
}
