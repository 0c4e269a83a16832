/**
 * The lab's image server: plain HTTP on 127.0.0.1, like the web server an operator puts golden images on for Ironic
 * (instance_info.image_source) and MAAS uploads. It serves the demo's images and lab firmware images
 * (firmware-files.ts) by their names and answers GET, ranged GET and HEAD the way a static web server does; tests add,
 * replace or remove files to see a 404 or a bad checksum.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { firmwareFileContent } from "./firmware-files.js";

/** A demo golden image file: `<name>-<version>.qcow2`, whose bytes are the text `<name>-<version>`. */
export const DEMO_IMAGE_FILE = /^([a-z0-9][a-z0-9._-]*-[A-Za-z0-9][A-Za-z0-9._+-]*)\.qcow2$/;
/** The IPA deploy kernel and ramdisk the demo's Ironic nodes name. */
const IPA_FILES: Readonly<Record<string, string>> = {
  "ipa.kernel": "lab ipa kernel",
  "ipa.initramfs": "lab ipa ramdisk",
};

/** The bytes of a demo golden image (so its sha256 is sha256("<name>-<version>"), as the demo writes it). */
export function demoImageContent(name: string, version: string): Buffer {
  return Buffer.from(`${name}-${version}`);
}

/** One request the image server answered. */
export interface ImageRequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** A running image server. */
export interface ImageServer {
  /** Base URL ending in "/", e.g. http://127.0.0.1:41234/images/ */
  readonly url: string;
  /** Every request answered so far, in order. */
  readonly requests: readonly ImageRequestLogEntry[];
  /** Serves `file` with these bytes (replacing what it served before). */
  put(file: string, content: Buffer | string): void;
  /** Stops serving `file`: it answers 404 from now on. */
  remove(file: string): void;
  /** Whether HEAD is refused with 405 (some object stores and CDNs do), to exercise clients' ranged-GET fallback. */
  refuseHead(on: boolean): void;
  close(): Promise<void>;
}

/** The image server's file table: explicit files first, then the naming rules; removed files answer 404. */
class Catalogue {
  private readonly files = new Map<string, Buffer>();
  private readonly removed = new Set<string>();

  put(file: string, content: Buffer | string): void {
    this.removed.delete(file);
    this.files.set(file, Buffer.isBuffer(content) ? content : Buffer.from(content));
  }

  remove(file: string): void {
    this.files.delete(file);
    this.removed.add(file);
  }

  get(file: string): Buffer | undefined {
    if (this.removed.has(file)) return undefined;
    const explicit = this.files.get(file);
    if (explicit) return explicit;
    if (IPA_FILES[file] !== undefined) return Buffer.from(IPA_FILES[file]);
    const firmware = firmwareFileContent(file);
    if (firmware) return firmware;
    const m = DEMO_IMAGE_FILE.exec(file);
    return m ? Buffer.from(m[1]) : undefined;
  }
}

/** Starts the image server on 127.0.0.1:`port` (0 picks one), serving under /images/. */
export async function startImageServer(port = 0): Promise<ImageServer> {
  const catalogue = new Catalogue();
  const requests: ImageRequestLogEntry[] = [];
  let headRefused = false;

  const answer = (req: IncomingMessage, res: ServerResponse): number => {
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://lab.invalid").pathname;
    const file = path.startsWith("/images/") ? decodeURIComponent(path.slice("/images/".length)) : undefined;
    if (method !== "GET" && method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("Method Not Allowed\n");
      return 405;
    }
    if (method === "HEAD" && headRefused) {
      res.writeHead(405, { allow: "GET" }).end();
      return 405;
    }
    const body = file ? catalogue.get(file) : undefined;
    if (!body) {
      res.writeHead(404, { "content-type": "text/plain" }).end(method === "HEAD" ? undefined : "Not Found\n");
      return 404;
    }
    const base = { "content-type": "application/octet-stream", "accept-ranges": "bytes" };
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ""));
    if (range && method === "GET") {
      const start = Number(range[1]);
      const end = Math.min(range[2] === "" ? body.length - 1 : Number(range[2]), body.length - 1);
      if (start > end) {
        res.writeHead(416, { ...base, "content-range": `bytes */${body.length}` }).end();
        return 416;
      }
      const part = body.subarray(start, end + 1);
      res.writeHead(206, { ...base, "content-range": `bytes ${start}-${end}/${body.length}` }).end(part);
      return 206;
    }
    res.writeHead(200, { ...base, "content-length": String(body.length) });
    res.end(method === "HEAD" ? undefined : body);
    return 200;
  };

  const server: Server = createServer((req, res) => {
    const status = answer(req, res);
    requests.push({ method: (req.method ?? "GET").toUpperCase(), path: req.url ?? "/", status });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  const bound = typeof addr === "object" && addr ? addr.port : port;
  return {
    url: `http://127.0.0.1:${bound}/images/`,
    requests,
    put: (file, content) => catalogue.put(file, content),
    remove: (file) => catalogue.remove(file),
    refuseHead: (on) => {
      headRefused = on;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
