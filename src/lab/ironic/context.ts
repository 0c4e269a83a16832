/** What every route handler receives and returns: the parsed request and a reply (status, JSON body, headers). */
import type { Conductor } from "./conductor.js";
import { fault, invalid } from "./errors.js";
import type { IronicStore } from "./store.js";
import type { Microversion } from "./versions.js";

/** A handler's answer; `body` undefined means an empty body (202/204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request as handlers see it. */
export interface Ctx {
  readonly method: string;
  /** Path parameters captured by the route (id, …). */
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** Base URL for links: http://host:port (from the Host header). */
  readonly base: string;
  readonly version: Microversion;
  /** The request body as text ("" when none). */
  readonly rawBody: string;
  readonly store: IronicStore;
  readonly conductor: Conductor;
}

/** Parses the JSON body; bad JSON is a 500 "Server" fault with Python's json message, as Ironic 21.4 answers. */
export function jsonBody(ctx: Ctx): unknown {
  if (ctx.rawBody.trim() === "") throw invalid("Missing argument: body");
  try {
    return JSON.parse(ctx.rawBody);
  } catch {
    throw fault(500, pythonJsonError(ctx.rawBody), "Server");
  }
}

// Python's json module names the first problem and its position; the lab reproduces the common cases.
function pythonJsonError(text: string): string {
  let i = 0;
  while (i < text.length && /\s/.test(text[i])) i++;
  const at = (pos: number) => {
    const before = text.slice(0, pos);
    const line = before.split("\n").length;
    const col = pos - before.lastIndexOf("\n");
    return `line ${line} column ${col} (char ${pos})`;
  };
  if (text[i] === "{" || text[i] === "[") {
    let j = i + 1;
    while (j < text.length && /\s/.test(text[j])) j++;
    if (text[i] === "{" && text[j] !== '"' && text[j] !== "}") {
      return `Expecting property name enclosed in double quotes: ${at(j)}`;
    }
    if (text[i] === "[" && text[j] === "{") {
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k])) k++;
      if (text[k] !== '"') return `Expecting property name enclosed in double quotes or '}': ${at(k)}`;
    }
  }
  return `Expecting value: ${at(i)}`;
}

/** Reads an object body; anything else is a 400. */
export function objectBody(ctx: Ctx): Record<string, unknown> {
  const body = jsonBody(ctx);
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw invalid("Invalid input for field/attribute body.");
  return body as Record<string, unknown>;
}
