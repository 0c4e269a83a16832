/**
 * The watch's web server: GET / (the page), GET /snapshot.json, and GET /events (server-sent events, one `snapshot`
 * event per refresh, the current one first). It serves only what the watch read; it changes nothing anywhere.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { WatchSnapshot } from "./model.js";
import { watchPage } from "./page.js";

/** A running watch server. */
export interface WatchServer {
  readonly url: string;
  /** Sends a new snapshot to every open page. */
  publish(s: WatchSnapshot): void;
  close(): Promise<void>;
}

/** `127.0.0.1:8080` → host and port; throws a message naming the fix. */
export function parseListen(raw: string): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port > 65535)
    throw new Error(`expected HOST:PORT (e.g. 127.0.0.1:8080, port 0 for any), got ${JSON.stringify(raw)}`);
  return { host: m[1].replace(/^\[|\]$/g, ""), port };
}

/** Starts serving; `current` is the latest snapshot. */
export async function startWatchServer(host: string, port: number, current: () => WatchSnapshot): Promise<WatchServer> {
  const clients = new Set<ServerResponse>();
  const send = (res: ServerResponse, s: WatchSnapshot) => res.write(`event: snapshot\ndata: ${JSON.stringify(s)}\n\n`);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://watch").pathname;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET" }).end("read-only\n");
      return;
    }
    if (path === "/" || path === "/index.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(watchPage(current()));
    } else if (path === "/snapshot.json") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(current()));
    } else if (path === "/events") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      clients.add(res);
      send(res, current());
      req.on("close", () => clients.delete(res));
    } else {
      res.writeHead(404).end("not found\n");
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => ok());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}/`,
    publish: (s) => {
      for (const c of clients) send(c, s);
    },
    close: () =>
      new Promise<void>((done) => {
        for (const c of clients) c.end();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
