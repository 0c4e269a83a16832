// The GetProviderSchema answer encoded at build time (scripts/bundle-provider.mjs) is the one the adapter would send,
// and the handlers serve it byte for byte without waiting for the provider to load.
import type * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { encodeProviderSchema } from "../../../src/protocol/prebuilt-schema.js";
import { loadProtocol } from "../../../src/protocol/proto.js";
import { RpcContext } from "../../../src/protocol/rpc/context.js";
import { getProviderSchema } from "../../../src/protocol/rpc/get-provider-schema.js";
import { providerHandlers } from "../../../src/protocol/services.js";
import { EchoServer } from "../../support/protocol/echo-provider.js";

const method = () => loadProtocol().provider.GetProviderSchema;

describe("a prebuilt GetProviderSchema answer", () => {
  it("decodes to what the adapter answers", async () => {
    const server = new EchoServer();
    const bytes = await encodeProviderSchema(server);
    const adapter = await getProviderSchema(new RpcContext(server), {});
    const viaWire = method().responseDeserialize(method().responseSerialize(adapter));
    expect(method().responseDeserialize(Buffer.from(bytes))).toEqual(viaWire);
  });

  it("is served byte for byte while the provider is still loading", async () => {
    const bytes = await encodeProviderSchema(new EchoServer());
    const handlers = providerHandlers(new Promise(() => {}), bytes);
    const answer = await new Promise<unknown>((resolve, reject) =>
      (handlers.GetProviderSchema as grpc.handleUnaryCall<unknown, unknown>)(
        { request: {} } as grpc.ServerUnaryCall<unknown, unknown>,
        (err, value) => (err ? reject(err) : resolve(value)),
      ),
    );
    expect(Buffer.compare(method().responseSerialize(answer), Buffer.from(bytes))).toBe(0);
  });
});
