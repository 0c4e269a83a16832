/**
 * A scriptable node:http(s) server on 127.0.0.1 port 0 for fault tests: each request is answered by the next
 * step of a script (status, headers, body, delay, or a reset connection). Counts requests and peak concurrency.
 */
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttps } from "node:https";
import type { AddressInfo } from "node:net";

/** What the server does with one request. */
export type Step =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: unknown;
      readonly delayMs?: number;
    }
  | { readonly reset: true };

/** A recorded request. */
export interface Hit {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A running fault server. */
export interface FaultServer {
  readonly url: string;
  readonly hits: Hit[];
  /** Highest number of requests in flight at once. */
  readonly maxInFlight: () => number;
  close(): Promise<void>;
}

/** Starts a server that answers with `script(hit, n)` (n counts from 1 per server). */
export async function startFaultServer(
  script: (hit: Hit, n: number) => Step,
  tls?: { readonly key: string; readonly cert: string },
): Promise<FaultServer> {
  const hits: Hit[] = [];
  let inFlight = 0;
  let peak = 0;
  const timers = new Set<NodeJS.Timeout>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const hit = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      hits.push(hit);
      const step = script(hit, hits.length);
      if ("reset" in step) {
        req.socket.resetAndDestroy();
        return;
      }
      inFlight++;
      peak = Math.max(peak, inFlight);
      const reply = () => {
        inFlight--;
        const text =
          step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
        res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
        res.end(text);
      };
      if (step.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!res.destroyed) reply();
          else inFlight--;
        }, step.delayMs);
        timers.add(t);
      } else reply();
    });
  };
  const server: Server = tls ? createHttps({ key: tls.key, cert: tls.cert }, handler) : createHttp(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    hits,
    maxInFlight: () => peak,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
