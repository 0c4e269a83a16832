import { describe, expect, it } from "vitest";
import {
  attr,
  backgroundContext,
  type DataSourceReadResponse,
  Diagnostics,
  defineDataSource,
  path,
  UNKNOWN,
} from "../../../src/framework/index.js";
import { BigNumber } from "../../../src/framework/values.js";

const schema = {
  attributes: {
    names: attr.list("string", { required: true }),
    limit: attr.number({ optional: true }),
    rows: attr.list(["object", { name: "string", n: "number" }], { computed: true }),
  },
} as const;

/** A data source that numbers its names; deps is a prefix from the provider's data. */
function sample(seen: unknown[]) {
  return defineDataSource({
    typeName: "x_rows",
    schema,
    deps: (data) => ({ prefix: String(data) }),
    read(r, deps) {
      seen.push(r.config);
      if (r.config.names.length === 0) {
        r.diagnostics.error("No names", "names is empty", path("names"));
        return undefined;
      }
      const rows = r.config.names.slice(0, r.config.limit ?? undefined).map((name, n) => ({
        name: `${deps.prefix}${name}`,
        n,
      }));
      return { ...r.config, rows };
    },
    validateConfig(r) {
      if (typeof r.config.limit === "number" && r.config.limit < 1)
        r.diagnostics.error("Bad limit", "limit must be ≥ 1", path("limit"));
    },
  });
}

const ctx = backgroundContext();

describe("defineDataSource", () => {
  it("decodes the config once (big numbers as numbers), hands the configured deps and encodes the state", async () => {
    const seen: unknown[] = [];
    const ds = sample(seen);
    await ds.configure?.({ context: ctx, providerData: "p-" }, { diagnostics: new Diagnostics() });
    const config = { names: ["a", "b", "c"], limit: new BigNumber("2"), rows: null };
    const resp: DataSourceReadResponse = { state: config, diagnostics: new Diagnostics() };
    await ds.read({ context: ctx, config }, resp);
    expect(seen).toEqual([{ names: ["a", "b", "c"], limit: 2, rows: null }]);
    expect(resp.state).toEqual({
      names: ["a", "b", "c"],
      limit: 2,
      rows: [
        { name: "p-a", n: 0 },
        { name: "p-b", n: 1 },
      ],
    });
  });

  it("leaves the config as state when the read returns nothing after a diagnostic", async () => {
    const ds = sample([]);
    await ds.configure?.({ context: ctx, providerData: "p-" }, { diagnostics: new Diagnostics() });
    const config = { names: [], limit: null, rows: null };
    const resp: DataSourceReadResponse = { state: config, diagnostics: new Diagnostics() };
    await ds.read({ context: ctx, config }, resp);
    expect(resp.state).toBe(config);
    expect(resp.diagnostics.items.map((d) => d.summary)).toEqual(["No names"]);
  });

  it("validates a config that may hold unknowns, and fails a read before the provider is configured", async () => {
    const ds = sample([]);
    const diags = new Diagnostics();
    await ds.validateConfig?.(
      { context: ctx, config: { names: UNKNOWN, limit: 0, rows: null } },
      { diagnostics: diags },
    );
    expect(diags.items.map((d) => d.summary)).toEqual(["Bad limit"]);
    const config = { names: ["a"], limit: null, rows: null };
    await expect(ds.read({ context: ctx, config }, { state: config, diagnostics: new Diagnostics() })).rejects.toThrow(
      "x_rows used before the provider was configured",
    );
  });
});
