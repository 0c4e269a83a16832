/**
 * The BMC log entry of a Secure Boot violation: the host's firmware refused to start the image's boot loader. The
 * wording is the one AMI Aptio UEFI firmware shows on screen ("Secure Boot Violation — Invalid signature detected.
 * Check Secure Boot Policy in Setup"), carried as DMTF ResourceEvent.ResourceErrorsDetected as the lab's other
 * `inferred` rows are (world/health-messages.ts): no vendor's own log message for this event was found in a public
 * source, so every family uses that generic registry message; SEL-style logs file it under IPMI sensor type 1Eh
 * "Boot Error".
 */
import type { EventLogs, LogRecord } from "./health.js";
import { FAMILY_OF } from "./health-messages.js";
import type { LabNode } from "./model.js";
import type { BootRefusal } from "./secure-boot.js";

/** The firmware's own words (AMI Aptio's Secure Boot violation screen). */
export const VIOLATION_TEXT = "Secure Boot Violation: Invalid signature detected. Check Secure Boot Policy in Setup";

/** Appends the violation to the node's BMC log; returns the entry. */
export function logSecureBootViolation(logs: EventLogs, node: LabNode, r: BootRefusal, now: number): LogRecord {
  const family = FAMILY_OF[node.spec.vendor];
  const sel = family === "idrac" || family === "ipmi-sel";
  const why = r.reason === "in-dbx" ? "image forbidden by dbx" : "signer not in db";
  const origin = `/redfish/v1/Systems/${node.systemId}/SecureBoot`;
  const args = [origin, `${VIOLATION_TEXT} (${why}: ${r.image}, signed by ${r.signer.replace(/\n/g, ", ")})`];
  return logs.append(node.spec.name, {
    created: now,
    severity: "Critical",
    messageId: "ResourceEvent.1.0.ResourceErrorsDetected",
    message: `The resource property ${args[0]} has detected errors of type '${args[1]}'.`,
    args,
    entryType: sel ? "SEL" : "Event",
    ...(sel ? { sensorType: "Boot Error" } : {}),
    origin,
  });
}
