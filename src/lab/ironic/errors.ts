/** Ironic's error responses: `{"error_message": "<JSON string of faultcode/faultstring/debuginfo>"}` and the common faults. */

/** An error the lab answers with: status, the whole JSON body, extra headers, and the plain message for logs. */
export class IronicHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    message = "",
  ) {
    super(message);
    this.name = "IronicHttpError";
  }
}

/** A wsme-style fault: the body Ironic's API returns for ClientSideError and IronicException subclasses. */
export function fault(status: number, faultstring: string, faultcode: "Client" | "Server" = "Client"): IronicHttpError {
  // Key order matches what Ironic 21.4 emits (faultcode, faultstring, debuginfo).
  const inner = pyJson({ faultcode, faultstring, debuginfo: null });
  return new IronicHttpError(status, { error_message: inner }, {}, faultstring);
}

/** 400 Invalid (bad input). */
export const invalid = (msg: string) => fault(400, msg);

/** 404 for a missing resource, e.g. notFound("Node", "x") → "Node x could not be found." */
export const notFound = (kind: string, ident: string) => fault(404, `${kind} ${ident} could not be found.`);

/** 409 NodeLocked: a conductor holds the node's reservation. */
export const nodeLocked = (uuid: string, host: string) =>
  fault(409, `Node ${uuid} is locked by host ${host}, please retry after the current operation is completed.`);

/** 400 InvalidStateRequested: the verb is not allowed from the node's provision state. */
export const invalidState = (action: string, uuid: string, state: string) =>
  fault(
    400,
    `The requested action "${action}" can not be performed on node "${uuid}" while it is in state "${state}".`,
  );

/** 409 Conflict with a message. */
export const conflict = (msg: string) => fault(409, msg);

/** Python's repr of a JSON value, for messages Ironic builds with %s on dicts and lists. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`);
  return `{${entries.join(", ")}}`;
}

/** JSON as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped), which is what Ironic sends. */
export function pyJson(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string")
    return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyJson).join(", ")}]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  return `{${entries.map(([k, x]) => `${pyJson(k)}: ${pyJson(x)}`).join(", ")}}`;
}

/** A webob HTTP error (unknown path, wrong method): Ironic wraps {code, title, description} instead of a wsme fault. */
export function webobError(status: 404 | 405, title: string): IronicHttpError {
  return new IronicHttpError(status, { error_message: pyJson({ code: status, title, description: "" }) }, {}, title);
}
