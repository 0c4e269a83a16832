/**
 * rackform_bmc: one node's Redfish BMC, the step after its outlet is on. Create waits for the BMC to boot, discovers
 * the system (MACs, GPUs, memory, firmware) and checks it against `expected`, the flavor's baseline.
 *
 * Non-conformance on create: one error listing every difference, and nothing is recorded. Create changes nothing on the
 * BMC before the check passes (the boot override is set only afterwards), so there is nothing to undo, and the next
 * apply simply tries again; a tainted object would only add a replacement to the next plan for the same outcome.
 *
 * Drift (a GPU lost, firmware changed out of band) is found by read, which re-inventories the node. Read does NOT fail:
 * it records the fresh values with `conformant = false` and a warning listing every difference (and the GPUs no longer
 * reported), and the plan then holds an in-place update of this node (`conformant: false -> (known after apply)`)
 * whose apply re-checks and records what it finds, with the measured-vs-expected lines as a warning, until the node
 * conforms again or `expected` is changed. Why not an error in that apply: it would stop every resource built on this
 * BMC in the same apply, the acceptance gate too — and the gate, whose `bmc_gpu_count` follows `gpu_count`, is what
 * judges the node again and takes it out of service (a GPU lost must not leave the node in its scheduler). An edited
 * `expected` still fails the apply on a node that does not meet it. Why not an error in read: refresh
 * runs before every plan, apply AND destroy of the whole stack, so one bad node would freeze the whole rack — including
 * the destroy or the baseline change that would deal with it. The update keeps the drift visible
 * (`plan -detailed-exitcode` exits 2) and the failure scoped to the one node. Why not a replacement: replacing the BMC
 * would make its id unknown and cascade into replacing everything built on it (enrollment, deployment).
 * A BMC that stops answering during read is treated the same way (warning, conformant = false), and keeps its last
 * known values.
 *
 * Drift is never destruction: a re-check (or an edited `expected`) plans the inventory with the values in state —
 * the ones read from the device, or the last known ones when it could not be read — never as unknown, so nothing built
 * on `macs` is replaced because a read failed or a baseline changed. A real change read from a reachable device (a
 * replaced NIC's MAC) is recorded by read as a known value, so the plan shows exactly what changes downstream. Only
 * `power_state` is left to the apply: the apply itself changes it (an outlet switched back on). When the inventory
 * found by the apply differs from the planned one (the device changed between plan and apply), the apply fails, keeps
 * the previous state and asks for a new plan.
 * Destroy only forgets the BMC: it powers nothing off and leaves boot settings as they are.
 *
 * Refresh cost (issue 12): where the BMC offers `$expand`, a full read leaves a fingerprint in private state (the
 * expanded System and FirmwareInventory, by ETag or body hash; bmc-discovery.ts), and the next read of a conformant
 * node only re-checks those two (If-None-Match → 304): unchanged, the state stands as it is, with nothing read beyond
 * the service root and the session's login and logout. A changed System (power, boot) rebuilds the inventory from the
 * very payloads re-read, with no further request while the firmware is unchanged. No fingerprint, a BMC without
 * `$expand`, a non-conformant node: everything is read, as before. The event log (bmc-log.ts) costs nothing more where
 * the System's expansion carries its entries; where it does not (iDRAC's SEL under the Manager), one conditional GET of
 * its Entries, asking only for entries after the last Id seen.
 *
 * Schema in bmc-schema.ts; handlers in bmc-ops.ts (read, plan, import) and bmc-ops-converge.ts (create, update).
 */

import { defineResource, type Resource } from "../../framework/index.js";
import {
  type BmcDeps,
  bmcDeps,
  createBmc,
  deleteBmc,
  importBmc,
  planBmc,
  readBmc,
  updateBmc,
  validateBmc,
} from "./bmc-ops.js";
import { bmcSchema } from "./bmc-schema.js";

/** The rackform_bmc resource; `deps` replaces the configured provider's (tests hand fakes). */
export function bmcResource(deps: (providerData: unknown) => BmcDeps = bmcDeps): Resource {
  return defineResource({
    typeName: "rackform_bmc",
    schema: bmcSchema,
    deps,
    create: createBmc,
    read: readBmc,
    update: updateBmc,
    delete: deleteBmc,
    modifyPlan: planBmc,
    validateConfig: validateBmc,
    importState: importBmc,
  });
}
