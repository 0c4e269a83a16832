/** Handler table of the MAAS lab: paths, ops and methods, dispatch, and the describe/ document built from the same table. */
import { createHash } from "node:crypto";
import type { ApiCredential } from "./auth.js";
import { badRequest, type Params } from "./http-io.js";
import { API } from "./render.js";

/** What an action gets: decoded params, the authenticated user and the path's placeholders. */
export interface ActionContext {
  params: Params;
  user: ApiCredential | undefined;
  path: Record<string, string>;
  /** The request body as sent (POST/PUT), for handlers that take raw bytes (boot-resource file uploads). */
  raw?: Buffer;
}

/** An action's answer: JSON (default 200), plain text (piston's rc.ALL_OK), or an empty body (204 for DELETE). */
export type Reply = { status?: number; json: unknown } | { status?: number; text: string } | { status: 204 };

/** One operation on a handler: REST (op null) or `?op=name`. */
export interface Action {
  readonly name: string;
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly op: string | null;
  readonly doc: string;
  /** Allowed without credentials (only version/ in this lab). */
  readonly anon?: boolean;
  run(ctx: ActionContext): Reply | Promise<Reply>;
}

/** A MAAS API handler (a URL pattern with its actions), named as MAAS names its handler classes. */
export interface Handler {
  readonly name: string;
  /** Path below /MAAS/api/2.0/, with {placeholders}, e.g. "machines/{system_id}/". */
  readonly path: string;
  readonly doc: string;
  readonly actions: readonly Action[];
}

interface Compiled {
  handler: Handler;
  regex: RegExp;
  names: string[];
}

/** Matches request paths to handlers; trailing slashes are optional as Django's patterns make them. */
export class Router {
  private readonly compiled: Compiled[];

  constructor(readonly handlers: readonly Handler[]) {
    this.compiled = handlers.map((handler) => {
      const names: string[] = [];
      const body = handler.path
        .replace(/\/$/, "")
        .split("/")
        .map((seg) => {
          const m = /^\{(\w+)\}$/.exec(seg);
          if (!m) return seg.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
          names.push(m[1]);
          return "([^/]+)";
        })
        .join("/");
      return { handler, names, regex: new RegExp(`^${API}/${body}/?$`) };
    });
  }

  /** The handler and placeholders for a path, or undefined. */
  match(pathname: string): { handler: Handler; path: Record<string, string> } | undefined {
    for (const c of this.compiled) {
      const m = c.regex.exec(pathname);
      if (!m) continue;
      const path: Record<string, string> = {};
      c.names.forEach((n, i) => {
        path[n] = decodeURIComponent(m[i + 1]);
      });
      return { handler: c.handler, path };
    }
    return undefined;
  }

  /** The action for a method and op, or MAAS's 400 "Unrecognised signature". */
  action(handler: Handler, method: string, op: string | undefined): Action {
    const found = handler.actions.find((a) => a.method === method && a.op === (op ?? null));
    // MAAS 2.0 also accepted `POST machines/?op=create`; the describe document lists the REST form only.
    const alias = op === "create" ? handler.actions.find((a) => a.method === method && a.name === "create") : undefined;
    const action = found ?? alias;
    if (!action) throw badRequest(`Unrecognised signature: method=${method} op=${op ?? "None"}`);
    return action;
  }

  /** The document GET /MAAS/api/2.0/describe/ returns (what python-libmaas builds its bindings from). */
  describe(origin: string): Record<string, unknown> {
    const resources = this.handlers.map((h) => {
      const params = [...h.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const desc = (actions: readonly Action[]) => ({
        name: h.name,
        doc: h.doc,
        params,
        path: `${API}/${h.path}`,
        uri: `${origin}${API}/${h.path}`,
        actions: actions.map((a) => ({
          name: a.name,
          method: a.method,
          op: a.op,
          restful: a.op === null,
          doc: a.doc,
        })),
      });
      const anonActions = h.actions.filter((a) => a.anon);
      const allAnon = anonActions.length === h.actions.length;
      return {
        name: h.name,
        auth: allAnon ? null : desc(h.actions),
        anon: anonActions.length > 0 ? desc(anonActions) : null,
      };
    });
    const hash = createHash("sha1").update(JSON.stringify(resources)).digest("hex");
    return { doc: "MAAS API", hash, resources };
  }
}
