/**
 * A Rack's firmware step: when the flavor has firmware images, BIOS settings or Secure Boot, each node's rackform_firmware, after
 * its BMC (`endpoint` = the BMC's, which also orders it) and before its DPUs and machine, so a node is enrolled — and
 * a DPU's mode change power-cycles its host — only on the baseline, never in the middle of a flash. It is `rolling`:
 * every node of a Rack joins its cluster, so on a node in service apply only stages the images and settings and the
 * reset is its rackform_cluster_member's (`firmware_ref` = this `ref`, as on its rackform_acceptance), drained inside
 * the disruption budget. A node not yet enrolled (host off) is converged at once.
 */
import type { Construct } from "constructs";
import type { Bmc } from "../../gen/providers/rackform/bmc/index.js";
import { Firmware } from "../../gen/providers/rackform/firmware/index.js";
import type { RackNode } from "../rack.js";
import type { FirmwareSettings } from "./firmware-spec.js";
import { logicalId } from "./names.js";

/** The rackform_firmware of node `n` (`<node>_firmware`), after its BMC; undefined when the flavor converges nothing. */
export function firmwareStep(
  scope: Construct,
  n: RackNode,
  settings: FirmwareSettings | undefined,
  bmc: Bmc,
): Firmware | undefined {
  if (!settings) return undefined;
  const f = new Firmware(scope, logicalId(n.name, "firmware"), {
    endpoint: bmc.endpoint,
    ...(settings.components ? { components: { ...settings.components } } : {}),
    ...(settings.bios ? { bios: { ...settings.bios } } : {}),
    ...(settings.secureBoot ? { secureBoot: settings.secureBoot } : {}),
    rolling: true,
  });
  f.overrideLogicalId(f.node.id);
  return f;
}
