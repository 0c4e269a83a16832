/**
 * Debian's real Ironic 21.4 (ironic-api + ironic-conductor, noauth, sqlite, json-rpc) on 127.0.0.1, on free ports and
 * in its own state directory. One instance serves every contract test that needs a real Ironic: it enables both the
 * fake-hardware type (IronicClient contract, lab parity) and the redfish type (the redfish driver against the lab's
 * BMCs). Started once per run by test/setup/ironic.ts; processes are session leaders, stopped by their own pids.
 * The binaries are installed by scripts/setup.sh; a missing one is a failure with a message, never a skip.
 */

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { stopGroup } from "./process-group.js";
import { until } from "./until.js";

/** Where a running real Ironic answers, and where its logs are. */
export interface RealIronicInfo {
  /** http://127.0.0.1:PORT (no /v1). */
  readonly url: string;
  readonly dir: string;
}

/** A launched real Ironic. */
export interface RealIronic extends RealIronicInfo {
  /** Resolves once the API lists both drivers; rejects with the logs' tails when a process exits or time runs out. */
  readonly ready: Promise<void>;
  /** Stops both processes (their whole process groups) and waits until they are gone. */
  stop(): Promise<void>;
}

export const IRONIC_BINARIES = ["ironic-api", "ironic-conductor", "ironic-dbsync"] as const;

/** A free TCP port on 127.0.0.1 (bound and released at once). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

function conf(dir: string, port: number, rpcPort: number): string {
  return `[DEFAULT]
auth_strategy = noauth
rpc_transport = json-rpc
host = localhost
debug = false
log_dir = ${dir}/log
state_path = ${dir}/state
enabled_hardware_types = fake-hardware,redfish
enabled_bios_interfaces = fake,no-bios
enabled_boot_interfaces = fake,redfish-virtual-media
enabled_console_interfaces = fake,no-console
enabled_deploy_interfaces = fake,direct
enabled_inspect_interfaces = fake,redfish,no-inspect
enabled_management_interfaces = fake,redfish
enabled_network_interfaces = noop
enabled_power_interfaces = fake,redfish
enabled_raid_interfaces = fake,no-raid
enabled_rescue_interfaces = fake,no-rescue
enabled_storage_interfaces = noop,fake
enabled_vendor_interfaces = fake,no-vendor
default_network_interface = noop

[api]
host_ip = 127.0.0.1
port = ${port}
api_workers = 1

[conductor]
# fake-hardware nodes clean on provide (the parity scenario walks cleaning); the redfish test never provides.
automated_clean = true
heartbeat_interval = 5
sync_power_state_interval = -1
power_state_change_timeout = 30
# One lock attempt: a busy node answers 409 NodeLocked at once, so the client's own retry is exercised.
node_locked_retry_attempts = 1

[fake]
# The fake vendor passthru (first_method) holds the node lock this long: a deterministic window for a 409 NodeLocked.
vendor_delay = 2
# A fake deploy holds the node lock this long: the parity scenario's undeploy sent right after a deploy meets its 409
# on a loaded machine too (without it the lock lasted a few hundred ms, and a slow request could miss it).
deploy_delay = 1

[redfish]
# The lab BMC answers at once; fewer, shorter retries keep a failure quick and visible.
connection_attempts = 3
connection_retry_interval = 1

[database]
connection = sqlite:///${dir}/state/ironic.sqlite

[dhcp]
dhcp_provider = none

[json_rpc]
auth_strategy = noauth
host_ip = 127.0.0.1
port = ${rpcPort}
use_ssl = false

[oslo_concurrency]
lock_path = ${dir}/state/lock

[oslo_messaging_notifications]
driver = noop
`;
}

function tail(path: string, n: number): string {
  if (!existsSync(path)) return `(${path} absent)`;
  return `--- ${path}\n${readFileSync(path, "utf8").split("\n").slice(-n).join("\n")}`;
}

/** Last lines of the conductor's and API's logs, for failure messages. */
export function ironicLogTail(dir: string, n = 30): string {
  return [
    tail(join(dir, "log/ironic-conductor.log"), n),
    tail(join(dir, "log/conductor.out"), 10),
    tail(join(dir, "log/ironic-api.log"), 10),
    tail(join(dir, "log/api.out"), 10),
    existsSync(join(dir, "exited")) ? `--- exited: ${readFileSync(join(dir, "exited"), "utf8")}` : "",
  ].join("\n");
}

/** Throws with the install hint when a binary is missing. */
export function missingIronicBinaries(): string[] {
  return IRONIC_BINARIES.filter((bin) => spawnSync("sh", ["-c", `command -v ${bin}`]).status !== 0);
}

/** True when the API lists both the fake-hardware and the redfish driver. */
async function listsDrivers(url: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/v1/drivers`, {
      headers: { "X-OpenStack-Ironic-API-Version": "1.31" },
      signal: AbortSignal.timeout(2_000),
    });
    if (!r.ok) return false;
    const names = ((await r.json()) as { drivers: { name: string }[] }).drivers.map((d) => d.name);
    return names.includes("redfish") && names.includes("fake-hardware");
  } catch {
    return false;
  }
}

/**
 * Waits until the Ironic at `info` lists both drivers; fails with its logs when a process exited (the launcher
 * records that in `<dir>/exited`) or after `timeoutMs`.
 */
export async function waitForIronic(info: RealIronicInfo, timeoutMs = 180_000): Promise<void> {
  await until(
    () => `real Ironic to list its drivers at ${info.url} (${timeoutMs} ms):\n${ironicLogTail(info.dir)}`,
    async () => {
      if (existsSync(join(info.dir, "exited"))) {
        throw new Error(`real Ironic exited while starting:\n${ironicLogTail(info.dir)}`);
      }
      return listsDrivers(info.url);
    },
    { timeoutMs, everyMs: 300 },
  );
}

/** Creates the schema and starts both processes; does not wait for them (see `ready`). */
export function launchRealIronic(dir: string): Promise<RealIronic> {
  return (async () => {
    const missing = missingIronicBinaries();
    if (missing.length > 0) {
      throw new Error(
        `${missing.join(", ")} not installed: scripts/setup.sh installs Debian's ironic-api and ironic-conductor (npm test runs it)`,
      );
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "state/lock"), { recursive: true });
    mkdirSync(join(dir, "log"), { recursive: true });
    const [port, rpcPort] = [await freePort(), await freePort()];
    const file = join(dir, "ironic.conf");
    writeFileSync(file, conf(dir, port, rpcPort));
    const sync = spawnSync("ironic-dbsync", ["--config-file", file, "create_schema"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    if (sync.status !== 0) throw new Error(`ironic-dbsync failed:\n${sync.stdout}${sync.stderr}`);
    const url = `http://127.0.0.1:${port}`;
    const procs: ChildProcess[] = [];
    let stopping = false;
    // requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override a Session's own `verify` (psf/requests#3829), so a
    // conductor started with them ignores redfish_verify_ca and fails the lab's TLS with CERTIFICATE_VERIFY_FAILED.
    const env = { ...process.env };
    delete env.REQUESTS_CA_BUNDLE;
    delete env.CURL_CA_BUNDLE;
    for (const name of ["conductor", "api"] as const) {
      const fd = openSync(join(dir, `log/${name}.out`), "a");
      const p = spawn(`ironic-${name}`, ["--config-file", file], { detached: true, env, stdio: ["ignore", fd, fd] });
      p.once("exit", (code, signal) => {
        if (!stopping) writeFileSync(join(dir, "exited"), `ironic-${name} exited (${code ?? signal})\n`, { flag: "a" });
      });
      procs.push(p);
    }
    const stop = async () => {
      stopping = true;
      await Promise.all(procs.map((p) => stopGroup(p)));
    };
    const info = { url, dir };
    const ready = waitForIronic(info);
    ready.catch(() => undefined); // observed by whoever awaits it; never an unhandled rejection here
    return { ...info, ready, stop };
  })();
}
