/**
 * The one classification of client errors: what a caller branches on (the object is gone, someone else holds it,
 * the credentials were refused, the failure may pass). Each answer is read from the error's type, code and HTTP status,
 * never from its message: a client that learns an outcome from a server's text gives it a code where it throws.
 */
import { type ErrorCode, isClientError } from "./errors.js";

const NOT_FOUND: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RACKFORM_ERR_REDFISH_NOT_FOUND",
  "RACKFORM_ERR_MAAS_NOT_FOUND",
  "RACKFORM_ERR_IRONIC_NOT_FOUND",
  "RACKFORM_ERR_BCM_NOT_FOUND",
  "RACKFORM_ERR_SLURM_NOT_FOUND",
  "RACKFORM_ERR_KUBERNETES_NOT_FOUND",
  "RACKFORM_ERR_WAREWULF_NOT_FOUND",
]);

const CONFLICT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RACKFORM_ERR_MAAS_CONFLICT",
  "RACKFORM_ERR_IRONIC_CONFLICT",
  "RACKFORM_ERR_KUBERNETES_CONFLICT",
  "RACKFORM_ERR_WAREWULF_CONFLICT",
]);

const AUTH: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RACKFORM_ERR_REDFISH_AUTH",
  "RACKFORM_ERR_MAAS_AUTH",
  "RACKFORM_ERR_MAAS_FORBIDDEN",
  "RACKFORM_ERR_IRONIC_AUTH",
  "RACKFORM_ERR_BCM_AUTH",
  "RACKFORM_ERR_SLURM_AUTH",
  "RACKFORM_ERR_SLURM_FORBIDDEN",
  "RACKFORM_ERR_KUBERNETES_AUTH",
  "RACKFORM_ERR_KUBERNETES_FORBIDDEN",
  "RACKFORM_ERR_WAREWULF_AUTH",
  "RACKFORM_ERR_WAREWULF_FORBIDDEN",
]);

/** No answer at all: the connection failed or dropped, nothing came in time, or TLS failed. */
const UNREACHABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RACKFORM_ERR_HTTP_CONNECT",
  "RACKFORM_ERR_HTTP_TIMEOUT",
  "RACKFORM_ERR_TLS",
]);

/** Failures that pass by themselves: a refused or dropped connection, no answer in time, a scheduler restarting. */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RACKFORM_ERR_HTTP_CONNECT",
  "RACKFORM_ERR_HTTP_TIMEOUT",
  "RACKFORM_ERR_SLURM_UNAVAILABLE",
]);

/** The object the operation names does not exist (any service's not-found code, or a bare HTTP 404). */
export function isNotFound(e: unknown): boolean {
  return isClientError(e) && (NOT_FOUND.has(e.code) || (e.code === "RACKFORM_ERR_HTTP_STATUS" && e.status === 404));
}

/** What `p` resolves to, or undefined when the object it reads does not exist (isNotFound); other failures throw. */
export async function unlessNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** The service refused because of the object's current state or another writer (duplicate, locked, changed). */
export function isConflict(e: unknown): boolean {
  return isClientError(e) && (CONFLICT.has(e.code) || (e.code === "RACKFORM_ERR_HTTP_STATUS" && e.status === 409));
}

/** The service refused the credentials, or the identity they name may not do this (401/403). */
export function isAuth(e: unknown): boolean {
  return (
    isClientError(e) &&
    (AUTH.has(e.code) || (e.code === "RACKFORM_ERR_HTTP_STATUS" && (e.status === 401 || e.status === 403)))
  );
}

/**
 * A passing failure, worth another try later: no answer in time, a connection refused or dropped, an unavailable
 * scheduler daemon, or a 5xx/429 that outlasted the client's own retries (whatever the service's code). A refused
 * credential, a TLS failure or a malformed answer does not pass.
 */
export function isTransient(e: unknown): boolean {
  if (!isClientError(e)) return false;
  return TRANSIENT.has(e.code) || (e.status !== undefined && (e.status >= 500 || e.status === 429));
}

/** The service did not answer at all (connection, timeout, TLS), as opposed to answering with an error. */
export function isUnreachable(e: unknown): boolean {
  return isClientError(e) && UNREACHABLE.has(e.code);
}
