/**
 * Vendor quirks a node's BMC can be switched to, per node in the lab spec (`nodes[].quirks`). Each models a
 * behaviour of shipping firmware that breaks the Redfish rules in a way clients must tolerate; src/lab/README.md
 * (section "Quirks") names the vendor behaviour behind each.
 */

/** Every quirk, with what it does (the README's table is the user-facing version). */
export const QUIRKS = {
  "dead-member-links": "collections list members that answer 404 (a PCIe device) or 500 (a firmware item)",
  "action-info-404": "Reset lists no inline AllowableValues; its @Redfish.ActionInfo link answers 404",
  "misspelled-allowable-values":
    'ResetType@Redfish.AllowableValues runs two values together, one misspelled ("GracefulRestartGracefulShutdwon")',
  "accepted-without-location":
    "SimpleUpdate answers 202 with no Location and no Task body; the task is named only in @Message.ExtendedInfo MessageArgs",
  "update-task-fails": "every firmware update task ends with the vendor TaskState Failed (TaskStatus Critical)",
  "oem-pci-gpus":
    "GPUs appear in neither Processors nor PCIeDevices, only under Oem.<Vendor>.Links.PCIDevices with a numeric ClassCode",
  "empty-processors": "the Processors collection has no members; only ProcessorSummary.Count tells the CPU count",
  "blank-serials": "SerialNumber of the system and its GPUs is a string of spaces",
  "no-expand-query":
    "the service root advertises no ExpandQuery and $expand is ignored (the plain resource is served), as on BMCs without it",
  "expand-one-level":
    "ExpandQuery advertises no $levels (Levels false, no MaxLevels); $expand expands one level whatever $levels says",
  "no-etags": "no ETag header and no @odata.etag on any resource, and If-None-Match is ignored",
  "vendor-message-ids": "400s carry the vendor's MessageId (iDRAC SUP0108 for a job already running) and Resolution",
} as const;

/** A quirk's name. */
export type Quirk = keyof typeof QUIRKS;

/** Quirk names, for the spec's JSON Schema. */
export const QUIRK_NAMES = Object.keys(QUIRKS) as Quirk[];

/** True when the node's spec switches `q` on. */
export function hasQuirk(node: { readonly spec: { readonly quirks?: readonly string[] } }, q: Quirk): boolean {
  return node.spec.quirks?.includes(q) ?? false;
}
