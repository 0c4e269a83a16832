/** Small node:http helpers shared by the lab's scheduler endpoints (slurmrestd and the Kubernetes API). */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";

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
}

/** A listening lab server. */
export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
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

/** A server key and certificate (PEM): the API is then served over HTTPS, as real API servers are. */
export interface ServerTls {
  readonly key: string;
  readonly cert: string;
}

/** Serves a handler on host:port (port 0 picks one), over HTTPS when `tls` is given. */
export function listenOn(
  handler: RequestListener,
  host: string,
  port: number,
  tls?: ServerTls,
): Promise<ListeningServer> {
  const server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, handler) : createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      const hostPart = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `${tls ? "https" : "http"}://${hostPart}:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
