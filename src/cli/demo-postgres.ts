/**
 * The demo's own PostgreSQL for examples whose stacks keep their state in the pg backend (fleet-rollout): initdb in a
 * temp dir, listening on 127.0.0.1 at a free port with password (scram) auth, one database; stopped and deleted after.
 * Debian's server binaries (/usr/lib/postgresql/<major>/bin) are found off PATH; missing ones fail with one line naming
 * what to install.
 */
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running server with one database for the demo's state. */
export interface DemoPostgres {
  /** The connection string without the password (RACKFORM_PG_CONN_STR); the engine reads PGPASSWORD. */
  readonly connStr: string;
  /** The role's password: passed as PGPASSWORD, never printed. */
  readonly password: string;
  /** Stops the server and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** The one line a demo without PostgreSQL fails with. */
export const POSTGRES_MISSING =
  "this example keeps its state in PostgreSQL and its server binaries (initdb, pg_ctl, psql) were not found: install " +
  "Debian's postgresql package (apt-get install postgresql, or scripts/setup.sh --tests) or set RACKFORM_PG_BIN";

/** The directory holding initdb, pg_ctl and psql: RACKFORM_PG_BIN, the newest Debian major, or PATH. */
export function postgresBin(env: NodeJS.ProcessEnv = process.env): string {
  const has = (dir: string) => ["initdb", "pg_ctl", "psql"].every((b) => existsSync(join(dir, b)));
  if (env.RACKFORM_PG_BIN) {
    if (has(env.RACKFORM_PG_BIN)) return env.RACKFORM_PG_BIN;
    throw new Error(POSTGRES_MISSING);
  }
  const debian = "/usr/lib/postgresql";
  const majors = existsSync(debian) ? readdirSync(debian).filter((v) => /^\d+$/.test(v)) : [];
  for (const m of majors.sort((a, b) => Number(b) - Number(a)))
    if (has(join(debian, m, "bin"))) return join(debian, m, "bin");
  for (const dir of (env.PATH ?? "").split(":")) if (dir && has(dir)) return dir;
  throw new Error(POSTGRES_MISSING);
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

/** initdb refuses to run as root, so as root the server runs as Debian's `postgres` user (runuser). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let passwd = "";
  try {
    passwd = execFileSync("getent", ["passwd", "postgres"], { encoding: "utf8" });
  } catch {}
  const [, , uid, gid] = passwd.split(":");
  if (!uid || !gid) throw new Error(`running as root needs Debian's "postgres" user; ${POSTGRES_MISSING}`);
  return { uid: Number(uid), gid: Number(gid) };
}

/** Starts the server (fsync off: it lives for one demo) and creates database `rackform`. */
export async function startDemoPostgres(): Promise<DemoPostgres> {
  const bin = postgresBin();
  const owner = serverUser();
  const user = "rackform";
  // Under the system temp dir (world-traversable), not the demo dir: as root the server's user must reach it.
  const dir = await mkdtemp(join(process.env.RACKFORM_OUTER_TMPDIR ?? tmpdir(), "rf-demo-pg-"));
  const data = join(dir, "data");
  const password = randomBytes(18).toString("base64url");
  writeFileSync(join(dir, "pwfile"), `${password}\n`, { mode: 0o600 });
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(join(dir, "pwfile"), owner.uid, owner.gid);
  }
  chmodSync(dir, 0o700);
  const asServer = (tool: string, args: string[]) =>
    owner ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args]) : run(join(bin, tool), args);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await asServer("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    const pw = `--pwfile=${join(dir, "pwfile")}`;
    await asServer("initdb", ["-D", data, "-U", user, pw, "--auth=scram-sha-256", "--locale=C", "--no-sync"]);
    const port = await freePort();
    const serverOpts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off`;
    await asServer("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", serverOpts, "start"]);
    const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: "10" };
    const psql = ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", "postgres", "-XAtqc"];
    await run(join(bin, "psql"), [...psql, "CREATE DATABASE rackform"], env);
    return { connStr: `postgres://${user}@127.0.0.1:${port}/rackform?sslmode=disable`, password, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
