/** Listening helpers shared by the lab's HTTP services (MAAS, Ironic, slurmrestd, Kubernetes). */
import { createServer, type RequestListener } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";

/** A listening lab server. */
export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A server key and certificate (PEM): the API is then served over HTTPS, as real API servers are. */
export interface ServerTls {
  readonly key: string;
  readonly cert: string;
}

/** Options of listenOn beyond the address. */
export interface ListenOptions {
  /** Serve HTTPS with this key and certificate. @default plain HTTP */
  readonly tls?: ServerTls;
  /** Appended to the base URL (e.g. "/MAAS/"). @default "" */
  readonly urlSuffix?: string;
  /** Runs before the server closes (e.g. cancel the service's timers). */
  readonly onClose?: () => void;
}

/** Serves a handler on host:port (port 0 picks one); resolves with the URL clients use and a close function. */
export function listenOn(
  handler: RequestListener,
  host: string,
  port: number,
  opts: ListenOptions = {},
): Promise<ListeningServer> {
  const { tls } = opts;
  const server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, handler) : createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      const hostPart = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `${tls ? "https" : "http"}://${hostPart}:${bound}${opts.urlSuffix ?? ""}`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            opts.onClose?.();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
