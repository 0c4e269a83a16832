/**
 * A loopback stand-in for a MAAS region, only as deep as the client tests need. It checks the OAuth header the
 * way MAAS does (every required parameter, PLAINTEXT, "&<token_secret>", known consumer and token, no nonce
 * reuse), keeps machines in memory, records every request, and has fault switches.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded request. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly op: string | null;
  readonly query: URLSearchParams;
  readonly form: URLSearchParams;
  readonly authorization: string;
}

type Machine = Record<string, unknown> & {
  system_id: string;
  status: number;
  status_name: string;
  status_message: string;
};

const REQUIRED = [
  "oauth_consumer_key",
  "oauth_token",
  "oauth_signature",
  "oauth_signature_method",
  "oauth_timestamp",
  "oauth_nonce",
];

/** Parses `OAuth k="v", …` into unquoted values (as oauthlib/piston do). */
export function parseOAuth(header: string): Map<string, string> | undefined {
  if (!header.startsWith("OAuth ")) return undefined;
  const out = new Map<string, string>();
  for (const m of header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)) out.set(m[1], decodeURIComponent(m[2]));
  return out;
}

/** The fake region. */
export class FakeMaas {
  readonly requests: Recorded[] = [];
  readonly machines = new Map<string, Machine>();
  /** Status ids each machine walks through, one per read of it (list or get). */
  readonly scripts = new Map<string, { status: number; name: string; message?: string }[]>();
  /** Events returned by events/?op=query, newest first. */
  events: Record<string, unknown>[] = [];
  /** Drop the connection of the next POST (after reading it). */
  resetNextPost = false;
  /** Drop the connection of the next GET. */
  resetNextGet = false;
  /** Answer the next GET 503 after checking (and so consuming) its OAuth nonce, as MAAS does for a BMC that did not answer. */
  unavailableNextGet = false;
  private nonces = new Set<string>();
  private server!: Server;
  private seq = 0;
  url = "";

  constructor(private readonly key = { consumer: "ck", token: "tk", secret: "s3cretTOKEN" }) {}

  /** Starts on 127.0.0.1, port 0. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/MAAS/`;
    return this;
  }

  /** Stops the server. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Adds a machine in the given status. */
  add(hostname: string, status = 4, name = "Ready", extra: Record<string, unknown> = {}): Machine {
    const id = `m${(++this.seq).toString().padStart(5, "0")}`;
    const m: Machine = {
      system_id: id,
      hostname,
      status,
      status_name: name,
      status_message: "",
      power_type: "redfish",
      power_state: "off",
      architecture: "amd64/generic",
      osystem: "",
      distro_series: "",
      tag_names: [],
      ip_addresses: [],
      interface_set: [
        {
          id: this.seq,
          name: "eth0",
          type: "physical",
          mac_address: `52:54:00:00:00:${this.seq.toString(16).padStart(2, "0")}`,
          enabled: true,
          links: [],
        },
      ],
      owner: null,
      ...extra,
    };
    this.machines.set(id, m);
    return m;
  }

  private read(m: Machine): Machine {
    const next = this.scripts.get(m.system_id)?.shift();
    if (next) Object.assign(m, { status: next.status, status_name: next.name, status_message: next.message ?? "" });
    return m;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? "/", "http://x");
    const rec: Recorded = {
      method: req.method ?? "GET",
      path: u.pathname,
      op: u.searchParams.get("op"),
      query: u.searchParams,
      form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")),
      authorization: String(req.headers.authorization ?? ""),
    };
    this.requests.push(rec);
    if ((rec.method === "POST" && this.resetNextPost) || (rec.method === "GET" && this.resetNextGet)) {
      if (rec.method === "POST") this.resetNextPost = false;
      else this.resetNextGet = false;
      req.socket.destroy();
      return;
    }
    const authError = this.checkAuth(rec.authorization);
    if (authError) return send(res, 401, authError, "text/plain");
    if (rec.method === "GET" && this.unavailableNextGet) {
      this.unavailableNextGet = false;
      return send(res, 503, "Unable to query power state: the BMC did not answer", "text/plain");
    }
    const path = u.pathname.replace(/^\/MAAS\/api\/2\.0\//, "");
    const one = /^machines\/([^/]+)\/$/.exec(path);
    if (path === "machines/" && rec.method === "GET") {
      const ids = u.searchParams.getAll("id");
      const hosts = u.searchParams.getAll("hostname");
      const list = [...this.machines.values()].filter(
        (m) =>
          (ids.length === 0 || ids.includes(m.system_id)) && (hosts.length === 0 || hosts.includes(String(m.hostname))),
      );
      return send(
        res,
        200,
        list.map((m) => this.read(m)),
      );
    }
    if (path === "machines/" && rec.method === "POST" && rec.op === null) {
      if (!rec.form.get("architecture")) return send(res, 400, { architecture: ["This field is required."] });
      const m = this.add(rec.form.get("hostname") ?? "new", 1, "Commissioning", {
        power_type: rec.form.get("power_type"),
        interface_set: rec.form
          .getAll("mac_addresses")
          .map((mac, i) => ({ id: 100 + i, name: `eth${i}`, type: "physical", mac_address: mac, links: [] })),
      });
      return send(res, 200, m);
    }
    if (path === "machines/" && rec.op === "allocate") {
      const m = this.machines.get(rec.form.get("system_id") ?? "");
      if (m?.status !== 4) return send(res, 409, "No machine available.", "text/plain");
      Object.assign(m, { status: 10, status_name: "Allocated", owner: "admin" });
      return send(res, 200, m);
    }
    if (one) {
      const m = this.machines.get(one[1]);
      if (!m) return send(res, 404, "No Machine matches the given query.", "text/plain");
      if (rec.method === "GET" && rec.op === null) return send(res, 200, this.read(m));
      if (rec.method === "GET" && rec.op === "query_power_state") return send(res, 200, { state: m.power_state });
      if (rec.method === "DELETE") {
        this.machines.delete(one[1]);
        return send(res, 204, "", "text/plain");
      }
      if (rec.method === "PUT") {
        for (const [k, v] of rec.form) m[k] = v;
        return send(res, 200, m);
      }
      if (rec.op === "deploy" && m.status !== 10 && m.status !== 4) {
        return send(res, 409, `Cannot deploy node ${m.hostname} because it is ${m.status_name}.`, "text/plain");
      }
      const to: Record<string, [number, string]> = {
        deploy: [9, "Deploying"],
        release: [12, "Releasing"],
        commission: [1, "Commissioning"],
        abort: [0, "New"],
        mark_broken: [8, "Broken"],
        mark_fixed: [4, "Ready"],
        test: [21, "Testing"],
      };
      const t = rec.op ? to[rec.op] : undefined;
      if (t) Object.assign(m, { status: t[0], status_name: t[1] });
      if (rec.op === "power_on") m.power_state = "on";
      if (rec.op === "power_off") m.power_state = "off";
      return send(res, 200, m);
    }
    if (path === "events/" && rec.op === "query")
      return send(res, 200, { count: this.events.length, events: this.events });
    if (/^nodes\/[^/]+\/results\/$/.test(path)) return send(res, 200, []);
    if (path === "tags/" && rec.method === "GET")
      return send(res, 200, [{ name: "gpu", comment: "", definition: "", kernel_opts: "" }]);
    if (path === "tags/" && rec.method === "POST")
      return send(res, 200, { name: rec.form.get("name"), comment: rec.form.get("comment") ?? "" });
    if (/^tags\/[^/]+\/$/.test(path))
      return send(res, rec.method === "DELETE" ? 204 : 200, rec.method === "DELETE" ? "" : { name: "gpu" });
    if (path === "boot-resources/")
      return send(
        res,
        200,
        rec.method === "GET"
          ? [{ id: 1, type: "Synced", name: "ubuntu/jammy", architecture: "amd64/ga-22.04", subarches: "generic" }]
          : "Import of boot resources started",
      );
    return send(res, 404, `no fake for ${rec.method} ${path}`, "text/plain");
  }

  /** MAAS's checks (maasserver/api/auth.py): the error names the problem, never the expected secret. */
  private checkAuth(header: string): string | undefined {
    const p = parseOAuth(header);
    if (!p) return "Authorization Error: no OAuth header";
    for (const k of REQUIRED) if (!p.has(k)) return `Authorization Error: missing ${k}`;
    if (p.get("oauth_signature_method") !== "PLAINTEXT") return "Authorization Error: unsupported signature method";
    if (p.get("oauth_consumer_key") !== this.key.consumer) return "Authorization Error: Invalid consumer.";
    if (p.get("oauth_token") !== this.key.token) return "Authorization Error: Invalid access token.";
    if (p.get("oauth_signature") !== `&${this.key.secret}`) return "Authorization Error: Invalid signature.";
    const nonce = `${p.get("oauth_timestamp")}:${p.get("oauth_nonce")}`;
    if (this.nonces.has(nonce)) return "Authorization Error: Nonce already used.";
    this.nonces.add(nonce);
    return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown, type = "application/json"): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
  res.end(text);
}
