/**
 * How the Warewulf adapter reads a node: Warewulf itself knows only the node's definition and, in GET /status, the
 * stage of its last request. What rackform did to the node (deploying, deployed which image, quarantined) it keeps in
 * the node's own tags (free key/values of nodes.conf, which overlay templates can read), so a later run reads it back.
 */
import type { WarewulfNode, WarewulfNodeStatus } from "../../clients/warewulf/index.js";
import { type ImageSpec, imageLabel, type MachineFacts, type MachineState } from "./backend.js";

/** Node tags rackform writes. */
export const TAG = {
  /** "deploying" or "deployed" while rackform's deployment holds the node. */
  state: "rackform_state",
  /** The imageLabel of the deployed image. */
  image: "rackform_image",
  /** Base64 cloud-init-style user data (a site's runtime overlay template renders it; the lab's joins read it). */
  userData: "rackform_user_data",
  /** The quarantine reason (starts with QUARANTINE_PREFIX when rackform set it). */
  quarantine: "rackform_quarantine",
} as const;

/** Tags on the node's IPMI block: where rackform's Redfish path reaches the BMC (Warewulf's own power is IPMI). */
export const IPMI_TAG = { address: "redfish_address", insecure: "redfish_insecure" } as const;

/** What warewulfd sends instead of a file when the boot cannot go on. */
const FAILED_SENT = new Set(["NOT_FOUND", "BAD_REQUEST", "BAD_ASSET"]);

/** The Warewulf image a deployment uses: `<name>-<version>` (Warewulf image names allow letters, digits, `-._:`). */
export function warewulfImageName(image: ImageSpec): string {
  return imageLabel("warewulf", image);
}

/** True when the status record says the boot stopped (the file warewulfd should send was not there). */
export function bootFailed(s: WarewulfNodeStatus | undefined): boolean {
  return s !== undefined && FAILED_SENT.has(s.sent);
}

/** The machine facts of a node and its status record. */
export function facts(n: WarewulfNode, s: WarewulfNodeStatus | undefined): MachineFacts {
  const tags = n.fields.tags ?? {};
  const stage = s?.stage ?? "";
  const seen = (s?.lastSeen ?? 0) > 0;
  const held = tags[TAG.state];
  let state: MachineState;
  if (tags[TAG.quarantine]) state = "broken";
  else if (held === "deployed" && stage === "runtime") state = "deployed";
  else if (held === "deployed" || held === "deploying") state = bootFailed(s) ? "failed" : "deploying";
  else state = seen ? "ready" : "enrolled";
  const status = stage ? `stage ${stage}` : "never seen";
  const message = tags[TAG.quarantine] ?? (bootFailed(s) ? `warewulfd sent ${s?.sent} at stage ${stage}` : "");
  return {
    id: n.id,
    name: n.id,
    state,
    status,
    message,
    macs: n.macs,
    power: "unknown",
    image: held === "deployed" ? (tags[TAG.image] ?? "") : "",
  };
}
