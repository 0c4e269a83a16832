/**
 * Debian's real Slurm 22.05 on 127.0.0.1, in one temp directory: munged (its own key and socket), slurmctld with a
 * generated slurm.conf (free ports, StateSaveLocation, spool, pid and log files all in the directory), slurmrestd with
 * rest_auth/jwt (slurmctld has AuthAltTypes=auth/jwt and a generated key; the token comes from `scontrol token`).
 * SlurmUser is root (the simplest on this machine; the tests run as root); slurmrestd refuses root and runs as nobody.
 * Started once per run by test/setup/slurm.ts. Real slurmd daemons are started by the tests that need them
 * (`startSlurmd`): Debian's build runs several on one host (`slurmd -N <node>`, each node its own Port), so every
 * node a test joins has a real slurmd; a node whose slurmd is never started stays UNKNOWN+NOT_RESPONDING, one whose
 * slurmd stops goes DOWN "Not responding" after SlurmdTimeout, both managed by slurmctld itself.
 * The binaries are installed by scripts/setup.sh; a missing one is a failure with a message, never a skip.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixedPort } from "./ports.js";
import { until } from "./until.js";

export const SLURM_BINARIES = ["slurmctld", "slurmd", "slurmrestd", "munged", "scontrol", "sbatch"] as const;

/** slurmctld sets a node whose slurmd stops answering DOWN after this many seconds (plus its ping cycle). */
export const SLURMD_TIMEOUT_S = 5;

/** The nodes slurm.conf lists, by who uses them (names are unique across the run: both e2e engines share it). */
export const REAL_SLURM_NODES = {
  /** test/contract/slurm: real slurmds; ct-ghost never gets one. */
  contract: ["ct-n1", "ct-n2", "ct-n3", "ct-ghost"],
  /** test/e2e/slurm-real.test.ts under Terraform: the lab's r01 rack. */
  "e2e-terraform": Array.from({ length: 8 }, (_, i) => `r01-n0${i + 1}`),
  /** …under OpenTofu: the lab's r02 rack. */
  "e2e-tofu": Array.from({ length: 8 }, (_, i) => `r02-n0${i + 1}`),
} as const;

/** Features slurm.conf gives a node: what rackform_cluster_member sets (22.05's REST API cannot set them). */
export const featuresOf = (node: string): string[] => (node.startsWith("ct-") ? ["base"] : ["h100"]);

/** Where the real Slurm answers; passed to the test workers by vitest's provide. */
export interface RealSlurmInfo {
  /** slurmrestd, http://127.0.0.1:PORT. */
  readonly url: string;
  /** The Slurm user of the token (root: slurmctld's SlurmUser, an administrator). */
  readonly user: string;
  /** A JWT from `scontrol token` (a secret: never printed). */
  readonly token: string;
  /** The temp directory: slurm.conf, keys, state, spool, logs. */
  readonly dir: string;
  /** Path of slurm.conf (SLURM_CONF for scontrol, sbatch and slurmd). */
  readonly conf: string;
  /** Node name → its slurmd port. */
  readonly ports: Readonly<Record<string, number>>;
}

/** A running real Slurm. */
export interface RealSlurm {
  readonly info: RealSlurmInfo;
  /** Stops slurmrestd, every slurmd started in the directory, slurmctld and munged; waits until they are gone. */
  stop(): Promise<void>;
}

/** Names of the Slurm binaries that are not installed. */
export function missingSlurmBinaries(): string[] {
  return SLURM_BINARIES.filter((bin) => spawnSync("sh", ["-c", `command -v ${bin}`]).status !== 0);
}

/** The environment of a Slurm command against this instance. */
export const slurmEnv = (info: Pick<RealSlurmInfo, "conf">): NodeJS.ProcessEnv => ({
  ...process.env,
  SLURM_CONF: info.conf,
});

/** Runs scontrol (or another Slurm command) against this instance; throws with its output when it fails. */
export function slurmCmd(info: Pick<RealSlurmInfo, "conf">, cmd: string, args: readonly string[]): string {
  const r = spawnSync(cmd, args, { env: slurmEnv(info), encoding: "utf8", timeout: 30_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function conf(dir: string, ctldPort: number, slurmdPort: number, ports: Record<string, number>): string {
  const nodes = Object.entries(ports).map(
    ([name, port]) =>
      `NodeName=${name} NodeHostname=localhost NodeAddr=127.0.0.1 Port=${port} CPUs=1 RealMemory=100 Feature=${featuresOf(name).join(",")}`,
  );
  return `ClusterName=rflab
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=${ctldPort}
SlurmdPort=${slurmdPort}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=${dir}/munge/munge.sock
CredType=cred/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=${dir}/jwt.key
StateSaveLocation=${dir}/state
SlurmdSpoolDir=${dir}/spool/%n
SlurmctldPidFile=${dir}/slurmctld.pid
SlurmdPidFile=${dir}/run/slurmd-%n.pid
SlurmctldLogFile=${dir}/log/slurmctld.log
SlurmdLogFile=${dir}/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdTimeout=${SLURMD_TIMEOUT_S}
SlurmctldTimeout=10
# A ping to a stopped slurmd gives up within MessageTimeout: short, so DOWN follows SlurmdTimeout closely.
MessageTimeout=3
ReturnToService=2
MaxNodeCount=64
${nodes.join("\n")}
PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`;
}

/** A process started detached (its own group), its output appended to `log`. */
function daemon(cmd: string, args: readonly string[], log: string, env: NodeJS.ProcessEnv): ChildProcess {
  const fd = openSync(log, "a");
  const p = spawn(cmd, args, { detached: true, env, stdio: ["ignore", fd, fd] });
  p.on("error", () => undefined);
  return p;
}

/** True while `pid` runs (a zombie our own parent has not reaped yet counts as gone). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** SIGTERM to the process group of `pid` (slurmd's slurmstepd go with it), SIGKILL after 5 s; resolves once it is gone. */
async function stopPid(pid: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      try {
        process.kill(pid, s);
      } catch {}
    }
  };
  if (!running(pid)) return;
  signal("SIGTERM");
  const t0 = Date.now();
  while (running(pid)) {
    if (Date.now() - t0 > 5_000) signal("SIGKILL");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Last lines of the daemons' logs, for failure messages (no secrets: the token is never logged). */
export function slurmLogTail(dir: string, n = 20): string {
  const logs = existsSync(join(dir, "log")) ? readdirSync(join(dir, "log")) : [];
  return logs
    .map(
      (f) =>
        `--- ${f}\n${readFileSync(join(dir, "log", f), "utf8")
          .split("\n")
          .slice(-n)
          .join("\n")}`,
    )
    .join("\n");
}

/** A real slurmd for one node slurm.conf lists (`slurmd -D -N <node>`), or a dynamic node (`-Z`, not in slurm.conf). */
export interface RealSlurmd {
  readonly node: string;
  /** Stops the slurmd (and any slurmstepd it started): the node stops answering slurmctld's pings. */
  stop(): Promise<void>;
}

/** Starts slurmd for `node`; its pid is kept in <dir>/run so that the global teardown stops a forgotten one. */
export function startSlurmd(info: RealSlurmInfo, node: string, opts: { dynamic?: boolean } = {}): RealSlurmd {
  mkdirSync(join(info.dir, "spool", node), { recursive: true });
  const args = ["-D", "-N", node];
  // A dynamic node (22.05: slurmd -Z) registers itself with its own configuration, on SlurmdPort.
  if (opts.dynamic) args.push("-Z", "--conf", "CPUs=1 RealMemory=100 Feature=dyn");
  const p = daemon("slurmd", args, join(info.dir, "log", `slurmd-${node}.out`), slurmEnv(info));
  if (p.pid !== undefined) writeFileSync(join(info.dir, "run", `started-${node}.pid`), String(p.pid));
  return {
    node,
    stop: async () => {
      if (p.pid !== undefined) await stopPid(p.pid);
    },
  };
}

/** Starts munged, slurmctld and slurmrestd in `dir` (created by the caller) and resolves once slurmrestd answers. */
export async function launchRealSlurm(dir: string, dynamicNodes: readonly string[] = []): Promise<RealSlurm> {
  const missing = missingSlurmBinaries();
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(", ")} not installed: scripts/setup.sh --tests installs Debian's slurmctld, slurmd, slurmrestd and munge (npm test runs it)`,
    );
  }
  // slurmrestd runs as nobody: it must read slurm.conf and reach munged's socket; the keys stay root's.
  chmodSync(dir, 0o755);
  for (const d of ["munge", "state", "spool", "run", "log"]) mkdirSync(join(dir, d), { recursive: true });
  chmodSync(join(dir, "munge"), 0o711);
  writeFileSync(join(dir, "munge/munge.key"), randomBytes(1024), { mode: 0o400 });
  writeFileSync(join(dir, "jwt.key"), randomBytes(32), { mode: 0o600 });
  const ports: Record<string, number> = {};
  // Each slurmd binds its port when a test starts it, minutes later: below the ephemeral range (ports.ts).
  for (const n of [...Object.values(REAL_SLURM_NODES).flat(), ...dynamicNodes]) ports[n] = await fixedPort();
  const [ctldPort, restPort] = [await fixedPort(), await fixedPort()];
  const file = join(dir, "slurm.conf");
  const listed = Object.fromEntries(Object.entries(ports).filter(([n]) => !dynamicNodes.includes(n)));
  // A dynamic slurmd may not name its port (--conf refuses Port=): it takes SlurmdPort, one dynamic node at a time.
  const dynPort = dynamicNodes.length > 0 ? ports[dynamicNodes[0]] : await fixedPort();
  writeFileSync(file, conf(dir, ctldPort, dynPort, listed), { mode: 0o644 });
  const env = { ...process.env, SLURM_CONF: file };
  const procs: ChildProcess[] = [];
  const stop = async () => {
    for (const f of readdirSync(join(dir, "run")).filter((x) => x.startsWith("started-"))) {
      await stopPid(Number(readFileSync(join(dir, "run", f), "utf8")));
    }
    for (const p of procs.reverse()) if (p.pid !== undefined) await stopPid(p.pid);
  };
  try {
    const m = join(dir, "munge");
    procs.push(
      daemon(
        "munged",
        // Its log and seed files default to /var: named in the directory. -f: the temp folder is world-writable.
        ["-F", "-f", `--socket=${m}/munge.sock`, `--key-file=${m}/munge.key`, `--pid-file=${m}/munged.pid`].concat([
          `--log-file=${dir}/log/munged.log`,
          `--seed-file=${m}/munged.seed`,
          "--origin=127.0.0.1",
        ]),
        join(dir, "log/munged.out"),
        env,
      ),
    );
    await until(
      () => `munged socket (${slurmLogTail(dir)})`,
      () => existsSync(`${m}/munge.sock`),
      { timeoutMs: 15_000, everyMs: 100 },
    );
    procs.push(daemon("slurmctld", ["-D", "-i"], join(dir, "log/slurmctld.out"), env));
    await until(
      () => `slurmctld to answer scontrol ping:\n${slurmLogTail(dir)}`,
      () => spawnSync("scontrol", ["ping"], { env, encoding: "utf8" }).stdout.includes("is UP"),
      { timeoutMs: 30_000, everyMs: 200 },
    );
    const out = spawnSync("scontrol", ["token", "username=root", "lifespan=86400"], { env, encoding: "utf8" });
    const token = /SLURM_JWT=(\S+)/.exec(out.stdout ?? "")?.[1];
    if (out.status !== 0 || !token) throw new Error(`scontrol token failed (${out.status}): ${out.stderr}`);
    const rest = daemon(
      "slurmrestd",
      [
        "-u",
        "nobody",
        "-g",
        "nogroup",
        "-a",
        "rest_auth/jwt",
        "-s",
        "openapi/v0.0.36,openapi/v0.0.37,openapi/v0.0.38",
      ].concat([`127.0.0.1:${restPort}`]),
      join(dir, "log/slurmrestd.out"),
      { ...env, SLURM_JWT: "daemon" },
    );
    procs.push(rest);
    const url = `http://127.0.0.1:${restPort}`;
    await until(
      () => `slurmrestd to serve ${url}/openapi/v3:\n${slurmLogTail(dir)}`,
      async () => {
        try {
          const r = await fetch(`${url}/openapi/v3`, {
            headers: { "X-SLURM-USER-NAME": "root", "X-SLURM-USER-TOKEN": token },
            signal: AbortSignal.timeout(2_000),
          });
          return r.status === 200;
        } catch {
          return false;
        }
      },
      { timeoutMs: 30_000, everyMs: 200 },
    );
    return { info: { url, user: "root", token, dir, conf: file, ports }, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
