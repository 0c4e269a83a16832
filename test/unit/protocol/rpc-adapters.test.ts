import { describe, expect, it } from "vitest";
import { path } from "../../../src/framework/diagnostics.js";
import { BigNumber, type Value } from "../../../src/framework/values.js";
import type { WireAttribute, WireSchema } from "../../../src/framework/wire-schema.js";
import { impliedType } from "../../../src/framework/wire-schema.js";
import { decodeDynamicValue, encodeDynamicValue } from "../../../src/protocol/codec.js";
import { applyResourceChange } from "../../../src/protocol/rpc/apply-resource-change.js";
import { RpcContext } from "../../../src/protocol/rpc/context.js";
import { getProviderSchema } from "../../../src/protocol/rpc/get-provider-schema.js";
import { importResourceState } from "../../../src/protocol/rpc/import-resource-state.js";
import { readDataSource } from "../../../src/protocol/rpc/read-data-source.js";
import { readResource } from "../../../src/protocol/rpc/read-resource.js";
import { stopProvider } from "../../../src/protocol/rpc/stop-provider.js";
import { upgradeResourceState } from "../../../src/protocol/rpc/upgrade-resource-state.js";
import { validateProviderConfig } from "../../../src/protocol/rpc/validate-provider-config.js";
import { encodeDiagnostics } from "../../../src/protocol/wire.js";
import type { ProviderServer, UpgradeResourceStateRequest } from "../../../src/server/rpc.js";
import { ECHO_SCHEMA, EchoServer } from "../../support/protocol/echo-provider.js";

const base = {
  description: "",
  required: false,
  optional: true,
  computed: false,
  sensitive: false,
  writeOnly: false,
  deprecated: false,
};
const a = (name: string, extra: Partial<WireAttribute> = {}): WireAttribute => ({
  ...base,
  name,
  type: "string",
  ...extra,
});

const RICH: WireSchema = {
  version: 3,
  block: {
    description: "a machine",
    deprecated: false,
    attributes: [
      a("password", { writeOnly: true, sensitive: true }),
      a("nics", {
        type: undefined,
        nestedType: { nesting: "list", attributes: [a("mac", { required: true, optional: false })] },
      }),
    ],
    blockTypes: [
      {
        typeName: "timeouts",
        nesting: "single",
        minItems: 0,
        maxItems: 0,
        block: { description: "", deprecated: false, attributes: [a("create")], blockTypes: [] },
      },
    ],
  },
};

/** The echo server with extra behaviour patched in per test. */
function server(overrides: Partial<ProviderServer> = {}): ProviderServer {
  const echo = new EchoServer();
  return Object.assign(echo, {
    getProviderSchema: () => ({ ...ECHO_SCHEMA, resourceSchemas: { ...ECHO_SCHEMA.resourceSchemas, rich: RICH } }),
    ...overrides,
  });
}

describe("schema encoding", () => {
  it("sends attribute types as JSON bytes, nested attributes, nesting modes, write-only and capabilities", async () => {
    const res = (await getProviderSchema(new RpcContext(server()), {})) as unknown as {
      resource_schemas: Record<string, { version: number; block: Record<string, unknown> }>;
      server_capabilities: Record<string, boolean>;
    };
    const rich = res.resource_schemas.rich;
    expect(rich.version).toBe(3);
    expect(rich.block).toMatchObject({
      description: "a machine",
      attributes: [
        { name: "password", write_only: true, sensitive: true, type: Buffer.from('"string"') },
        {
          name: "nics",
          nested_type: { nesting: "LIST", attributes: [{ name: "mac", required: true, optional: false }] },
        },
      ],
      block_types: [{ type_name: "timeouts", nesting: "SINGLE", block: { attributes: [{ name: "create" }] } }],
    });
    expect((rich.block.attributes as Record<string, unknown>[])[1].type).toBeUndefined();
    expect(res.server_capabilities).toEqual({
      plan_destroy: false,
      get_provider_schema_optional: false,
      move_resource_state: false,
    });
  });
});

describe("diagnostics", () => {
  it("encodes attribute path steps as attribute_name, element_key_string and element_key_int", () => {
    const [d] = encodeDiagnostics([
      { severity: "warning", summary: "s", detail: "d", attribute: path("nodes", 2, { key: "gpu" }, "model") },
    ]);
    expect(d).toEqual({
      severity: "WARNING",
      summary: "s",
      detail: "d",
      attribute: {
        steps: [
          { attribute_name: "nodes" },
          { element_key_int: 2 },
          { element_key_string: "gpu" },
          { attribute_name: "model" },
        ],
      },
    });
  });
});

describe("adapters", () => {
  const thing = impliedType(ECHO_SCHEMA.resourceSchemas.echo_thing.block);

  it("hands UpgradeResourceState the stored JSON with numbers kept exact, and encodes the result", async () => {
    let seen: UpgradeResourceStateRequest | undefined;
    const ctx = new RpcContext(
      server({
        upgradeResourceState: async (req) => {
          seen = req;
          return { upgradedState: { ...(req.rawJson as Record<string, Value>), tags: null }, diagnostics: [] };
        },
      }),
    );
    const raw = '{"id":"x","input":"n","size":12345678901234567890.5}';
    const res = await upgradeResourceState(ctx, {
      type_name: "echo_thing",
      version: "0",
      raw_state: { json: Buffer.from(raw), flatmap: {} },
    });
    expect(seen?.rawJson).toEqual({ id: "x", input: "n", size: new BigNumber("12345678901234567890.5") });
    expect(seen?.rawFlatmap).toBeUndefined();
    expect(res.diagnostics).toEqual([]);
    expect(decodeDynamicValue(res.upgraded_state, thing)).toEqual({
      id: "x",
      input: "n",
      size: new BigNumber("12345678901234567890.5"),
      tags: null,
    });
  });

  it("reports a result that lacks an attribute as one provider-bug diagnostic", async () => {
    const ctx = new RpcContext(
      server({ upgradeResourceState: async () => ({ upgradedState: { id: "x" }, diagnostics: [] }) }),
    );
    const res = await upgradeResourceState(ctx, {
      type_name: "echo_thing",
      version: 0,
      raw_state: { json: Buffer.from("{}") },
    });
    expect(res.upgraded_state).toBeUndefined();
    expect(res.diagnostics).toEqual([
      {
        severity: "ERROR",
        summary: "Unexpected provider error",
        detail: expect.stringMatching(/^This is always a bug in the provider: .*attribute "input" is missing/),
      },
    ]);
  });

  it("sends the prior object back unchanged when ReadResource or ApplyResourceChange fails, so it is not lost", async () => {
    const fail = async () => {
      throw new Error("backend unreachable");
    };
    const ctx = new RpcContext(server({ readResource: fail, applyResourceChange: fail }));
    const current = encodeDynamicValue({ id: "x-n1", input: "n1", size: null, tags: null }, thing);
    const read = await readResource(ctx, {
      type_name: "echo_thing",
      current_state: current,
      private: Buffer.from("p"),
    });
    expect(read.new_state).toBe(current);
    expect(Buffer.from(read.private ?? []).toString()).toBe("p");
    expect(read.diagnostics).toMatchObject([{ summary: "Unexpected provider error" }]);
    const apply = await applyResourceChange(ctx, {
      type_name: "echo_thing",
      prior_state: current,
      planned_state: current,
    });
    expect(apply.new_state).toBe(current);
  });

  it("gives every imported resource its type name and state", async () => {
    const res = await importResourceState(new RpcContext(server()), { type_name: "echo_thing", id: "echo-n9" });
    expect(res.imported_resources).toHaveLength(1);
    const [r] = res.imported_resources ?? [];
    expect(r.type_name).toBe("echo_thing");
    expect(decodeDynamicValue(r.state, thing)).toEqual({ id: "echo-n9", input: "n9", size: null, tags: null });
  });

  it("answers an unknown data source with an error diagnostic", async () => {
    const res = await readDataSource(new RpcContext(server()), { type_name: "nope" });
    expect(res).toEqual({
      diagnostics: [expect.objectContaining({ severity: "ERROR", summary: "Unknown data source type" })],
    });
  });

  it("passes the provider configuration decoded with the provider schema", async () => {
    let config: Value | undefined;
    const ctx = new RpcContext(
      server({
        validateProviderConfig: async (req) => {
          config = req.config;
          return {
            diagnostics: [{ severity: "error", summary: "bad prefix", detail: "use a-z", attribute: path("prefix") }],
          };
        },
      }),
    );
    const providerType = impliedType(ECHO_SCHEMA.provider.block);
    const res = await validateProviderConfig(ctx, { config: encodeDynamicValue({ prefix: "p" }, providerType) });
    expect(config).toEqual({ prefix: "p" });
    expect(res.diagnostics).toEqual([
      {
        severity: "ERROR",
        summary: "bad prefix",
        detail: "use a-z",
        attribute: { steps: [{ attribute_name: "prefix" }] },
      },
    ]);
  });

  it("turns a StopProvider exception into the response's Error text", async () => {
    const ctx = new RpcContext(
      server({
        stopProvider: async () => {
          throw new Error("stuck");
        },
      }),
    );
    expect(await stopProvider(ctx, {})).toEqual({ Error: "This is always a bug in the provider: stuck" });
  });
});
