/** Loads the protocol's .proto files at run time (the build copies src/protocol/proto to dist/protocol/proto). */
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

/** Where the .proto files sit, next to this module. */
export const PROTO_DIR = fileURLToPath(new URL("./proto/", import.meta.url));

/** The proto files, relative to PROTO_DIR. */
export const PROTO_FILES = ["tfplugin6.proto", "grpc_controller.proto", "grpc_stdio.proto", "health.proto"] as const;

/** Options shared by server and test clients: field names as in the .proto, enums as names, bytes as Buffers. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
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
  if (typeof node !== "function") throw new Error(`proto service ${dotted} not found in ${PROTO_DIR}`);
  return node as grpc.ServiceClientConstructor;
}

/** Loads (once) and returns the service definitions. */
export function loadProtocol(): ProtocolServices {
  if (loaded) return loaded;
  const def = protoLoader.loadSync([...PROTO_FILES], LOADER_OPTIONS);
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
