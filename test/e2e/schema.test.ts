/**
 * `rackform schema` prints exactly what the engines print for `providers schema -json` (the input of cdktf's
 * provider generator), so bindings can be generated without running an engine.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

type Json = { [k: string]: unknown };

/** Drops keys whose value is false/empty, which the engines omit and our printer may too. */
function normal(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normal);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v as Json)
        .filter(([, x]) => x !== false && x !== "" && !(x && typeof x === "object" && Object.keys(x).length === 0))
        .map(([k, x]) => [k, normal(x)]),
    );
  }
  return v;
}

describe.each(ENGINES)("rackform schema vs %s providers schema -json", (name) => {
  it("describes the same provider, resources and data sources, attribute for attribute", async () => {
    const w = await Workdir.create(engine(name), cliConfig, {
      "main.tf": 'terraform {\n  required_providers {\n    rackform = { source = "rackform/rackform" }\n  }\n}\n',
    });
    await w.ok(["init", "-no-color"]);
    const theirs = JSON.parse((await w.ok(["providers", "schema", "-json"])).stdout);
    const ours = JSON.parse(
      execFileSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "schema"], { encoding: "utf8" }),
    );
    const host = name === "tofu" ? "registry.opentofu.org" : "registry.terraform.io";
    const t = theirs.provider_schemas[`${host}/rackform/rackform`];
    const o = ours.provider_schemas["registry.terraform.io/rackform/rackform"];
    expect(Object.keys(o.resource_schemas).sort()).toEqual(Object.keys(t.resource_schemas).sort());
    expect(Object.keys(o.data_source_schemas ?? {}).sort()).toEqual(Object.keys(t.data_source_schemas ?? {}).sort());
    expect(normal(o.provider)).toEqual(normal(t.provider));
    for (const r of Object.keys(t.resource_schemas))
      expect(normal(o.resource_schemas[r]), r).toEqual(normal(t.resource_schemas[r]));
    for (const d of Object.keys(t.data_source_schemas ?? {})) {
      expect(normal(o.data_source_schemas[d]), d).toEqual(normal(t.data_source_schemas[d]));
    }
    expect(ours.provider_versions["registry.terraform.io/rackform/rackform"]).toBe("0.1.0");
  });
});
