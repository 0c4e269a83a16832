/**
 * One Redfish request from a lab controller (MAAS's power driver, Ironic's conductor) to a lab BMC, as their real
 * counterparts send it: basic auth, JSON, OData-Version 4.0, HTTPS with the controller's trust store.
 */
import { request as httpRequest } from "node:http";
import { type Agent, request as httpsRequest } from "node:https";

/** Where and as whom a controller reaches one BMC. */
export interface BmcTarget {
  /** host[:port] or a URL; a bare host means HTTPS. */
  readonly address: string;
  readonly username: string;
  readonly password: string;
  /** PEM CA bundle to trust. @default Node's default trust store */
  readonly ca?: string;
  /** @default true */
  readonly rejectUnauthorized?: boolean;
  /** HTTPS connection pool. @default Node's global agent */
  readonly agent?: Agent;
  readonly timeoutMs: number;
}

/** A BMC's reply: status and parsed JSON body (undefined when empty or not JSON). */
export interface BmcReply {
  readonly status: number;
  readonly json: Record<string, unknown> | undefined;
}

/** A transport failure (connect, TLS, timeout); controllers word it as their real counterparts do. */
export class BmcUnreachable extends Error {
  constructor(
    readonly url: URL,
    cause: Error,
  ) {
    super(cause.message);
  }
}

/** Sends one request; resolves with any HTTP status, rejects with BmcUnreachable when no reply came. */
export function bmcRequest(target: BmcTarget, method: string, path: string, body?: unknown): Promise<BmcReply> {
  const addr = target.address.trim();
  const url = new URL(path, /^https?:\/\//.test(addr) ? addr : `https://${addr}`);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const auth = Buffer.from(`${target.username}:${target.password}`).toString("base64");
  const https = url.protocol === "https:";
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        timeout: target.timeoutMs,
        ...(https
          ? {
              ca: target.ca,
              rejectUnauthorized: target.rejectUnauthorized ?? true,
              ...(target.agent ? { agent: target.agent } : {}),
            }
          : {}),
        headers: {
          Authorization: `Basic ${auth}`,
          Accept: "application/json",
          "OData-Version": "4.0",
          ...(payload ? { "Content-Type": "application/json", "Content-Length": payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: Record<string, unknown> | undefined;
          try {
            json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on("error", (e) => reject(new BmcUnreachable(url, e)));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timed out after ${target.timeoutMs} ms`)));
    req.on("error", (e) => reject(new BmcUnreachable(url, e)));
    req.end(payload);
  });
}

/** Reads the system until it is neither PoweringOn nor PoweringOff (a BMC refuses resets then, with 409). */
export async function settledSystem(
  read: () => Promise<Record<string, unknown> | undefined>,
  timeoutMs: number,
  pollMs = 50,
): Promise<Record<string, unknown> | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sys = await read();
    const s = String(sys?.PowerState ?? "");
    if ((s !== "PoweringOn" && s !== "PoweringOff") || Date.now() > deadline) return sys;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
