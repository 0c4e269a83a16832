import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { UNKNOWN, Unknown } from "../../../src/framework/values.js";
import { impliedType } from "../../../src/framework/wire-schema.js";
import { decodeDynamicValue, encodeDynamicValue } from "../../../src/protocol/codec.js";
import { ECHO_SCHEMA } from "../../support/protocol/echo-provider.js";
import {
  call,
  connect,
  ECHO_PROVIDER,
  firstLine,
  type PluginProcess,
  parseHandshake,
  pluginEnv,
  startPlugin,
  watch,
} from "../../support/protocol/plugin-process.js";
import { until } from "../../support/until.js";

const thingType = impliedType(ECHO_SCHEMA.resourceSchemas.echo_thing.block);
const running: PluginProcess[] = [];
const clients: grpc.Client[] = [];

afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

async function start(tls = true) {
  const p = await startPlugin({ tls });
  running.push(p);
  const c = connect(p);
  clients.push(c.provider, c.controller, c.stdio, c.health);
  return { p, c };
}

/** True while the process exists and is not a zombie (a reparented orphan may wait to be reaped). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("a provider process launched as the engine launches it", () => {
  it("prints one handshake line with a padless base64 DER certificate and serves the provider over mTLS", async () => {
    const { p, c } = await start();
    expect(p.handshake).toMatch(/^1\|6\|unix\|\/[^|]+\|grpc\|[A-Za-z0-9+/]{50,}$/);

    // The engine opens the stdio stream first and keeps it; it must stay open and silent.
    const stdioClient = c.stdio as unknown as { StreamStdio(req: object): grpc.ClientReadableStream<unknown> };
    const stream = stdioClient.StreamStdio({});
    const stdioData: unknown[] = [];
    stream.on("data", (d) => stdioData.push(d));
    stream.on("error", () => {});

    const schema = await call<{
      resource_schemas: Record<string, { block: { attributes: { name: string; type: Buffer }[] } }>;
      server_capabilities: Record<string, boolean>;
    }>(c.provider, "GetProviderSchema", {});
    const attrs = schema.resource_schemas.echo_thing.block.attributes;
    expect(attrs.map((a) => [a.name, a.type.toString()])).toEqual([
      ["id", '"string"'],
      ["input", '"string"'],
      ["size", '"number"'],
      ["tags", '["map","string"]'],
    ]);
    expect(schema.server_capabilities).toMatchObject({ plan_destroy: false, get_provider_schema_optional: false });

    const health = await call<{ status: string }>(c.health, "Check", { service: "plugin" });
    expect(health.status).toBe("SERVING");

    const config = { id: null, input: "n1", size: 2, tags: { rack: "r12" } };
    const plan = await call<{ planned_state: { msgpack: Buffer }; planned_private: Buffer; diagnostics: unknown[] }>(
      c.provider,
      "PlanResourceChange",
      {
        type_name: "echo_thing",
        prior_state: encodeDynamicValue(null, thingType),
        proposed_new_state: encodeDynamicValue(config, thingType),
        config: encodeDynamicValue(config, thingType),
      },
    );
    expect(plan.diagnostics).toEqual([]);
    expect(decodeDynamicValue(plan.planned_state, thingType)).toEqual({ ...config, id: UNKNOWN });
    expect(plan.planned_private.toString()).toBe("planned");

    const apply = await call<{ new_state: { msgpack: Buffer } }>(c.provider, "ApplyResourceChange", {
      type_name: "echo_thing",
      prior_state: encodeDynamicValue(null, thingType),
      planned_state: plan.planned_state,
      config: encodeDynamicValue(config, thingType),
      planned_private: plan.planned_private,
    });
    expect(decodeDynamicValue(apply.new_state, thingType)).toEqual({ ...config, id: "echo-n1" });

    await call(c.controller, "Shutdown", {});
    expect(await p.exited).toBe(0);
    expect(p.stdout()).toBe(`${p.handshake}\n`);
    expect(stdioData).toEqual([]);
    expect(existsSync(dirname(p.socketPath))).toBe(false);
  });

  it("answers an unknown type name and a server exception with error diagnostics, and keeps serving", async () => {
    const { p, c } = await start();
    const unknownType = await call<{ diagnostics: { severity: string; summary: string }[] }>(
      c.provider,
      "ReadResource",
      { type_name: "echo_nope", current_state: encodeDynamicValue(null, thingType) },
    );
    expect(unknownType.diagnostics).toMatchObject([{ severity: "ERROR", summary: "Unknown resource type" }]);

    const boom = { id: new Unknown(), input: "boom", size: null, tags: null };
    const res = await call<{ diagnostics: { severity: string; summary: string; detail: string }[] }>(
      c.provider,
      "PlanResourceChange",
      {
        type_name: "echo_thing",
        prior_state: encodeDynamicValue(null, thingType),
        proposed_new_state: encodeDynamicValue(boom, thingType),
        config: encodeDynamicValue(boom, thingType),
      },
    );
    expect(res.diagnostics).toEqual([
      expect.objectContaining({
        severity: "ERROR",
        summary: "Unexpected provider error",
        detail: "This is always a bug in the provider: the echo resource exploded on purpose",
      }),
    ]);

    // A DynamicValue that does not match the schema is a codec failure: also one diagnostic, not a gRPC error.
    const bad = await call<{ diagnostics: { summary: string; detail: string }[] }>(
      c.provider,
      "ValidateResourceConfig",
      {
        type_name: "echo_thing",
        config: { msgpack: Buffer.from([0x81, 0xa1, 0x78, 0x01]) },
      },
    );
    expect(bad.diagnostics).toMatchObject([{ summary: "Unexpected provider error" }]);
    expect(bad.diagnostics[0].detail).toMatch(/unsupported attribute "x"/);

    const ids = await call<{ identity_schemas: object; diagnostics: unknown[] }>(
      c.provider,
      "GetResourceIdentitySchemas",
      {},
    );
    expect(ids).toEqual({ identity_schemas: {}, diagnostics: [] });
    const meta = await call<{ resources: { type_name: string }[] }>(c.provider, "GetMetadata", {});
    expect(meta.resources).toEqual([{ type_name: "echo_thing" }]);

    await call(c.controller, "Shutdown", {});
    expect(await p.exited).toBe(0);
  });

  it("serves plaintext and ends the handshake after grpc when the engine sends no client certificate", async () => {
    const { p, c } = await start(false);
    expect(p.handshake).toMatch(/^1\|6\|unix\|\/[^|]+\|grpc$/);
    const schema = await call<{ data_source_schemas: object }>(c.provider, "GetProviderSchema", {});
    expect(Object.keys(schema.data_source_schemas)).toEqual(["echo_data"]);
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  });

  it("fails with a message on stderr, nothing on stdout and status 1 when the magic cookie is wrong", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", ECHO_PROVIDER], {
      env: pluginEnv({ TF_PLUGIN_MAGIC_COOKIE: "wrong" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const w = watch(child);
    expect(await w.exited).toBe(1);
    expect(w.stdout()).toBe("");
    expect(w.stderr()).toMatch(/This binary is a plugin/);
  });

  it("refuses an engine that does not offer protocol 6", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", ECHO_PROVIDER], {
      env: pluginEnv({ PLUGIN_PROTOCOL_VERSIONS: "4,5" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const w = watch(child);
    expect(await w.exited).toBe(1);
    expect(w.stdout()).toBe("");
    expect(w.stderr()).toMatch(/protocol 6/);
  });

  it("exits when the process that launched it dies", async () => {
    // A parent that starts the provider sharing our stdout pipe, then waits forever.
    const parentScript = `
      const { spawn } = require("node:child_process");
      const c = spawn(process.execPath, ["--import", "tsx", ${JSON.stringify(ECHO_PROVIDER)}], { stdio: ["ignore", "inherit", "inherit"] });
      process.stderr.write("child " + c.pid + "\\n");
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["-e", parentScript], {
      env: pluginEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const w = watch(parent);
    const line = await firstLine(parent, w);
    const { socketPath } = parseHandshake(line);
    const pid = Number(/child (\d+)/.exec(w.stderr())?.[1]);
    expect(isAlive(pid)).toBe(true);

    parent.kill("SIGKILL");
    await w.exited;
    // Bounded wait for the orphan to notice (it checks its parent once a second).
    await until("the orphan to exit", () => !isAlive(pid), { everyMs: 100 });
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(dirname(socketPath))).toBe(false);
  });
});
