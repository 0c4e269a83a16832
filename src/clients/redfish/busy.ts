/**
 * Registry MessageIds that mean "the BMC is busy, try again later" rather than "no". A refusal carrying one becomes
 * RACKFORM_ERR_REDFISH_BMC_BUSY, so callers can retry without matching message text. The list is deliberately short:
 * each entry is a documented registry message whose Resolution is to wait and resubmit.
 */
import { type HttpStatusError, RedfishError } from "../errors.js";

/**
 * Matched against the MessageId with its registry version removed (`Base.1.18.ResourceInUse` → `Base.ResourceInUse`).
 * - Base.ServiceTemporarilyUnavailable (DSP8011): "Wait for the indicated retry duration and retry the operation."
 * - Base.ResourceInUse (DSP8011): the resource is in use or in transition; resubmit when the condition is removed.
 * - IDRAC.SUP0108 (Dell iDRAC registry): an update or job is already running or pending; retry after it finishes.
 * - iLO.UnableToModifyDuringSystemPOST (HPE iLO registry): the server is in POST; retry after POST completes.
 */
const BUSY_MESSAGES: ReadonlySet<string> = new Set([
  "base.servicetemporarilyunavailable",
  "base.resourceinuse",
  "idrac.sup0108",
  "ilo.unabletomodifyduringsystempost",
]);

/** A MessageId without its version: `Registry.Major.Minor[.Errata].Key` → `registry.key` (lower case). */
export function unversionedMessageId(id: string): string {
  const parts = id.trim().split(".");
  if (parts.length < 2) return id.trim().toLowerCase();
  return `${parts[0]}.${parts[parts.length - 1]}`.toLowerCase();
}

/** True when a MessageId is one of the documented "busy, retry later" messages. */
export function isBusyMessageId(id: string | undefined): boolean {
  return id !== undefined && BUSY_MESSAGES.has(unversionedMessageId(id));
}

/**
 * The BMC_BUSY error for a refusal whose MessageId says busy, else undefined. 503 and 429 stay status errors: the
 * HTTP core already retries them, and callers treat them as "not ready yet".
 */
export function busyError(e: HttpStatusError): RedfishError | undefined {
  if (e.status === 503 || e.status === 429 || !isBusyMessageId(e.messageId)) return undefined;
  const how = e.resolution ? ` (${e.resolution})` : "";
  return new RedfishError(
    "RACKFORM_ERR_REDFISH_BMC_BUSY",
    `${e.method} ${e.url}: the BMC is busy (HTTP ${e.status}, ${e.messageId})${how}; retry later`,
    {
      method: e.method,
      url: e.url,
      status: e.status,
      headers: e.headers,
      serverMessage: e.serverMessage,
      messageId: e.messageId,
      resolution: e.resolution,
      cause: e,
    },
    { retryable: true },
  );
}
