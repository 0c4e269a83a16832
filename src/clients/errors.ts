/**
 * Typed errors of every rackform client. One base class; each subclass has a `name` and a stable `code`
 * (the undici pattern). Clients throw these, never diagnostics: the provider maps codes to diagnostics.
 * Every message is passed through a Redactor by the code that throws, so no secret reaches a message or stack.
 */

/** Every stable error code a client can throw, with a one-line description for the docs. */
export const ERROR_CODES = {
  RACKFORM_ERR_CLIENT_CONFIG: "The client was configured with an invalid value (URL, CA bundle, option).",
  RACKFORM_ERR_HTTP_STATUS: "The server answered with a non-success HTTP status; the server's own message is attached.",
  RACKFORM_ERR_HTTP_TIMEOUT: "A connect, headers, body or overall timeout expired before the server answered.",
  RACKFORM_ERR_HTTP_CONNECT: "The connection could not be made or was dropped (refused, reset, hang-up, DNS).",
  RACKFORM_ERR_HTTP_ABORTED: "The caller aborted the request through its AbortSignal.",
  RACKFORM_ERR_HTTP_BAD_BODY: "The response body could not be read or was not the JSON the client expected.",
  RACKFORM_ERR_TLS:
    "TLS failed: the server certificate was not trusted by the CA bundle, expired, or named another host.",
  RACKFORM_ERR_REDFISH_AUTH: "The BMC refused the credentials (session login or basic auth failed).",
  RACKFORM_ERR_REDFISH_SESSION: "The BMC created a session but did not return a usable X-Auth-Token.",
  RACKFORM_ERR_REDFISH_NOT_FOUND: "A resource or link the operation needs is absent from the Redfish service.",
  RACKFORM_ERR_REDFISH_AMBIGUOUS: "Several resources match and none was named (e.g. a BMC with many systems).",
  RACKFORM_ERR_REDFISH_RESET_UNSUPPORTED:
    "The requested reset type is not allowed by the BMC and has no safe equivalent.",
  RACKFORM_ERR_REDFISH_BOOT_TARGET_UNSUPPORTED: "The requested boot source override target is not allowed by the BMC.",
  RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED: "The resource does not advertise the action the operation needs.",
  RACKFORM_ERR_REDFISH_PRECONDITION:
    "A PATCH kept failing its If-Match precondition: the resource changed concurrently.",
  RACKFORM_ERR_REDFISH_TASK_FAILED: "A Redfish task ended in Exception, Killed, Cancelled or (vendor) Failed.",
  RACKFORM_ERR_REDFISH_TASK_UNTRACKED:
    "The BMC accepted a long operation (202) but named no task to follow (no Location, Task body, message argument or new task).",
  RACKFORM_ERR_REDFISH_BMC_BUSY:
    "The BMC refused the request because it is busy (a job already running, in POST, service temporarily unavailable); retry later.",
  RACKFORM_ERR_REDFISH_TASK_TIMEOUT: "A Redfish task did not finish within the allowed time.",
  RACKFORM_ERR_REDFISH_BAD_PAYLOAD: "A Redfish payload lacks a property the standard requires.",
  RACKFORM_ERR_REDFISH_NOT_BLUEFIELD:
    "The endpoint is not a BlueField DPU's BMC: it has no Systems/Bluefield or Managers/Bluefield_BMC.",
  RACKFORM_ERR_REDFISH_DPU_RSHIM:
    "The DPU's BMC accepted BmcRShimEnabled but its rshim did not start (the host still holds rshim).",
  RACKFORM_ERR_REDFISH_DPU_MODE:
    "A DPU still reports its old mode after Mode.Set, two Arm reboots and a host power cycle.",
  RACKFORM_ERR_REDFISH_COMPONENT_SILENT:
    "A component behind the BMC did not answer an SPDM request: the BMC answered 503 or the request timed out.",
  RACKFORM_ERR_ATTEST_INPUT:
    "An attestation input is invalid: a trust anchor that is not a CA certificate, unreadable PEM, or a reference-values document off its format (the JSON path is named).",
  RACKFORM_ERR_ATTEST_TRANSCRIPT:
    "An SPDM transcript (SignedMeasurements) is malformed or of an unsupported version; the byte offset and what was expected are named.",
  RACKFORM_ERR_MAAS_AUTH: "MAAS refused the API key (OAuth signature, token or consumer unknown or revoked).",
  RACKFORM_ERR_MAAS_FORBIDDEN: "MAAS accepted the API key but its user may not perform the operation.",
  RACKFORM_ERR_MAAS_NOT_FOUND: "The machine, tag or other MAAS object the operation names does not exist.",
  RACKFORM_ERR_MAAS_BAD_REQUEST: "MAAS rejected the parameters of the request (validation error per field).",
  RACKFORM_ERR_MAAS_CONFLICT:
    "MAAS refused the operation in the machine's current status (e.g. deploy of a New machine).",
  RACKFORM_ERR_MAAS_CHECKSUM:
    "MAAS refused an uploaded boot resource when its last byte arrived: the bytes do not hash to the sha256 given at create.",
  RACKFORM_ERR_MAAS_POWER_DENIED:
    "MAAS could not query the machine's power because its BMC refused the power driver's credentials (HTTP 401).",
  RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN:
    "The connection dropped after a MAAS POST operation was sent; it was not repeated and may or may not have run.",
  RACKFORM_ERR_MAAS_STATUS_FAILED:
    "A machine reached a failure status (or Broken) while rackform waited for another status.",
  RACKFORM_ERR_MAAS_STATUS_TIMEOUT: "A machine did not reach the wanted status within the allowed time.",
  RACKFORM_ERR_MAAS_BAD_PAYLOAD: "A MAAS response lacks a field rackform needs (e.g. system_id or status).",
  RACKFORM_ERR_IMAGE_SOURCE:
    "A golden image's source (its URL or local file) could not be read whole: not found, a status other than 200/206, or fewer bytes than its announced size.",
  RACKFORM_ERR_IMAGE_DIGEST:
    "An image does not hash to the sha256 the configuration gives (checked before anything is sent to a device).",
  RACKFORM_ERR_IRONIC_AUTH: "Ironic refused the credentials (HTTP basic user/password or Keystone token).",
  RACKFORM_ERR_IRONIC_MICROVERSION:
    "The Ironic API does not support the requested microversion; the message names the supported range.",
  RACKFORM_ERR_IRONIC_NOT_FOUND: "The Ironic node, port or allocation the operation names does not exist.",
  RACKFORM_ERR_IRONIC_BAD_REQUEST: "Ironic rejected the request (invalid field, invalid state transition, bad patch).",
  RACKFORM_ERR_IRONIC_CONFLICT:
    "Ironic reported a conflict: duplicate name or MAC, node associated, or still locked after retries.",
  RACKFORM_ERR_IRONIC_PROVISION_FAILED:
    "A node entered a failure provision state (or settled elsewhere); last_error is attached.",
  RACKFORM_ERR_IRONIC_PROVISION_TIMEOUT: "A node did not reach the wanted provision state within the allowed time.",
  RACKFORM_ERR_IRONIC_BAD_PAYLOAD: "An Ironic response lacks a field rackform needs (e.g. uuid or versions).",
  RACKFORM_ERR_BCM_AUTH:
    "BCM's cmdaemon refused the login (user name or password) or the session, and a fresh login was refused too.",
  RACKFORM_ERR_BCM_REJECTED:
    "cmdaemon rejected an entity (success false): its validation list (field, message, error_code) is attached.",
  RACKFORM_ERR_BCM_NOT_FOUND: "The BCM device, category or software image the operation names does not exist.",
  RACKFORM_ERR_BCM_CALL_FAILED:
    "cmdaemon answered a JSON-RPC call with an error (unknown call, bad arguments, internal error).",
  RACKFORM_ERR_BCM_POWER_FAILED:
    "cmdaemon's power operation on a node failed (its BMC unreachable or refusing the credentials BCM holds).",
  RACKFORM_ERR_BCM_POWER_TIMEOUT: "A node did not report power on through BCM within the allowed time.",
  RACKFORM_ERR_BCM_BAD_PAYLOAD:
    "A cmdaemon reply lacks a field rackform needs (e.g. a device's uuid or a status entry).",
  RACKFORM_ERR_SLURM_AUTH: "slurmrestd refused the user name and JWT (X-SLURM-USER-NAME / X-SLURM-USER-TOKEN).",
  RACKFORM_ERR_SLURM_FORBIDDEN:
    "slurmrestd authenticated the user, but Slurm denied the operation (not an operator or admin).",
  RACKFORM_ERR_SLURM_NOT_FOUND: "Slurm does not know the node: it is not in slurm.conf or its slurmd never registered.",
  RACKFORM_ERR_SLURM_REJECTED:
    "slurmctld rejected the node update (invalid state or field); Slurm's errors[] are attached.",
  RACKFORM_ERR_SLURM_UNSUPPORTED:
    "The slurmrestd's newest API version has no such request (Slurm 22.05's v0.0.36–v0.0.38 cannot update or delete nodes): use scontrol, or Slurm 23.02+.",
  RACKFORM_ERR_SLURM_UNAVAILABLE: "slurmrestd answered but could not reach slurmctld (HTTP 502/504).",
  RACKFORM_ERR_SLURM_DRAIN_TIMEOUT: "Jobs were still running on the draining node when the drain timeout expired.",
  RACKFORM_ERR_SLURM_DRAIN_CANCELLED:
    "The node lost its DRAIN flag while rackform waited for it to drain (someone resumed it).",
  RACKFORM_ERR_SLURM_BAD_PAYLOAD:
    "A slurmrestd response lacks a field rackform needs (e.g. nodes[] or a node's state).",
  RACKFORM_ERR_KUBERNETES_AUTH: "The Kubernetes API refused the bearer token (401 Unauthorized).",
  RACKFORM_ERR_KUBERNETES_FORBIDDEN: "The Kubernetes API denied the operation to the token's identity (403, RBAC).",
  RACKFORM_ERR_KUBERNETES_NOT_FOUND:
    "The node or pod does not exist in the Kubernetes API (the kubelet never registered it).",
  RACKFORM_ERR_KUBERNETES_CONFLICT: "The node kept changing between read and patch (409 Conflict after retries).",
  RACKFORM_ERR_KUBERNETES_INVALID: "The Kubernetes API rejected the patch or request as invalid (400, 415 or 422).",
  RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT:
    "Pods could not be evicted (PodDisruptionBudget) before the drain timeout expired.",
  RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD:
    "A Kubernetes API response lacks a field rackform needs (e.g. metadata.name or items).",
  RACKFORM_ERR_WAREWULF_AUTH: "warewulfd refused the API user name or password (HTTP Basic against auth.conf).",
  RACKFORM_ERR_WAREWULF_FORBIDDEN:
    "warewulfd refused the request because it came from outside the API's allowed subnets (warewulf.conf api).",
  RACKFORM_ERR_WAREWULF_NOT_FOUND: "The Warewulf node, profile, image or overlay the operation names does not exist.",
  RACKFORM_ERR_WAREWULF_BAD_REQUEST:
    "warewulfd rejected the request (unknown profile, image or overlay, invalid field).",
  RACKFORM_ERR_WAREWULF_CONFLICT: "warewulfd refused to add a node (or profile) that already exists.",
  RACKFORM_ERR_WAREWULF_BAD_PAYLOAD: "A warewulfd response lacks a field rackform needs (e.g. the status map).",
} as const;

/** A stable error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Context shared by every client error; all optional because not every failure has a request. */
export interface ClientErrorContext {
  /** HTTP method of the failed request. */
  readonly method?: string;
  /** URL of the failed request, never with credentials. */
  readonly url?: string;
  /** HTTP status, when the server answered. */
  readonly status?: number;
  /** Response headers, with authentication headers removed. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The server's own explanation, extracted from the body. */
  readonly serverMessage?: string;
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
  /** Lower-level cause, already redacted (a plain Error carrying the original `code`). */
  readonly cause?: Error;
  /** The server's registry MessageId (Redfish `@Message.ExtendedInfo[].MessageId` or `error.code`), e.g. `IDRAC.2.8.SUP0108`. */
  readonly messageId?: string;
  /** The server's suggested Resolution for that message. */
  readonly resolution?: string;
}

/** Base of every client error: `name` and `code` are stable and safe to branch on. */
export class RackformClientError extends Error {
  readonly code: ErrorCode;
  readonly method?: string;
  readonly url?: string;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly serverMessage?: string;
  readonly attempts?: number;
  readonly messageId?: string;
  readonly resolution?: string;

  constructor(code: ErrorCode, message: string, ctx: ClientErrorContext = {}) {
    super(message, ctx.cause ? { cause: ctx.cause } : undefined);
    this.name = "RackformClientError";
    this.code = code;
    this.method = ctx.method;
    this.url = ctx.url;
    this.status = ctx.status;
    this.headers = ctx.headers;
    this.serverMessage = ctx.serverMessage;
    this.attempts = ctx.attempts;
    this.messageId = ctx.messageId;
    this.resolution = ctx.resolution;
  }
}

/** Invalid client configuration. */
export class ClientConfigError extends RackformClientError {
  constructor(message: string, ctx?: ClientErrorContext) {
    super("RACKFORM_ERR_CLIENT_CONFIG", message, ctx);
    this.name = "ClientConfigError";
  }
}

/** A non-success HTTP status. */
export class HttpStatusError extends RackformClientError {
  constructor(message: string, ctx: ClientErrorContext) {
    super("RACKFORM_ERR_HTTP_STATUS", message, ctx);
    this.name = "HttpStatusError";
  }
}

/** Which timeout expired. */
export type TimeoutPhase = "connect" | "headers" | "body" | "overall";

/** A timeout expired. */
export class HttpTimeoutError extends RackformClientError {
  readonly phase: TimeoutPhase;
  constructor(message: string, phase: TimeoutPhase, ctx: ClientErrorContext) {
    super("RACKFORM_ERR_HTTP_TIMEOUT", message, ctx);
    this.name = "HttpTimeoutError";
    this.phase = phase;
  }
}

/** The connection failed or was dropped. */
export class HttpConnectError extends RackformClientError {
  constructor(message: string, ctx: ClientErrorContext) {
    super("RACKFORM_ERR_HTTP_CONNECT", message, ctx);
    this.name = "HttpConnectError";
  }
}

/** The caller aborted. */
export class HttpAbortedError extends RackformClientError {
  constructor(message: string, ctx: ClientErrorContext) {
    super("RACKFORM_ERR_HTTP_ABORTED", message, ctx);
    this.name = "HttpAbortedError";
  }
}

/** The body was unreadable or not the expected JSON. */
export class HttpBodyError extends RackformClientError {
  constructor(message: string, ctx: ClientErrorContext) {
    super("RACKFORM_ERR_HTTP_BAD_BODY", message, ctx);
    this.name = "HttpBodyError";
  }
}

/** TLS verification or handshake failed. */
export class TlsError extends RackformClientError {
  constructor(message: string, ctx: ClientErrorContext) {
    super("RACKFORM_ERR_TLS", message, ctx);
    this.name = "TlsError";
  }
}

/** A Redfish-level failure; `code` says which. Extra facts (allowed values, task messages) ride in `details`. */
export class RedfishError extends RackformClientError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, ctx: ClientErrorContext = {}, details: Record<string, unknown> = {}) {
    super(code, message, ctx);
    this.name = "RedfishError";
    this.details = details;
  }
}

/** An attestation input or transcript that cannot be used; `code` says which, `details` where (a JSON path, an offset). */
export class AttestError extends RackformClientError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    code: "RACKFORM_ERR_ATTEST_INPUT" | "RACKFORM_ERR_ATTEST_TRANSCRIPT",
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message);
    this.name = "AttestError";
    this.details = details;
  }
}

/** True when `e` is a client error with the given code. */
export function isClientError(e: unknown, code?: ErrorCode): e is RackformClientError {
  return e instanceof RackformClientError && (code === undefined || e.code === code);
}

const MAX_SERVER_MESSAGE = 1000;

/**
 * The server's own explanation from an error body: Redfish `error.message` plus every
 * `@Message.ExtendedInfo[].Message` (an array, or a single object on some BMCs); otherwise a generic JSON
 * `message`/`detail`/`error`/`title`; otherwise short plain text. Undefined when there is nothing useful.
 */
export function extractServerMessage(body: string, contentType = ""): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (/html/i.test(contentType) || text.startsWith("<")) return undefined;
    return clip(text.replace(/\s+/g, " "));
  }
  if (!isObject(parsed)) return undefined;
  const parts: string[] = [];
  const err = parsed.error;
  if (isObject(err)) {
    pushString(parts, err.message);
    for (const info of asArray(err["@Message.ExtendedInfo"])) if (isObject(info)) pushString(parts, info.Message);
  }
  for (const info of asArray(parsed["@Message.ExtendedInfo"])) if (isObject(info)) pushString(parts, info.Message);
  if (parts.length === 0) {
    for (const key of ["message", "detail", "error_description", "title"]) pushString(parts, parsed[key]);
    if (typeof err === "string") pushString(parts, err);
  }
  const unique = [...new Set(parts)];
  return unique.length ? clip(unique.join("; ")) : undefined;
}

/**
 * The first registry message of a Redfish error body: MessageId and Resolution of the first
 * `@Message.ExtendedInfo` entry that has a MessageId (vendor messages usually come first), else `error.code`.
 */
export function extractMessageInfo(body: string): { messageId?: string; resolution?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!isObject(parsed)) return {};
  const err = isObject(parsed.error) ? parsed.error : undefined;
  const infos = [...asArray(err?.["@Message.ExtendedInfo"]), ...asArray(parsed["@Message.ExtendedInfo"])];
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const all = infos.filter(isObject).filter((i) => text(i.MessageId));
  // A generic Base.GeneralError wrapper often precedes the vendor's own message: prefer the specific one.
  const info = all.find((i) => !/\.GeneralError$/.test(String(i.MessageId))) ?? all[0];
  if (info) return { messageId: text(info.MessageId), resolution: text(info.Resolution) };
  return { messageId: text(err?.code) };
}

function pushString(out: string[], v: unknown): void {
  if (typeof v === "string" && v.trim()) out.push(v.trim());
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function clip(s: string): string {
  return s.length > MAX_SERVER_MESSAGE ? `${s.slice(0, MAX_SERVER_MESSAGE)}…` : s;
}
