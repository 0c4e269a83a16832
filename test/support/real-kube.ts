/**
 * A real kube-apiserver and the etcd it stores in, on 127.0.0.1, both built from the Go module proxy by
 * scripts/build-kube.sh (cached in ~/.cache/rackform). No kubelet, no kube-controller-manager, no scheduler: Nodes are
 * registered through the API, pods are bound by `spec.nodeName` and stay Pending unless a test writes their status,
 * and a PodDisruptionBudget's status is whatever a test writes in place of the disruption controller. What the API
 * server does by itself (admission, validation, RBAC, the Eviction API's PDB check, resourceVersion conflicts) is the
 * real thing.
 * Serving: HTTPS with the test CA's certificate for 127.0.0.1. Auth: a static token file (`--token-auth-file`) with
 * an admin token (group system:masters) and a reader token; authorization `--authorization-mode=RBAC` (the reader is
 * bound to a ClusterRole that may only get and list nodes and pods).
 * Started once per run by test/setup/kube.ts without waiting; each test file awaits `waitForKube`.
 * A missing binary is a failure with a message, never a skip.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { makeTestPki } from "./clients/tls.js";
import { stopGroup } from "./process-group.js";
import { freePort } from "./real-ironic.js";
import { until } from "./until.js";

export const KUBE_VERSION = process.env.KUBE_VERSION ?? "v1.37.2";
export const ETCD_VERSION = process.env.ETCD_VERSION ?? "v3.6.16";

/** The binaries scripts/build-kube.sh builds (RACKFORM_KUBE_APISERVER / RACKFORM_ETCD name others). */
export function kubeBinaries(): { readonly apiserver: string; readonly etcd: string } {
  const cache = process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform");
  return {
    apiserver: process.env.RACKFORM_KUBE_APISERVER ?? join(cache, `kube-${KUBE_VERSION}`, "kube-apiserver"),
    etcd: process.env.RACKFORM_ETCD ?? join(cache, `etcd-${ETCD_VERSION}`, "etcd"),
  };
}

/** Where the real API server answers (handed to the test files by `inject`). */
export interface RealKubeInfo {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  readonly dir: string;
  /** PEM of the CA that signed the serving certificate. */
  readonly caPem: string;
  /** A token of group system:masters (a secret: never printed). */
  readonly adminToken: string;
  /** A token whose user may only get and list nodes and pods (RBAC). */
  readonly readerToken: string;
  /** The reader's user name (bound by `waitForKube`). */
  readonly readerUser: string;
  /** What `kube-apiserver --version` and `etcd --version` print. */
  readonly versions: string;
}

/** A launched API server. */
export interface RealKube {
  readonly info: RealKubeInfo;
  /** Stops the API server, then etcd; resolves once both are gone. */
  stop(): Promise<void>;
}

/** The last lines of both logs, for failure messages (no secrets: the tokens are only in tokens.csv). */
export function kubeLogTail(dir: string, n = 25): string {
  return ["etcd.log", "kube-apiserver.log"]
    .map((f) => join(dir, f))
    .map((f) =>
      existsSync(f) ? `--- ${f}\n${readFileSync(f, "utf8").split("\n").slice(-n).join("\n")}` : `(${f} absent)`,
    )
    .join("\n");
}

function start(cmd: string, args: readonly string[], log: string, dir: string, name: string): ChildProcess {
  const fd = openSync(log, "a");
  const p = spawn(cmd, args, { detached: true, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  p.on("error", (e) => writeFileSync(join(dir, "exited"), `${name}: ${e.message}\n`, { flag: "a" }));
  p.once("exit", (code, signal) => {
    if (!existsSync(join(dir, "stopping")))
      writeFileSync(join(dir, "exited"), `${name} exited (${code ?? signal})\n`, { flag: "a" });
  });
  return p;
}

function versionOf(bin: string): string {
  const r = spawnSync(bin, ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim().split("\n")[0] : "";
}

/** Starts etcd and kube-apiserver in `dir` (created by the caller); does not wait for them (see waitForKube). */
export async function launchRealKube(dir: string): Promise<RealKube> {
  const bin = kubeBinaries();
  const missing = [bin.apiserver, bin.etcd].filter((b) => !existsSync(b));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(", ")} not built: scripts/build-kube.sh builds kube-apiserver ${KUBE_VERSION} and etcd ${ETCD_VERSION} from the Go module proxy`,
    );
  }
  const versions = `kube-apiserver ${versionOf(bin.apiserver)}; etcd ${versionOf(bin.etcd)}`;
  const pki = makeTestPki(dir);
  const sa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(join(dir, "sa.key"), sa.privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  writeFileSync(join(dir, "sa.pub"), sa.publicKey.export({ type: "spki", format: "pem" }));
  const adminToken = randomBytes(24).toString("base64url");
  const readerToken = randomBytes(24).toString("base64url");
  const readerUser = "rf-reader";
  writeFileSync(
    join(dir, "tokens.csv"),
    `${adminToken},rf-admin,rf-admin,"system:masters"\n${readerToken},${readerUser},${readerUser}\n`,
    { mode: 0o600 },
  );
  const [clientPort, peerPort, port] = [await freePort(), await freePort(), await freePort()];
  mkdirSync(join(dir, "etcd"), { mode: 0o700 });
  const etcdUrl = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  // --unsafe-no-fsync: the store lives only as long as the run.
  const etcd = start(
    bin.etcd,
    ["--name=rf", `--data-dir=${dir}/etcd`, `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`]
      .concat([`--listen-peer-urls=${peer}`, `--initial-advertise-peer-urls=${peer}`, `--initial-cluster=rf=${peer}`])
      .concat(["--unsafe-no-fsync", "--log-level=warn"]),
    join(dir, "etcd.log"),
    dir,
    "etcd",
  );
  const apiserver = start(
    bin.apiserver,
    [`--etcd-servers=${etcdUrl}`, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", `--secure-port=${port}`]
      .concat([`--tls-cert-file=${pki.dir}/server.pem`, `--tls-private-key-file=${pki.dir}/server.key`])
      .concat([`--cert-dir=${dir}/certs`, `--token-auth-file=${dir}/tokens.csv`, "--authorization-mode=RBAC"])
      .concat([`--service-account-key-file=${dir}/sa.pub`, `--service-account-signing-key-file=${dir}/sa.key`])
      .concat(["--service-account-issuer=https://kubernetes.default.svc", "--service-cluster-ip-range=10.96.0.0/16"])
      // The endpoint reconciler (the `kubernetes` Service's endpoints) refuses a loopback address; no pod uses it here.
      .concat(["--endpoint-reconciler-type=none"])
      // Lighter on a shared machine; nothing here tests request fairness.
      .concat(["--enable-priority-and-fairness=false", "--profiling=false", "--v=1"]),
    join(dir, "kube-apiserver.log"),
    dir,
    "kube-apiserver",
  );
  const stop = async () => {
    writeFileSync(join(dir, "stopping"), "");
    await stopGroup(apiserver);
    await stopGroup(etcd);
  };
  const info: RealKubeInfo = {
    url: `https://127.0.0.1:${port}`,
    dir,
    caPem: pki.caPem,
    adminToken,
    readerToken,
    readerUser,
    versions,
  };
  return { info, stop };
}

/** An admin request to the API server (for set-up the client does not do: pods, PDBs, status writes). */
export async function kubeRequest(
  info: RealKubeInfo,
  method: string,
  path: string,
  body?: unknown,
  contentType = "application/json",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const dispatcher = new Agent({ connect: { ca: info.caPem } });
  try {
    const r = await undiciFetch(`${info.url}${path}`, {
      method,
      dispatcher,
      headers: { authorization: `Bearer ${info.adminToken}`, "content-type": contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await r.text();
    try {
      return { status: r.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch {
      return { status: r.status, body: { text } }; // /readyz answers plain text
    }
  } finally {
    await dispatcher.close();
  }
}

/** Like kubeRequest, but throws unless the status is one of `ok`. */
export async function kubeMust(
  info: RealKubeInfo,
  method: string,
  path: string,
  body?: unknown,
  ok: readonly number[] = [200, 201],
  contentType?: string,
): Promise<Record<string, unknown>> {
  const r = await kubeRequest(info, method, path, body, contentType);
  if (!ok.includes(r.status)) throw new Error(`${method} ${path}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Resolves once /readyz answers 200 and the reader's ClusterRole is bound (idempotent: every file may call it). */
export async function waitForKube(info: RealKubeInfo, timeoutMs = 180_000): Promise<void> {
  await until(
    () => `kube-apiserver to answer ${info.url}/readyz (${timeoutMs} ms):\n${kubeLogTail(info.dir)}`,
    async () => {
      if (existsSync(join(info.dir, "exited")))
        throw new Error(`${readFileSync(join(info.dir, "exited"), "utf8")}${kubeLogTail(info.dir)}`);
      try {
        return (await kubeRequest(info, "GET", "/readyz")).status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs, everyMs: 500 },
  );
  const role = "rf-node-reader";
  const rules = [{ apiGroups: [""], resources: ["nodes", "pods"], verbs: ["get", "list"] }];
  const rbac = "/apis/rbac.authorization.k8s.io/v1";
  await kubeMust(info, "POST", `${rbac}/clusterroles`, { metadata: { name: role }, rules }, [201, 409]);
  await kubeMust(
    info,
    "POST",
    `${rbac}/clusterrolebindings`,
    {
      metadata: { name: role },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: info.readerUser }],
    },
    [201, 409],
  );
}
