/**
 * A throwaway PostgreSQL server for tests of the engines' pg state backend: initdb in a temp dir, listening on
 * 127.0.0.1 at a free port with password (scram) auth, stopped and deleted after. test/setup/postgres.ts starts one
 * server per run; each test file opens a database of its own on it (`openDatabase`) and drops it after. Debian's server binaries
 * (/usr/lib/postgresql/<major>/bin) are found off PATH; missing binaries fail with how to get them, never skip.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running PostgreSQL server. */
export interface Postgres {
  readonly host: "127.0.0.1";
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** The role's password; pass it to clients as PGPASSWORD, never in a connection string that gets printed. */
  readonly password: string;
  /** A connection string without the password (sslmode=disable: loopback only). */
  readonly connStr: string;
  /** Runs one SQL statement through psql and returns the rows (columns split on `|`). */
  query(sql: string): Promise<string[][]>;
  /**
   * Opens a session that runs `sql` (which must print `t` when it got its lock, e.g. a `pg_try_advisory_lock`) and
   * keeps it open, as another pipeline holding a state lock would; resolves with a release function.
   */
  holdLock(sql: string): Promise<() => Promise<void>>;
  /** Stops the server and deletes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}

const MISSING =
  "PostgreSQL server binaries (initdb, pg_ctl, psql) were not found: run scripts/setup.sh (it installs Debian's " +
  "postgresql package when missing) or set RACKFORM_PG_BIN to the directory holding them";

/** The directory holding initdb, pg_ctl and psql: RACKFORM_PG_BIN, the newest Debian major, or PATH. */
export function postgresBinDir(): string {
  const has = (dir: string) => ["initdb", "pg_ctl", "psql"].every((b) => existsSync(join(dir, b)));
  const explicit = process.env.RACKFORM_PG_BIN;
  if (explicit) {
    if (!has(explicit)) throw new Error(`RACKFORM_PG_BIN=${explicit} lacks initdb, pg_ctl or psql. ${MISSING}`);
    return explicit;
  }
  const debian = "/usr/lib/postgresql";
  const majors = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const m of majors) if (has(join(debian, m, "bin"))) return join(debian, m, "bin");
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && has(dir)) return dir;
  throw new Error(MISSING);
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file.split("/").pop()} ${args[0] ?? ""} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** initdb refuses to run as root, so as root the server runs as Debian's `postgres` user. */
function serverUser(): { uid: number; gid: number; prefix: string[] } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = execFileText("getent", ["passwd", "postgres"]);
  const [, , uid, gid] = passwd.split(":");
  if (!uid || !gid) throw new Error(`running as root needs the "postgres" user for initdb. ${MISSING}`);
  return { uid: Number(uid), gid: Number(gid), prefix: ["runuser", "-u", "postgres", "--"] };
}

function execFileText(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { encoding: "utf8" });
  } catch {
    return "";
  }
}

/** A running PostgreSQL server (serializable: global setup hands it to the test workers). */
export interface PostgresServer {
  readonly port: number;
  /** The superuser role tests connect as (password auth). */
  readonly user: string;
  readonly password: string;
  /** Directory of initdb, pg_ctl, psql. */
  readonly bin: string;
  /** Data and socket directory, removed by stop. */
  readonly dir: string;
}

/** Starts a fresh server with one password-protected superuser role; `stop` ends it and deletes its directory. */
export async function startPostgresServer(
  opts: { user?: string } = {},
): Promise<PostgresServer & { stop(): Promise<void> }> {
  const bin = postgresBinDir();
  const user = opts.user ?? "rackform";
  const owner = serverUser();
  // Not in a test file's own TMPDIR (test/setup/tmpdir.ts): that is 0700 and owned by root, so the server's user could
  // not reach its data directory inside it. `stop` removes this directory.
  const dir = await mkdtemp(join(process.env.RACKFORM_OUTER_TMPDIR ?? tmpdir(), "rf-pg-"));
  const data = join(dir, "data");
  const password = randomBytes(18).toString("base64url");
  writeFileSync(join(dir, "pwfile"), `${password}\n`, { mode: 0o600 });
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(join(dir, "pwfile"), owner.uid, owner.gid);
  }
  chmodSync(dir, 0o700);
  const asServer = (tool: string, args: string[]) =>
    owner ? run(owner.prefix[0], [...owner.prefix.slice(1), join(bin, tool), ...args]) : run(join(bin, tool), args);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await asServer("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    await asServer("initdb", [
      "-D",
      data,
      "-U",
      user,
      `--pwfile=${join(dir, "pwfile")}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    const port = await freePort();
    // fsync off: the server lives for one test run; durability would only cost time on a shared 2-core machine.
    const serverOpts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off`;
    await asServer("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", serverOpts, "start"]);
    return { port, user, password, bin, dir, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Creates a fresh database on `server` for one test file; `stop` drops it (the server stays for other files). */
export async function openDatabase(server: PostgresServer, database: string): Promise<Postgres> {
  const { bin, port, user, password } = server;
  const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: "10" };
  const psql = (db: string, sql: string) =>
    run(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", db, "-XAtqc", sql], env);
  await psql("postgres", `CREATE DATABASE ${database}`);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= psql("postgres", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).then(
      () => undefined,
      () => undefined,
    );
    return stopped;
  };
  return {
    host: "127.0.0.1",
    port,
    user,
    database,
    password,
    connStr: `postgres://${user}@127.0.0.1:${port}/${database}?sslmode=disable`,
    query: async (sql) =>
      (await psql(database, sql))
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => l.split("|")),
    holdLock: (sql) =>
      holdLock(
        join(bin, "psql"),
        ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", database, "-XAtq"],
        env,
        sql,
      ),
    stop,
  };
}

/** A server of its own with one database (for a run without the global setup); `stop` ends the server. */
export async function startPostgres(opts: { database?: string; user?: string } = {}): Promise<Postgres> {
  const server = await startPostgresServer(opts);
  try {
    const db = await openDatabase(server, opts.database ?? "rackform");
    return { ...db, stop: () => db.stop().then(() => server.stop()) };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

function holdLock(psql: string, args: string[], env: NodeJS.ProcessEnv, sql: string): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const child = spawn(psql, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    const ended = new Promise<void>((r) => child.once("close", () => r()));
    const release = async () => {
      child.stdin.end();
      await ended;
    };
    child.stdout.on("data", (d) => {
      out += d;
      if (/^t$/m.test(out)) resolve(release);
      else if (/^f$/m.test(out)) release().then(() => reject(new Error(`lock not granted: ${sql}`)));
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.once("error", reject);
    child.once("close", (code) => reject(new Error(`psql ended (exit ${code}) before the lock was taken: ${out}`)));
    child.stdin.write(`${sql};\n`);
  });
}
