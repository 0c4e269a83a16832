/** Request decoding (query, urlencoded and multipart bodies) and MAAS-style error responses. */
import type { IncomingMessage, ServerResponse } from "node:http";

/** An error MAAS would answer with: a status and a body (plain text, or JSON form errors). */
export class MaasHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string | Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === "string" ? body : JSON.stringify(body));
    this.name = "MaasHttpError";
  }
}

/** 404 with Django's text for a missing object of the given model name. */
export function notFound(model: string): MaasHttpError {
  return new MaasHttpError(404, `No ${model} matches the given query.`);
}

/** 409 NodeStateViolation. */
export function conflict(message: string): MaasHttpError {
  return new MaasHttpError(409, message);
}

/** 400 MAASAPIValidationError: a JSON object of field → messages. */
export function invalid(errors: Record<string, string[]>): MaasHttpError {
  return new MaasHttpError(400, errors);
}

/** 400 MAASAPIBadRequest with a text message. */
export function badRequest(message: string): MaasHttpError {
  return new MaasHttpError(400, message);
}

/** Decoded request parameters: every field may repeat; file parts keep their bytes. */
export class Params {
  constructor(
    private readonly fields: Map<string, string[]>,
    readonly files: Map<string, Buffer>,
  ) {}
  /** First value of a field (or of a file part decoded as UTF-8). */
  get(name: string): string | undefined {
    const v = this.fields.get(name)?.[0];
    if (v !== undefined) return v;
    return this.files.get(name)?.toString("utf8");
  }
  /** All values of a field; comma-separated lists are left to the caller. */
  all(name: string): string[] {
    return this.fields.get(name) ?? [];
  }
  /** Field names present. */
  names(): string[] {
    return [...this.fields.keys(), ...this.files.keys()];
  }
  /** A Django BooleanField: "true", "1", "on", "yes" are true; absent is `fallback`. */
  bool(name: string, fallback = false): boolean {
    const v = this.get(name);
    if (v === undefined) return fallback;
    return !["", "false", "0", "off", "no", "none"].includes(v.trim().toLowerCase());
  }
  /** Merges another Params into this one (body fields after query fields). */
  static merge(a: Params, b: Params): Params {
    const fields = new Map<string, string[]>();
    for (const p of [a, b]) for (const [k, v] of p.fields) fields.set(k, [...(fields.get(k) ?? []), ...v]);
    return new Params(fields, new Map([...a.files, ...b.files]));
  }
}

/** Parses a query string into Params. */
export function parseQuery(search: string): Params {
  const fields = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(search)) fields.set(k, [...(fields.get(k) ?? []), v]);
  return new Params(fields, new Map());
}

/** Reads the whole request body (bounded, since boot-resource uploads land here). */
export async function readBody(req: IncomingMessage, limitBytes = 256 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new MaasHttpError(413, "Request body too large.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Decodes a form body: application/x-www-form-urlencoded or multipart/form-data (python-libmaas sends base64 parts). */
export function parseBody(contentType: string | undefined, body: Buffer): Params {
  const ct = contentType ?? "";
  if (body.length === 0) return new Params(new Map(), new Map());
  if (ct.startsWith("multipart/form-data")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(ct)?.[1];
    if (!boundary) throw badRequest("Missing multipart boundary.");
    return parseMultipart(body, boundary);
  }
  if (ct.startsWith("application/json")) {
    const fields = new Map<string, string[]>();
    const obj = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj))
      fields.set(
        k,
        (Array.isArray(v) ? v : [v]).map((x) => String(x)),
      );
    return new Params(fields, new Map());
  }
  return parseQuery(body.toString("utf8"));
}

function parseMultipart(body: Buffer, boundary: string): Params {
  const fields = new Map<string, string[]>();
  const files = new Map<string, Buffer>();
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    const start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // Part = CRLF headers CRLF CRLF content CRLF
    let part = body.subarray(start, next);
    if (part.subarray(0, 2).toString() === "\r\n") part = part.subarray(2);
    if (part.subarray(part.length - 2).toString() === "\r\n") part = part.subarray(0, part.length - 2);
    const split = part.indexOf("\r\n\r\n");
    const head = split >= 0 ? part.subarray(0, split).toString("utf8") : part.toString("utf8");
    let content = split >= 0 ? part.subarray(split + 4) : Buffer.alloc(0);
    const headers = new Map<string, string>();
    for (const line of head.split("\r\n")) {
      const i = line.indexOf(":");
      if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
    }
    if (headers.get("content-transfer-encoding")?.toLowerCase() === "base64") {
      content = Buffer.from(content.toString("ascii"), "base64");
    }
    const disposition = headers.get("content-disposition") ?? "";
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
    const isFile = /\bfilename="/.test(disposition);
    if (name !== undefined) {
      if (isFile) files.set(name, content);
      else fields.set(name, [...(fields.get(name) ?? []), content.toString("utf8")]);
    }
    pos = next;
  }
  return new Params(fields, files);
}

/** Writes a JSON response the way MAAS does (application/json). */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** Writes a plain-text response (MAAS errors are text/plain; charset=utf-8). */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
