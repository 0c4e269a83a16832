/** Routing for the lab's Redfish services: a table of path patterns and a handler per method. */
import type { IncomingMessage } from "node:http";
import type { LabDpu } from "../world/dpu.js";
import type { LabNode, LabPdu, World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import type { SessionStore } from "./sessions.js";

/** The service a request reached, decided by the local address it arrived on. */
export type Target =
  | { readonly kind: "bmc"; readonly node: LabNode }
  | { readonly kind: "pdu"; readonly pdu: LabPdu }
  | { readonly kind: "dpu"; readonly dpu: LabDpu };

/** Everything a handler may read. */
export interface Ctx {
  readonly world: World;
  readonly target: Target;
  readonly sessions: SessionStore;
  readonly method: string;
  readonly path: string;
  /** The raw query string (without `?`); absent where a handler is called without a request. */
  readonly query?: string;
  readonly params: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body (undefined when empty). */
  readonly body: unknown;
  /** Authenticated user name. */
  readonly user: string;
}

/** What a handler returns. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A resource handler. */
export type Handler = (ctx: Ctx) => Reply;

/** A POST handler that reads the request body itself, as it streams (a multipart firmware push). */
export type UploadHandler = (ctx: Ctx, req: IncomingMessage) => Promise<Reply>;

/** One route: pattern like `/redfish/v1/Systems/:sys`, handlers by method, methods allowed without credentials. */
export interface Route {
  readonly pattern: string;
  readonly methods: Readonly<Partial<Record<"GET" | "POST" | "PATCH" | "PUT" | "DELETE", Handler>>>;
  readonly anonymous?: readonly string[];
  /** POST taking the raw body stream (the server then reads no body for it); `methods.POST` is not used. */
  readonly upload?: UploadHandler;
}

/** A compiled route table. */
export class Router {
  private readonly compiled: { re: RegExp; keys: string[]; route: Route }[];
  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => {
      const keys: string[] = [];
      const src = route.pattern.replace(/:([a-zA-Z]+)/g, (_, k: string) => {
        keys.push(k);
        return "([^/]+)";
      });
      return { re: new RegExp(`^${src}$`), keys, route };
    });
  }
  /** The route and its parameters for a normalized path. */
  match(path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const c of this.compiled) {
      const m = c.re.exec(path);
      if (m) {
        const params: Record<string, string> = {};
        c.keys.forEach((k, i) => {
          params[k] = decodeURIComponent(m[i + 1]);
        });
        return { route: c.route, params };
      }
    }
    return undefined;
  }
}

/** `{"@odata.id": path}`. */
export const link = (path: string) => ({ "@odata.id": path });

/** A Redfish collection body. */
export function collection(odataType: string, name: string, path: string, members: readonly string[]): unknown {
  return {
    "@odata.type": `#${odataType}.${odataType}`,
    "@odata.id": path,
    Name: name,
    "Members@odata.count": members.length,
    Members: members.map(link),
  };
}

/** 200 with a body. */
export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });

/** GET-only methods answering 200 with what `fn` builds. */
export const get = (fn: (ctx: Ctx) => unknown) => ({ GET: (ctx: Ctx) => ok(fn(ctx)) });

/** The node of a BMC request, or 404 for a PDU. */
export function bmcNode(ctx: Ctx): LabNode {
  if (ctx.target.kind !== "bmc") throw new RedfishError(404, "ResourceNotFound", ["Resource", ctx.path]);
  return ctx.target.node;
}

/** The node when `params[key]` names its system id, else 404. */
export function systemOf(ctx: Ctx, key = "sys"): LabNode {
  const node = bmcNode(ctx);
  if (ctx.params[key] !== node.systemId)
    throw new RedfishError(404, "ResourceNotFound", ["ComputerSystem", ctx.params[key]]);
  return node;
}

/** The node when `params[key]` names its chassis id, else 404. */
export function chassisOf(ctx: Ctx, key = "ch"): LabNode {
  const node = bmcNode(ctx);
  if (ctx.params[key] !== node.chassisId) throw new RedfishError(404, "ResourceNotFound", ["Chassis", ctx.params[key]]);
  return node;
}

/** The body as a JSON object, or 400. */
export function objectBody(ctx: Ctx): Record<string, unknown> {
  const b = ctx.body;
  if (typeof b !== "object" || b === null || Array.isArray(b)) throw new RedfishError(400, "MalformedJSON");
  return b as Record<string, unknown>;
}

/** ISO 8601 of a simulated time. */
export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** The usual Status object. */
export const status = (health = "OK", state = "Enabled") => ({ State: state, Health: health });
