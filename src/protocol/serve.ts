/**
 * `serve()`: runs a ProviderServer as a Terraform/OpenTofu plugin process. It checks the launch environment, listens
 * on a unix socket in a fresh temp dir (with AutoMTLS when the engine asks), prints the one handshake line on stdout,
 * and exits on Shutdown, SIGTERM, or when the engine that started it is gone. Nothing else ever reaches stdout.
 */
import { mkdtempSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import * as grpc from "@grpc/grpc-js";
import type { ProviderServer } from "../server/rpc.js";
import { checkLaunchEnvironment, handshakeLine } from "./handshake.js";
import { loadProtocol } from "./proto.js";
import { housekeepingHandlers, providerHandlers } from "./services.js";
import { generateCertificate } from "./tls.js";

/** How long exit waits for the provider to close its sessions (go-plugin kills the process 2 s after Shutdown). */
const CLOSE_MS = 1_200;

/** Options for `serve`; the defaults are what a real launch needs. */
export interface ServeOptions {
  /** The launch environment. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How often to check whether the parent process is gone. @default 1000 */
  readonly orphanCheckMs?: number;
  /**
   * The provider's GetProviderSchema response, encoded at build time (prebuilt-schema.ts): answered at once, without
   * waiting for the provider to load. @default built from the provider on each call
   */
  readonly schemaResponse?: Uint8Array;
}

/** Keeps every stray write (console.log, libraries) off stdout, which belongs to the handshake. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}

function bind(server: grpc.Server, address: string, creds: grpc.ServerCredentials): Promise<void> {
  return new Promise((resolve, reject) => server.bindAsync(address, creds, (err) => (err ? reject(err) : resolve())));
}

/**
 * Process-wide guards of a plugin process. Once the engine is gone (SIGKILL) nobody reads our stderr: a log line
 * fails with EPIPE, and an unhandled stream error would be reported on stderr again, failing again — a nextTick loop
 * that spins a core and starves the orphan check, so the process never exits. A closed stderr means the engine is
 * gone: exit. The engine stops work with StopProvider; Ctrl-C reaches the whole process group and must not kill us
 * mid-apply.
 */
function guardProcess(exit: (why: string) => void): void {
  const onStreamError = (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") exit("the engine closed its end of stderr");
  };
  process.stderr.on("error", onStreamError);
  process.stdout.on("error", onStreamError);
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => exit("SIGTERM"));
  process.on("unhandledRejection", (e) => process.stderr.write(`[rackform] unhandled rejection: ${String(e)}\n`));
  process.on("uncaughtException", (e) => process.stderr.write(`[rackform] uncaught exception: ${e.stack ?? e}\n`));
}

/** AutoMTLS when the engine sent its client certificate: a fresh server certificate, its DER for the handshake. */
async function credentials(clientCertPem: string | undefined) {
  if (!clientCertPem) return { creds: grpc.ServerCredentials.createInsecure(), certDer: undefined };
  const cert = await generateCertificate();
  const creds = grpc.ServerCredentials.createSsl(
    Buffer.from(clientCertPem),
    [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
    true,
  );
  return { creds, certDer: cert.certDer };
}

/** A promise with its resolve and reject (Promise.withResolvers, which Node 20 lacks). */
function deferred<T>() {
  let resolve: (v: T) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The provider to serve, or a loader for it: a loader runs right after the handshake, while the engine connects. */
export type ProviderSource = ProviderServer | (() => Promise<ProviderServer>);

/**
 * Serves the provider until the engine shuts it down. Resolves once the handshake line has been printed.
 * A wrong launch environment prints a message on stderr and exits with status 1.
 */
export async function serve(provider: ProviderSource, opts: ServeOptions = {}): Promise<void> {
  guardStdout();
  const launch = checkLaunchEnvironment(opts.env ?? process.env);
  if (!launch.ok) {
    process.stderr.write(launch.message);
    process.exit(1);
  }

  // A unix socket path must fit in 108 bytes; a long TMPDIR falls back to /tmp.
  const base = tmpdir().length > 80 ? "/tmp" : tmpdir();
  const socketDir = mkdtempSync(join(base, "plugin"));
  const socketPath = join(socketDir, "plugin.sock");
  let exiting = false;
  /** The provider server once loaded: exit asks it to close its remote sessions first. */
  let loadedServer: ProviderServer | undefined;
  const openStreams = new Set<grpc.ServerWritableStream<unknown, unknown>>();
  const server = new grpc.Server({
    "grpc.max_receive_message_length": -1,
    "grpc.max_send_message_length": -1,
    // Nothing reads channelz here (no admin service is registered); its per-call bookkeeping is pure cost.
    "grpc.enable_channelz": 0,
  });

  const cleanup = () => rmSync(socketDir, { recursive: true, force: true });
  process.on("exit", cleanup);
  const exit = (why: string) => {
    if (exiting) return;
    exiting = true;
    process.stderr.write(`[rackform] provider exiting: ${why}\n`);
    // The provider logs out of the devices it opened sessions on (real BMCs allow few), bounded: go-plugin kills a
    // plugin 2 s after asking it to shut down.
    const closing = loadedServer ? Promise.race([loadedServer.close?.(), delay(CLOSE_MS)]) : Promise.resolve();
    void closing.finally(() => {
      for (const call of openStreams) call.end();
      // Give gRPC a moment to flush the last reply; never wait on a stuck client.
      const force = setTimeout(() => {
        server.forceShutdown();
        process.exit(0);
      }, 1000);
      force.unref();
      server.tryShutdown(() => process.exit(0));
    });
  };

  guardProcess(exit);

  const services = loadProtocol();
  const house = housekeepingHandlers({
    onShutdown: () => exit("Shutdown requested by the engine"),
    onStdioStream: (call) => {
      openStreams.add(call);
      call.on("cancelled", () => openStreams.delete(call));
      call.on("close", () => openStreams.delete(call));
    },
  });
  const ready = deferred<ProviderServer>();
  // A loader that fails leaves nothing to serve: say why on stderr (the engine shows it) and exit.
  ready.promise.then(
    (s) => {
      loadedServer = s;
    },
    (e: unknown) => {
      process.stderr.write(`rackform: the provider failed to load: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
  server.addService(services.provider, providerHandlers(ready.promise, opts.schemaResponse));
  server.addService(services.controller, house.controller);
  server.addService(services.stdio, house.stdio);
  server.addService(services.health, house.health);

  const { creds, certDer } = await credentials(launch.clientCertPem);
  try {
    await bind(server, `unix://${socketPath}`, creds);
  } catch (e) {
    process.stderr.write(`rackform: cannot listen on ${socketPath}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }

  const parent = process.ppid;
  const orphanCheck = setInterval(() => {
    if (process.ppid !== parent) exit(`parent process ${parent} is gone`);
  }, opts.orphanCheckMs ?? 1000);
  orphanCheck.unref();

  writeSync(1, handshakeLine("unix", socketPath, certDer));
  if (typeof provider === "function") provider().then(ready.resolve, ready.reject);
  else ready.resolve(provider);
}
