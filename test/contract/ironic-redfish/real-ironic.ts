/**
 * Starts Debian's real Ironic 21.4 (ironic-api + ironic-conductor) with the redfish hardware type on 127.0.0.1, in its
 * own state directory and on its own free ports, so it never meets the fake-hardware Ironic of scripts/ironic-lab.sh
 * (6385) or the parity test (16385). Written here rather than in that script because the script's conf is
 * fake-hardware only. Processes are session leaders and are stopped by their own pids.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

/** A running real Ironic. */
export interface RealIronic {
  /** http://127.0.0.1:PORT (no /v1). */
  readonly url: string;
  readonly dir: string;
  /** Last lines of the conductor's and API's logs, for failure messages. */
  logTail(lines?: number): string;
  /** Stops both processes (their whole process groups) and waits until they are gone. */
  stop(): Promise<void>;
}

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
enabled_hardware_types = redfish
enabled_bios_interfaces = no-bios
enabled_boot_interfaces = redfish-virtual-media
enabled_console_interfaces = no-console
enabled_deploy_interfaces = direct
enabled_inspect_interfaces = redfish
enabled_management_interfaces = redfish
enabled_network_interfaces = noop
enabled_power_interfaces = redfish
enabled_raid_interfaces = no-raid
enabled_rescue_interfaces = no-rescue
enabled_storage_interfaces = noop
enabled_vendor_interfaces = no-vendor
default_network_interface = noop

[api]
host_ip = 127.0.0.1
port = ${port}
api_workers = 1

[conductor]
automated_clean = false
heartbeat_interval = 5
sync_power_state_interval = -1
power_state_change_timeout = 30

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

/** Starts Ironic; rejects with the logs' tails when a binary is missing, exits, or the API never lists a driver. */
export async function startRealIronic(dir: string, timeoutMs = 120_000): Promise<RealIronic> {
  for (const bin of ["ironic-api", "ironic-conductor", "ironic-dbsync"]) {
    if (spawnSync("sh", ["-c", `command -v ${bin}`]).status !== 0) {
      throw new Error(
        `${bin} is not installed: install Debian's Ironic (apt-get install -y ironic-api ironic-conductor) to run this test`,
      );
    }
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
  const logTail = (n = 30) =>
    [
      tail(join(dir, "log/ironic-conductor.log"), n),
      tail(join(dir, "log/conductor.out"), 10),
      tail(join(dir, "log/ironic-api.log"), 10),
      tail(join(dir, "log/api.out"), 10),
    ].join("\n");
  const stop = async () => {
    await Promise.all(
      procs.map(async (p) => {
        if (p.pid === undefined || p.exitCode !== null || p.signalCode !== null) return;
        const gone = new Promise((r) => p.once("exit", r));
        try {
          process.kill(-p.pid, "SIGTERM");
        } catch {
          return;
        }
        const t = setTimeout(() => {
          try {
            if (p.pid !== undefined) process.kill(-p.pid, "SIGKILL");
          } catch {}
        }, 5_000);
        await gone;
        clearTimeout(t);
      }),
    );
  };
  // requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override a Session's own `verify` (psf/requests#3829), so a
  // conductor started with them ignores redfish_verify_ca and fails the lab's TLS with CERTIFICATE_VERIFY_FAILED.
  const env = { ...process.env };
  delete env.REQUESTS_CA_BUNDLE;
  delete env.CURL_CA_BUNDLE;
  for (const name of ["conductor", "api"] as const) {
    const out = join(dir, `log/${name}.out`);
    const fd = openSync(out, "a");
    procs.push(spawn(`ironic-${name}`, ["--config-file", file], { detached: true, env, stdio: ["ignore", fd, fd] }));
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = procs.find((p) => p.exitCode !== null || p.signalCode !== null);
    if (dead) {
      await stop();
      throw new Error(
        `ironic-${dead.spawnargs[0]} exited (${dead.exitCode ?? dead.signalCode}) while starting:\n${logTail()}`,
      );
    }
    try {
      const r = await fetch(`${url}/v1/drivers`, { headers: { "X-OpenStack-Ironic-API-Version": "1.31" } });
      if (r.ok && ((await r.json()) as { drivers: { name: string }[] }).drivers.some((d) => d.name === "redfish")) {
        return { url, dir, logTail, stop };
      }
    } catch {
      // not answering yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`real Ironic did not list the redfish driver at ${url} within ${timeoutMs} ms:\n${logTail()}`);
}
