/**
 * sushy-tools' Redfish emulator (PyPI `sushy-tools`, pinned in test/contract/requirements.txt) on 127.0.0.1: a second
 * Redfish server nobody here wrote, with its fake system driver (systems held in a sqlite file, no libvirt), HTTPS with
 * a throw-away test CA and HTTP Basic auth from an htpasswd file (bcrypt, the only digest it accepts). Started once per
 * run by test/setup/sushy-emulator.ts; everything it writes lives in its own folder, removed at teardown.
 * The binary is installed by scripts/setup.sh; a missing one is a failure with a message, never a skip.
 */

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, fetch as undiciFetch } from "undici";
import { makeTestPki } from "./clients/tls.js";
import { stopGroup } from "./process-group.js";
import { freePort } from "./real-ironic.js";
import { until } from "./until.js";

/** One fake system the emulator serves; each contract file works on its own, so files may run in parallel. */
export interface SushySystem {
  readonly uuid: string;
  readonly name: string;
  readonly powerState: "On" | "Off";
  readonly macs: readonly string[];
  /** One Storage with one drive of this size, when set. */
  readonly driveBytes?: number;
}

/** The systems of the run, by the test that uses each. */
export const SUSHY_SYSTEMS = {
  /** client.test.ts: discovery, auth, inventory (two NICs and a drive). */
  inventory: {
    uuid: "0a0b6a1e-32a0-4c4f-9a6b-000000000001",
    name: "rf-inventory",
    powerState: "Off",
    macs: ["52:54:00:aa:00:01", "52:54:00:aa:00:02"],
    driveBytes: 960_197_124_096,
  },
  /** power-boot.test.ts: power transitions and resets. */
  power: {
    uuid: "0a0b6a1e-32a0-4c4f-9a6b-000000000002",
    name: "rf-power",
    powerState: "Off",
    macs: ["52:54:00:aa:00:03"],
  },
  /** power-boot.test.ts: boot overrides. */
  boot: {
    uuid: "0a0b6a1e-32a0-4c4f-9a6b-000000000003",
    name: "rf-boot",
    powerState: "On",
    macs: ["52:54:00:aa:00:04"],
  },
  /** bmc-resource.test.ts: rackform_bmc through the provider server. */
  bmc: {
    uuid: "0a0b6a1e-32a0-4c4f-9a6b-000000000004",
    name: "rf-bmc",
    powerState: "On",
    macs: ["52:54:00:aa:00:05", "52:54:00:aa:00:06"],
    driveBytes: 480_103_981_056,
  },
} as const satisfies Record<string, SushySystem>;

/** Where the running emulator answers, and how to reach it (handed to the test files by `inject`). */
export interface SushyEmulatorInfo {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  readonly dir: string;
  /** PEM of the CA that signed the emulator's certificate, and its file (the provider's redfish.ca_file). */
  readonly caPem: string;
  readonly caFile: string;
  /** A CA that did not sign it (for the refusal test). */
  readonly otherCaPem: string;
  readonly username: string;
  /** Generated for the run; never printed. */
  readonly password: string;
  /** `pip show sushy-tools` version. */
  readonly version: string;
}

/** A launched emulator. */
export interface SushyEmulator extends SushyEmulatorInfo {
  /** Resolves once the service root answers over TLS; rejects with the log's tail when it exits or time runs out. */
  readonly ready: Promise<void>;
  /** Stops the process group and waits until it is gone. */
  stop(): Promise<void>;
}

const py = (v: string) => JSON.stringify(v);

/** The emulator's configuration file (Python): fake driver, loopback, TLS, auth file, state in `dir`. */
function config(dir: string, port: number, tlsDir: string): string {
  const systems = Object.values(SUSHY_SYSTEMS) as readonly SushySystem[];
  const fake = systems.map(
    (s) =>
      `  {'uuid': ${py(s.uuid)}, 'name': ${py(s.name)}, 'power_state': ${py(s.powerState)}, ` +
      `'nics': [${s.macs.map((m) => `{'mac': ${py(m)}}`).join(", ")}]},`,
  );
  const withDrive = systems.filter((s) => s.driveBytes !== undefined);
  const storage = withDrive.map(
    (s) =>
      `  ${py(s.uuid)}: [{'Id': '1', 'Name': 'Local Storage Controller', ` +
      `'StorageControllers': [{'MemberId': '0', 'Name': 'Integrated RAID', 'SpeedGbps': 12}], 'Drives': ['disk0']}],`,
  );
  const drives = withDrive.map(
    (s) =>
      `  (${py(s.uuid)}, '1'): [{'Id': 'disk0', 'Name': 'Boot disk', 'CapacityBytes': ${s.driveBytes}, 'Protocol': 'SATA'}],`,
  );
  return `# Written by test/support/real-sushy.ts for one test run.
SUSHY_EMULATOR_LISTEN_IP = '127.0.0.1'
SUSHY_EMULATOR_LISTEN_PORT = ${port}
SUSHY_EMULATOR_SSL_CERT = ${py(`${tlsDir}/server.pem`)}
SUSHY_EMULATOR_SSL_KEY = ${py(`${tlsDir}/server.key`)}
SUSHY_EMULATOR_AUTH_FILE = ${py(`${dir}/htpasswd`)}
SUSHY_EMULATOR_STATE_DIR = ${py(`${dir}/state`)}
SUSHY_EMULATOR_FAKE_DRIVER = True
SUSHY_EMULATOR_FAKE_SYSTEMS = [
${fake.join("\n")}
]
SUSHY_EMULATOR_STORAGE = {
${storage.join("\n")}
}
SUSHY_EMULATOR_DRIVES = {
${drives.join("\n")}
}
`;
}

/** The installed sushy-tools version, or undefined when it is not installed. */
export function sushyToolsVersion(): string | undefined {
  const r = spawnSync("python3", ["-c", "import importlib.metadata as m; print(m.version('sushy-tools'))"], {
    encoding: "utf8",
  });
  const has = spawnSync("sh", ["-c", "command -v sushy-emulator"]).status === 0;
  return r.status === 0 && has ? r.stdout.trim() : undefined;
}

/** The last lines of the emulator's log, for failure messages. */
export function sushyLogTail(dir: string, n = 30): string {
  const f = `${dir}/emulator.log`;
  if (!existsSync(f)) return `(${f} absent)`;
  return `--- ${f}\n${readFileSync(f, "utf8").split("\n").slice(-n).join("\n")}`;
}

/** An htpasswd line with a bcrypt digest; the password goes to python on stdin, never on a command line. */
function htpasswdLine(username: string, password: string): string {
  const r = spawnSync(
    "python3",
    ["-c", "import bcrypt,sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(rounds=4)).decode())"],
    { input: password, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`python3 bcrypt (a sushy-tools dependency) failed: ${r.stderr.trim()}`);
  return `${username}:${r.stdout.trim()}\n`;
}

/** Waits until the service root answers over TLS verified against the test CA. */
export async function waitForSushy(info: SushyEmulatorInfo, timeoutMs = 60_000): Promise<void> {
  const dispatcher = new Agent({ connect: { ca: info.caPem } });
  try {
    await until(
      () => `sushy-emulator to answer at ${info.url} (${timeoutMs} ms):\n${sushyLogTail(info.dir)}`,
      async () => {
        if (existsSync(`${info.dir}/exited`)) throw new Error(`sushy-emulator exited:\n${sushyLogTail(info.dir)}`);
        try {
          const r = await undiciFetch(`${info.url}/redfish/v1/`, { dispatcher, signal: AbortSignal.timeout(2_000) });
          return r.ok;
        } catch {
          return false;
        }
      },
      { timeoutMs, everyMs: 200 },
    );
  } finally {
    await dispatcher.close();
  }
}

/** Writes the PKI, htpasswd and configuration into `dir` and starts the emulator; does not wait (see `ready`). */
export async function launchSushyEmulator(dir: string): Promise<SushyEmulator> {
  const version = sushyToolsVersion();
  if (!version) {
    throw new Error(
      "sushy-tools (sushy-emulator) is not installed: scripts/setup.sh installs test/contract/requirements.txt (npm test runs it)",
    );
  }
  mkdirSync(`${dir}/state`, { recursive: true });
  mkdirSync(`${dir}/tmp`, { recursive: true });
  const pki = makeTestPki(dir);
  const username = "rackform";
  const password = randomBytes(18).toString("base64url");
  writeFileSync(`${dir}/htpasswd`, htpasswdLine(username, password), { mode: 0o600 });
  const port = await freePort();
  writeFileSync(`${dir}/emulator.conf`, config(dir, port, pki.dir));
  const fd = openSync(`${dir}/emulator.log`, "a");
  // TMPDIR in its folder: Python's tempfile (virtual media, the state default) then writes nothing to /tmp.
  const env = { ...process.env, TMPDIR: `${dir}/tmp`, PYTHONUNBUFFERED: "1" };
  let stopping = false;
  const p: ChildProcess = spawn("sushy-emulator", ["--config", `${dir}/emulator.conf`], {
    detached: true,
    env,
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd); // the child holds its own copy
  p.once("exit", (code, signal) => {
    if (!stopping) writeFileSync(`${dir}/exited`, `sushy-emulator exited (${code ?? signal})\n`, { flag: "a" });
  });
  const stop = async () => {
    stopping = true;
    await stopGroup(p);
  };
  const info: SushyEmulatorInfo = {
    url: `https://127.0.0.1:${port}`,
    dir,
    caPem: pki.caPem,
    caFile: pki.caFile,
    otherCaPem: pki.otherCaPem,
    username,
    password,
    version,
  };
  const ready = waitForSushy(info);
  ready.catch(() => undefined); // observed by whoever awaits it
  return { ...info, ready, stop };
}
