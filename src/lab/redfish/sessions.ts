/** SessionService, Sessions and authentication (X-Auth-Token or HTTP Basic), per BMC/PDU. */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { RedfishError } from "./errors.js";
import { type Ctx, collection, link, objectBody, ok, type Route } from "./router.js";

const SESSIONS = "/redfish/v1/SessionService/Sessions";
/** Sessions a PDU keeps before refusing new ones (BMC limits are per vendor: world/spec.ts DEFAULT_SESSION_LIMITS). */
export const PDU_SESSION_LIMIT = 16;
const TIMEOUT_S = 1800;

interface Session {
  readonly id: string;
  readonly token: string;
  readonly user: string;
  lastUsed: number;
}

/** The sessions of one service (one BMC or PDU). */
export class SessionStore {
  private readonly byToken = new Map<string, Session>();
  constructor(
    /** The account this service accepts now (read on every check: the password can be rotated). */
    private readonly account: () => { readonly username: string; readonly password: string },
    /** Live sessions kept before a new one is refused with 503 SessionLimitExceeded. */
    readonly limit: number,
  ) {}

  /** Credentials check in constant time. */
  checkPassword(user: string, password: string): boolean {
    const eq = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
    const { username, password: current } = this.account();
    return eq(user, username) && eq(password, current);
  }
  /** Ends every session (the account's password changed, as BMCs such as OpenBMC do). */
  clear(): void {
    this.byToken.clear();
  }
  /** Creates a session, or 503 when the limit is reached. */
  create(user: string): Session {
    this.expire();
    if (this.byToken.size >= this.limit)
      throw new RedfishError(503, "SessionLimitExceeded", [], { "Retry-After": "30" });
    const s = {
      id: randomBytes(8).toString("hex"),
      token: randomBytes(24).toString("hex"),
      user,
      lastUsed: Date.now(),
    };
    this.byToken.set(s.token, s);
    return s;
  }
  /** How many sessions are live now (expired ones dropped first). */
  liveCount(): number {
    this.expire();
    return this.byToken.size;
  }
  /** The live session of a token. */
  byTokenValue(token: string): Session | undefined {
    const s = this.byToken.get(token);
    if (!s) return undefined;
    if (Date.now() - s.lastUsed > TIMEOUT_S * 1000) {
      this.byToken.delete(token);
      return undefined;
    }
    s.lastUsed = Date.now();
    return s;
  }
  /** Session by id. */
  byId(id: string): Session | undefined {
    return [...this.byToken.values()].find((s) => s.id === id);
  }
  /** Ends a session. */
  remove(id: string): boolean {
    const s = this.byId(id);
    if (s) this.byToken.delete(s.token);
    return s !== undefined;
  }
  /** Live session ids. */
  ids(): string[] {
    this.expire();
    return [...this.byToken.values()].map((s) => s.id);
  }
  private expire(): void {
    const now = Date.now();
    for (const [t, s] of this.byToken) if (now - s.lastUsed > TIMEOUT_S * 1000) this.byToken.delete(t);
  }
}

/** The authenticated user of a request, or a 401 RedfishError. */
export function authenticate(store: SessionStore, headers: Ctx["headers"]): string {
  const token = headers["x-auth-token"];
  if (typeof token === "string" && token) {
    const s = store.byTokenValue(token);
    if (s) return s.user;
  }
  const auth = headers.authorization;
  if (typeof auth === "string" && auth.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(auth.slice(6).trim(), "base64").toString("utf8");
    const i = decoded.indexOf(":");
    if (i > 0 && store.checkPassword(decoded.slice(0, i), decoded.slice(i + 1))) return decoded.slice(0, i);
  }
  throw new RedfishError(401, "NoValidSession", [], { "WWW-Authenticate": 'Basic realm="Redfish"' });
}

function sessionBody(s: Session) {
  return {
    "@odata.type": "#Session.v1_8_0.Session",
    "@odata.id": `${SESSIONS}/${s.id}`,
    Id: s.id,
    Name: "User Session",
    UserName: s.user,
    SessionType: "Redfish",
  };
}

/** Routes of the session service. */
export const sessionRoutes: Route[] = [
  {
    pattern: "/redfish/v1/SessionService",
    methods: {
      GET: () =>
        ok({
          "@odata.type": "#SessionService.v1_2_0.SessionService",
          "@odata.id": "/redfish/v1/SessionService",
          Id: "SessionService",
          Name: "Session Service",
          ServiceEnabled: true,
          SessionTimeout: TIMEOUT_S,
          Status: { State: "Enabled", Health: "OK" },
          Sessions: link(SESSIONS),
        }),
    },
  },
  {
    pattern: SESSIONS,
    anonymous: ["POST"],
    methods: {
      GET: (ctx) =>
        ok(
          collection(
            "SessionCollection",
            "Session Collection",
            SESSIONS,
            ctx.sessions.ids().map((id) => `${SESSIONS}/${id}`),
          ),
        ),
      POST: (ctx) => {
        const b = objectBody(ctx);
        for (const k of ["UserName", "Password"]) {
          if (typeof b[k] !== "string") throw new RedfishError(400, "PropertyMissing", [k]);
        }
        if (!ctx.sessions.checkPassword(b.UserName as string, b.Password as string)) {
          throw new RedfishError(401, "NoValidSession");
        }
        const s = ctx.sessions.create(b.UserName as string);
        return {
          status: 201,
          body: sessionBody(s),
          headers: { "X-Auth-Token": s.token, Location: `${SESSIONS}/${s.id}` },
        };
      },
    },
  },
  {
    pattern: `${SESSIONS}/:id`,
    methods: {
      GET: (ctx) => {
        const s = ctx.sessions.byId(ctx.params.id);
        if (!s) throw new RedfishError(404, "ResourceNotFound", ["Session", ctx.params.id]);
        return ok(sessionBody(s));
      },
      DELETE: (ctx) => {
        if (!ctx.sessions.remove(ctx.params.id))
          throw new RedfishError(404, "ResourceNotFound", ["Session", ctx.params.id]);
        return { status: 204 };
      },
    },
  },
  {
    pattern: "/redfish/v1/AccountService",
    methods: {
      GET: () =>
        ok({
          "@odata.type": "#AccountService.v1_15_0.AccountService",
          "@odata.id": "/redfish/v1/AccountService",
          Id: "AccountService",
          Name: "Account Service",
          ServiceEnabled: true,
          MinPasswordLength: 8,
          Accounts: link("/redfish/v1/AccountService/Accounts"),
          Roles: link("/redfish/v1/AccountService/Roles"),
        }),
    },
  },
  {
    pattern: "/redfish/v1/AccountService/Accounts",
    methods: {
      GET: () =>
        ok(
          collection("ManagerAccountCollection", "Accounts", "/redfish/v1/AccountService/Accounts", [
            "/redfish/v1/AccountService/Accounts/2",
          ]),
        ),
    },
  },
  {
    pattern: "/redfish/v1/AccountService/Accounts/:id",
    methods: {
      GET: (ctx) => {
        if (ctx.params.id !== "2") throw new RedfishError(404, "ResourceNotFound", ["ManagerAccount", ctx.params.id]);
        return ok({
          "@odata.type": "#ManagerAccount.v1_12_0.ManagerAccount",
          "@odata.id": "/redfish/v1/AccountService/Accounts/2",
          Id: "2",
          Name: "User Account",
          UserName: ctx.user,
          RoleId: "Administrator",
          Enabled: true,
          Locked: false,
        });
      },
    },
  },
];
