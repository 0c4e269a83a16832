/** The provider schema in the engine's `providers schema -json` format (input of @cdktf/provider-generator). */
import type { WireAttribute, WireBlock, WireSchema } from "../framework/wire-schema.js";
import type { GetProviderSchemaResponse } from "../server/rpc.js";

type Json = { [k: string]: unknown };

function attribute(a: WireAttribute): Json {
  const out: Json = {};
  if (a.type) out.type = a.type;
  if (a.nestedType) {
    out.nested_type = {
      attributes: Object.fromEntries(a.nestedType.attributes.map((x) => [x.name, attribute(x)])),
      nesting_mode: a.nestedType.nesting,
    };
  }
  if (a.description) {
    out.description = a.description;
    out.description_kind = "plain";
  }
  for (const flag of ["required", "optional", "computed", "sensitive", "deprecated"] as const)
    if (a[flag]) out[flag] = true;
  if (a.writeOnly) out.write_only = true;
  return out;
}

function block(b: WireBlock): Json {
  const out: Json = {};
  if (b.attributes.length) out.attributes = Object.fromEntries(b.attributes.map((a) => [a.name, attribute(a)]));
  if (b.blockTypes.length) {
    out.block_types = Object.fromEntries(
      b.blockTypes.map((t) => {
        const bt: Json = { nesting_mode: t.nesting, block: block(t.block) };
        if (t.minItems) bt.min_items = t.minItems;
        if (t.maxItems) bt.max_items = t.maxItems;
        return [t.typeName, bt];
      }),
    );
  }
  if (b.description) out.description = b.description;
  out.description_kind = "plain";
  if (b.deprecated) out.deprecated = true;
  return out;
}

function schema(s: WireSchema): Json {
  return { version: s.version, block: block(s.block) };
}

/** `{format_version, provider_schemas, provider_versions}` for the given registry address, e.g. registry.terraform.io/rackform/rackform. */
export function providersSchemaJson(address: string, version: string, s: GetProviderSchemaResponse): Json {
  const map = (r: Readonly<Record<string, WireSchema>>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, schema(v)]));
  return {
    format_version: "1.0",
    provider_schemas: {
      [address]: {
        provider: schema(s.provider),
        resource_schemas: map(s.resourceSchemas),
        data_source_schemas: map(s.dataSourceSchemas),
      },
    },
    provider_versions: { [address]: version },
  };
}
