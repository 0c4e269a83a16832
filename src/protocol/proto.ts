/**
 * The protocol's service definitions, from the descriptor compiled out of src/protocol/proto/*.proto
 * (descriptor.gen.ts, written by scripts/gen-descriptor.mjs): no .proto text is parsed at start, and the bundled
 * executable needs no file beside it.
 */
import * as grpc from "@grpc/grpc-js";
import type * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";
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

/** grpc-js's definition of one service, built straight from protobufjs types. */
function serviceDefinition(root: protobuf.Root, dotted: string): grpc.ServiceDefinition {
  const service = root.lookupService(dotted);
  const def: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const m of service.methodsArray) {
    const req = m.resolvedRequestType!;
    const res = m.resolvedResponseType!;
    def[m.name] = {
      path: `/${dotted}/${m.name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: (v) => Buffer.from(req.encode(req.fromObject(v as Record<string, unknown>)).finish()),
      requestDeserialize: (b: Buffer) => req.toObject(req.decode(b), LOADER_OPTIONS),
      // A response already encoded (the prebuilt GetProviderSchema answer) goes out as it is.
      responseSerialize: (v) =>
        v instanceof Uint8Array
          ? Buffer.from(v.buffer, v.byteOffset, v.byteLength)
          : Buffer.from(res.encode(res.fromObject(v as Record<string, unknown>)).finish()),
      responseDeserialize: (b: Buffer) => res.toObject(res.decode(b), LOADER_OPTIONS),
      originalName: m.name.charAt(0).toLowerCase() + m.name.slice(1),
    };
  }
  return def as grpc.ServiceDefinition;
}

/**
 * Loads (once) and returns the service definitions. Built from protobufjs types directly, with the conversions
 * @grpc/proto-loader would make (LOADER_OPTIONS), but without the file descriptors it also encodes for reflection:
 * those were a large share of every provider process's start, and the engines start several per command.
 */
export function loadProtocol(): ProtocolServices {
  if (loaded) return loaded;
  const root = protobuf.Root.fromJSON(DESCRIPTOR as unknown as protobuf.INamespace);
  root.resolveAll();
  const provider = serviceDefinition(root, "tfplugin6.Provider");
  const controller = serviceDefinition(root, "plugin.GRPCController");
  const stdio = serviceDefinition(root, "plugin.GRPCStdio");
  const health = serviceDefinition(root, "grpc.health.v1.Health");
  const make = (def: grpc.ServiceDefinition, name: string) => grpc.makeGenericClientConstructor(def, name);
  let clients: ProtocolServices["clients"] | undefined;
  loaded = {
    provider,
    controller,
    stdio,
    health,
    // Only tests and tools dial a provider: the serving process never builds these.
    get clients() {
      clients ??= {
        Provider: make(provider, "Provider"),
        GRPCController: make(controller, "GRPCController"),
        GRPCStdio: make(stdio, "GRPCStdio"),
        Health: make(health, "Health"),
      };
      return clients;
    },
  };
  return loaded;
}
