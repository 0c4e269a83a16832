/** Low-level HTTP of the Redfish fleet: reading a JSON body, sending a reply, dropping a connection. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { errorBody, RedfishError } from "./errors.js";
import type { Reply } from "./router.js";

/** Largest JSON request body. */
const MAX_BODY = 1 << 20;

/** Drops a connection with a TCP reset where the socket allows it (a TLS socket only closes). */
export function drop(socket: Socket): void {
  const raw = (socket as Socket & { _parent?: Socket })._parent ?? socket;
  try {
    raw.resetAndDestroy();
  } catch {
    raw.destroy();
  }
  socket.destroy();
}

/** A request path without query, fragment, doubled or trailing slashes. */
export function normalize(url: string): string {
  let p = url.split("?")[0].split("#")[0];
  p = p.replace(/\/{2,}/g, "/");
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

/** The request body as text (413 past MAX_BODY). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new RedfishError(413, "GeneralError", ["The request body is too large."]));
      else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A lab bug as a Redfish 500. */
export function internal(e: unknown): Reply {
  // A lab bug must still look like a Redfish 500, and must say what broke so the lab can be fixed.
  const detail = e instanceof Error ? e.message : String(e);
  return { status: 500, body: errorBody("GeneralError", [`Internal lab error: ${detail}`]) };
}

/** Sends a reply as JSON with the OData headers. */
export function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { "OData-Version": "4.0", "Cache-Control": "no-cache", ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers).end(text);
}
