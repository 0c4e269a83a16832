/**
 * The protocol's service definitions, from the descriptor compiled out of src/protocol/proto/*.proto
 * (descriptor.gen.ts, written by scripts/gen-descriptor.mjs): no .proto text is parsed at start, and the bundled
 * executable needs no file beside it.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { DESCRIPTOR } from "./descriptor.gen.js";

/** Options shared by server and test clients: field names as in the .proto, enums as names, bytes as Buffers. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

/** The service definitions the plugin serves. */
export interface ProtocolServices {
  readonly provider: grpc.ServiceDefinition;
  readonly controller: grpc.ServiceDefinition;
  readonly stdio: grpc.ServiceDefinition;
  readonly health: grpc.ServiceDefinition;
  /** Client constructors by service, for tests and tools that talk to a provider. */
  readonly clients: {
    readonly Provider: grpc.ServiceClientConstructor;
    readonly GRPCController: grpc.ServiceClientConstructor;
    readonly GRPCStdio: grpc.ServiceClientConstructor;
    readonly Health: grpc.ServiceClientConstructor;
  };
}

let loaded: ProtocolServices | undefined;

function at(root: grpc.GrpcObject, dotted: string): grpc.ServiceClientConstructor {
  let node: unknown = root;
  for (const part of dotted.split(".")) node = (node as Record<string, unknown>)[part];
  if (typeof node !== "function") throw new Error(`proto service ${dotted} not found in the protocol descriptor`);
  return node as grpc.ServiceClientConstructor;
}

/** Loads (once) and returns the service definitions. */
export function loadProtocol(): ProtocolServices {
  if (loaded) return loaded;
  const def = protoLoader.fromJSON(DESCRIPTOR as unknown as Parameters<typeof protoLoader.fromJSON>[0], LOADER_OPTIONS);
  const root = grpc.loadPackageDefinition(def);
  const clients = {
    Provider: at(root, "tfplugin6.Provider"),
    GRPCController: at(root, "plugin.GRPCController"),
    GRPCStdio: at(root, "plugin.GRPCStdio"),
    Health: at(root, "grpc.health.v1.Health"),
  };
  loaded = {
    provider: clients.Provider.service,
    controller: clients.GRPCController.service,
    stdio: clients.GRPCStdio.service,
    health: clients.Health.service,
    clients,
  };
  return loaded;
}
