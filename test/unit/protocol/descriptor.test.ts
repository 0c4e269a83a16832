/**
 * The committed protocol descriptor (src/protocol/descriptor.gen.ts) is exactly what scripts/gen-descriptor.mjs makes
 * of src/protocol/proto/*.proto, and it serves the services the engines call.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadProtocol } from "../../../src/protocol/proto.js";
import { ROOT } from "../../support/rackform-e2e.js";

describe("protocol descriptor", () => {
  it("matches the .proto files (run `node scripts/gen-descriptor.mjs` if not)", async () => {
    const gen = await import(join(ROOT, "scripts/gen-descriptor.mjs"));
    expect(readFileSync(gen.OUT, "utf8")).toBe(gen.moduleText(gen.descriptorFromProtos()));
  });

  it("defines the provider's RPCs with the field names of tfplugin6.proto", () => {
    const { provider, controller, stdio, health } = loadProtocol();
    expect(Object.keys(provider)).toEqual(
      expect.arrayContaining(["GetProviderSchema", "PlanResourceChange", "ApplyResourceChange", "ReadResource"]),
    );
    expect(provider.PlanResourceChange.path).toBe("/tfplugin6.Provider/PlanResourceChange");
    expect(Object.keys(controller)).toEqual(["Shutdown"]);
    expect(Object.keys(stdio)).toEqual(["StreamStdio"]);
    expect(health.Check.path).toBe("/grpc.health.v1.Health/Check");
    const req = provider.ReadResource.requestDeserialize(
      provider.ReadResource.requestSerialize({ type_name: "rackform_bmc", private: Buffer.from("x") }),
    ) as { type_name: string; private: Buffer; current_state: unknown };
    expect(req.type_name).toBe("rackform_bmc");
    expect(Buffer.isBuffer(req.private)).toBe(true);
  });
});
