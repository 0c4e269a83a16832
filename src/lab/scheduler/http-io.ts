/** Small node:http helpers shared by the lab's scheduler endpoints (slurmrestd and the Kubernetes API). */
import type { IncomingMessage, ServerResponse } from "node:http";

/** A time source; the scheduler lab only needs timestamps, never timers. */
export interface SchedulerClock {
  now(): number;
}

/** The wall clock. */
export const wallClock: SchedulerClock = { now: () => Date.now() };

/** One line of a lab request log. */
export interface SchedulerRequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Wall-clock time (ms since the epoch) the request arrived: the request rate the scheduler sees. */
  readonly at: number;
}

/** Reads the whole request body as text. */
export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes a JSON response. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Writes a plain-text response. */
export function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/plain", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export { type ListeningServer, listenOn, type ServerTls } from "../net.js";
