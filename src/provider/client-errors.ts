/**
 * Turns typed client errors into diagnostics that say what went wrong, where, and what to do.
 * Clients never see diagnostics; this is the only place that maps their codes.
 */
import { isClientError, type RackformClientError } from "../clients/errors.js";
import type { AttributePath, Diagnostics } from "../framework/index.js";

/** Where to point the user for each kind of failure: the attribute that names the endpoint, and the object's label. */
export interface ErrorSite {
  /** e.g. `PDU https://127.20.0.1 outlet A1` */
  readonly what: string;
  /** The attribute holding the address (connect, TLS and timeout failures point here). */
  readonly endpointPath?: AttributePath;
  /** The attribute naming the thing that was not found. */
  readonly notFoundPath?: AttributePath;
}

function hint(e: RackformClientError): string {
  switch (e.code) {
    case "RACKFORM_ERR_HTTP_CONNECT":
      return "Check the address, that the device is powered and reachable from this machine, and retry.";
    case "RACKFORM_ERR_HTTP_TIMEOUT":
      return "The device is slow or hung. Retry, or raise the operation's timeout in the `timeouts` block.";
    case "RACKFORM_ERR_TLS":
      return "Set `ca_file` in the provider's `redfish` block to the CA that signed the device certificate (or, for a lab you trust, `insecure = true`).";
    case "RACKFORM_ERR_REDFISH_AUTH":
      return "Check `username` and `password` in the provider's `redfish` block (or RACKFORM_REDFISH_USERNAME / RACKFORM_REDFISH_PASSWORD).";
    case "RACKFORM_ERR_HTTP_STATUS":
      return e.status === 429 || e.status === 503
        ? "The device kept asking to retry later; lower parallelism (-parallelism) or retry."
        : "See the device's message above.";
    case "RACKFORM_ERR_REDFISH_BMC_BUSY":
      return "The BMC is busy with another job or operation; wait for it to finish (see its task or job queue) and apply again.";
    case "RACKFORM_ERR_REDFISH_TASK_UNTRACKED":
      return "Check the BMC's task or job queue for the outcome of the update before applying again.";
    default:
      return "";
  }
}

/** Adds one error diagnostic for `err` (a client error or anything else) to `diags`. */
export function addClientError(diags: Diagnostics, err: unknown, action: string, site: ErrorSite): void {
  if (!isClientError(err)) {
    diags.error(`Failed to ${action}`, `${site.what}: ${(err as Error)?.message ?? String(err)}`);
    return;
  }
  const id = err.messageId ? ` (${err.messageId}${err.resolution ? `; resolution: ${err.resolution}` : ""})` : "";
  const server = err.serverMessage ? `\nThe device said: ${err.serverMessage}${id}` : "";
  const detail = `${site.what}: ${err.message}${server}\n${hint(err)} (${err.code})`.trim();
  const p =
    err.code === "RACKFORM_ERR_REDFISH_NOT_FOUND" || err.code === "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED"
      ? site.notFoundPath
      : err.code === "RACKFORM_ERR_HTTP_CONNECT" ||
          err.code === "RACKFORM_ERR_TLS" ||
          err.code === "RACKFORM_ERR_HTTP_TIMEOUT"
        ? site.endpointPath
        : undefined;
  diags.error(`Failed to ${action}`, detail, p);
}

/** True when the error means the object is gone (read returns null, and the engine plans to create it again). */
export function isGone(err: unknown): boolean {
  return (
    isClientError(err) &&
    (err.code === "RACKFORM_ERR_REDFISH_NOT_FOUND" || (err.code === "RACKFORM_ERR_HTTP_STATUS" && err.status === 404))
  );
}
