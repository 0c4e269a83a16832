/** Binds the RPC adapters and go-plugin's housekeeping services to grpc-js handlers. */
import * as grpc from "@grpc/grpc-js";
import type { ProviderServer } from "../server/rpc.js";
import { applyResourceChange } from "./rpc/apply-resource-change.js";
import { configureProvider } from "./rpc/configure-provider.js";
import { RpcContext } from "./rpc/context.js";
import { getMetadata } from "./rpc/get-metadata.js";
import { getProviderSchema } from "./rpc/get-provider-schema.js";
import { importResourceState } from "./rpc/import-resource-state.js";
import {
  callFunction,
  ephemeralResource,
  getFunctions,
  getResourceIdentitySchemas,
  moveResourceState,
} from "./rpc/not-offered.js";
import { planResourceChange } from "./rpc/plan-resource-change.js";
import { readDataSource } from "./rpc/read-data-source.js";
import { readResource } from "./rpc/read-resource.js";
import { stopProvider } from "./rpc/stop-provider.js";
import { upgradeResourceState } from "./rpc/upgrade-resource-state.js";
import { validateDataResourceConfig } from "./rpc/validate-data-resource-config.js";
import { validateProviderConfig } from "./rpc/validate-provider-config.js";
import { validateResourceConfig } from "./rpc/validate-resource-config.js";

type Adapter<Q> = (ctx: RpcContext, req: Q) => Promise<unknown>;

function unary<Q>(ctx: Promise<RpcContext>, name: string, adapter: Adapter<Q>): grpc.handleUnaryCall<Q, unknown> {
  return (call, callback) => {
    ctx
      .then((c) => adapter(c, call.request))
      .then(
        (res) => callback(null, res),
        // Adapters turn every failure into diagnostics; reaching this is a fault in the protocol layer itself.
        (e: unknown) => {
          process.stderr.write(`[rackform] ${name}: protocol fault: ${e instanceof Error ? e.stack : String(e)}\n`);
          callback({ code: grpc.status.INTERNAL, details: `${name}: ${e instanceof Error ? e.message : String(e)}` });
        },
      );
  };
}

/**
 * Handlers for tfplugin6.Provider, calling into the given ProviderServer. A promise is accepted so the provider's own
 * modules can load while the engine connects; every RPC waits for it, but GetProviderSchema when `schemaResponse`
 * (the server's own answer, encoded at build time: prebuilt-schema.ts) is given.
 */
export function providerHandlers(
  server: ProviderServer | Promise<ProviderServer>,
  schemaResponse?: Uint8Array,
): grpc.UntypedServiceImplementation {
  const ctx = Promise.resolve(server).then((s) => new RpcContext(s));
  const table: Record<string, Adapter<never>> = {
    GetMetadata: getMetadata,
    GetProviderSchema: getProviderSchema,
    ValidateProviderConfig: validateProviderConfig,
    ValidateResourceConfig: validateResourceConfig,
    ValidateDataResourceConfig: validateDataResourceConfig,
    UpgradeResourceState: upgradeResourceState,
    GetResourceIdentitySchemas: getResourceIdentitySchemas,
    ConfigureProvider: configureProvider,
    ReadResource: readResource,
    PlanResourceChange: planResourceChange,
    ApplyResourceChange: applyResourceChange,
    ImportResourceState: importResourceState,
    MoveResourceState: moveResourceState,
    ReadDataSource: readDataSource,
    ValidateEphemeralResourceConfig: ephemeralResource,
    OpenEphemeralResource: ephemeralResource,
    RenewEphemeralResource: ephemeralResource,
    CloseEphemeralResource: ephemeralResource,
    GetFunctions: getFunctions,
    CallFunction: callFunction,
    StopProvider: stopProvider,
  };
  const handlers = Object.fromEntries(
    Object.entries(table).map(([name, fn]) => [name, unary(ctx, name, fn) as grpc.UntypedHandleCall]),
  );
  if (schemaResponse) {
    handlers.GetProviderSchema = ((_call, callback) => callback(null, schemaResponse)) as grpc.handleUnaryCall<
      unknown,
      unknown
    >;
  }
  return handlers;
}

/** Handlers for go-plugin's GRPCController, GRPCStdio and the health service. */
export function housekeepingHandlers(hooks: {
  /** Called after the Shutdown reply has been handed to gRPC. */
  onShutdown(): void;
  /** Registers an open StreamStdio call so shutdown can end it. */
  onStdioStream(call: grpc.ServerWritableStream<unknown, unknown>): void;
}): {
  controller: grpc.UntypedServiceImplementation;
  stdio: grpc.UntypedServiceImplementation;
  health: grpc.UntypedServiceImplementation;
} {
  const serving = (service: string) => service === "" || service === "plugin";
  return {
    controller: {
      Shutdown: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        callback(null, {});
        hooks.onShutdown();
      },
    },
    // The engine opens this stream at connect and mirrors whatever arrives; logs go to stderr instead, so it stays
    // open and silent until shutdown.
    stdio: { StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => hooks.onStdioStream(call) },
    health: {
      Check: (call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        if (serving(call.request.service)) callback(null, { status: "SERVING" });
        else callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` });
      },
      Watch: (call: grpc.ServerWritableStream<{ service: string }, unknown>) => {
        call.write({ status: serving(call.request.service) ? "SERVING" : "SERVICE_UNKNOWN" });
        hooks.onStdioStream(call as grpc.ServerWritableStream<unknown, unknown>);
      },
    },
  };
}
