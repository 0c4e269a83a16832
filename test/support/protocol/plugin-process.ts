/** Launches a provider process exactly as go-plugin does and talks to it with a grpc-js client. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../../src/protocol/handshake.js";
import { loadProtocol } from "../../../src/protocol/proto.js";
import { type GeneratedCertificate, generateCertificate } from "../../../src/protocol/tls.js";

/** The echo provider's source file. */
export const ECHO_PROVIDER = fileURLToPath(new URL("./echo-provider.ts", import.meta.url));

/** A running plugin process with what its handshake told us. */
export interface PluginProcess {
  readonly child: ChildProcess;
  readonly handshake: string;
  readonly socketPath: string;
  /** The server certificate from the handshake, PEM (absent when serving plaintext). */
  readonly serverCertPem?: string;
  readonly clientCert?: GeneratedCertificate;
  /** Everything the process wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/** The environment go-plugin gives a plugin. */
export function pluginEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    ...extra,
  };
}

/** Collects a child's output and exit. */
export function watch(child: ChildProcess) {
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { stdout: () => out, stderr: () => err, exited };
}

/** Waits for the first stdout line (the handshake); fails with the stderr text if the process dies first. */
export function firstLine(child: ChildProcess, w: ReturnType<typeof watch>): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const nl = w.stdout().indexOf("\n");
      if (nl >= 0) resolve(w.stdout().slice(0, nl));
    };
    child.stdout?.on("data", check);
    w.exited.then((code) => reject(new Error(`plugin exited (${code}) before its handshake:\n${w.stderr()}`)));
  });
}

/** Parses a handshake line into socket path and server certificate PEM. */
export function parseHandshake(line: string): { socketPath: string; serverCertPem?: string } {
  const f = line.split("|");
  if (f[0] !== "1" || f[1] !== "6" || f[2] !== "unix" || f[4] !== "grpc") throw new Error(`bad handshake: ${line}`);
  if (f.length < 6) return { socketPath: f[3] };
  const b64 = Buffer.from(f[5], "base64").toString("base64");
  return {
    socketPath: f[3],
    serverCertPem: `-----BEGIN CERTIFICATE-----\n${b64.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`,
  };
}

/** Starts the echo provider (or another script) as the engine would: with the cookie and, by default, AutoMTLS. */
export async function startPlugin(opts: { tls?: boolean; script?: string } = {}): Promise<PluginProcess> {
  const clientCert = opts.tls === false ? undefined : await generateCertificate();
  const child = spawn(process.execPath, ["--import", "tsx", opts.script ?? ECHO_PROVIDER], {
    env: pluginEnv({ PLUGIN_CLIENT_CERT: clientCert?.certPem }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const w = watch(child);
  const handshake = await firstLine(child, w);
  return { child, handshake, ...parseHandshake(handshake), clientCert, ...w };
}

/** grpc-js clients for every service the plugin serves, over mTLS when the plugin printed a certificate. */
export function connect(p: PluginProcess) {
  const { clients } = loadProtocol();
  const creds =
    p.serverCertPem && p.clientCert
      ? grpc.credentials.createSsl(
          Buffer.from(p.serverCertPem),
          Buffer.from(p.clientCert.keyPem),
          Buffer.from(p.clientCert.certPem),
        )
      : grpc.credentials.createInsecure();
  const options = { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" };
  const target = `unix://${p.socketPath}`;
  const make = (C: grpc.ServiceClientConstructor) => new C(target, creds, options);
  return {
    provider: make(clients.Provider),
    controller: make(clients.GRPCController),
    stdio: make(clients.GRPCStdio),
    health: make(clients.Health),
  };
}

/** Calls a unary method and resolves with its response. */
export function call<R = Record<string, unknown>>(client: grpc.Client, method: string, req: object): Promise<R> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, Function>)[method].bind(client);
    fn(req, (err: grpc.ServiceError | null, res: R) => (err ? reject(err) : resolve(res)));
  });
}
