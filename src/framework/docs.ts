/** Plain-data documentation of a schema, for the docs generator: one row per attribute and block, depth first. */
import type { Attribute, Block } from "./schema.js";
import { typeOfAttribute } from "./to-wire.js";
import type { CtyType } from "./values.js";

/** One documented attribute or block. */
export interface SchemaDocRow {
  /** Dotted path, e.g. "network.vlan". */
  readonly path: string;
  /** "attribute" or "block (list, max 4)". */
  readonly kind: string;
  /** The cty type in HCL spelling ("list(string)"), empty for blocks. */
  readonly type: string;
  /** "required", "optional", "computed", "optional, computed", plus "sensitive" / "write-only" / "deprecated". */
  readonly flags: readonly string[];
  readonly description: string;
  /** Sentences from validators, plan modifiers and defaults ("one of \"tcp\", \"udp\"", "default: 443"). */
  readonly notes: readonly string[];
}

/** HCL spelling of a cty type: list(string), object({a = number}). */
export function typeToHcl(t: CtyType): string {
  if (typeof t === "string") return t === "dynamic" ? "any" : t;
  const [kind, inner] = t;
  if (kind === "object") {
    return `object({${Object.entries(inner as Record<string, CtyType>)
      .map(([k, v]) => `${k} = ${typeToHcl(v)}`)
      .join(", ")}})`;
  }
  if (kind === "tuple") return `tuple([${(inner as CtyType[]).map(typeToHcl).join(", ")}])`;
  return `${kind}(${typeToHcl(inner as CtyType)})`;
}

function flagsOf(a: Attribute): string[] {
  const f: string[] = [];
  if (a.required) f.push("required");
  if (a.optional && a.computed) f.push("optional, computed");
  else if (a.optional) f.push("optional");
  else if (a.computed) f.push("computed");
  if (a.sensitive) f.push("sensitive");
  if (a.writeOnly) f.push("write-only");
  if (a.deprecationMessage) f.push("deprecated");
  return f;
}

function rows(b: Block, prefix: string, out: SchemaDocRow[]): void {
  for (const [name, a] of Object.entries(b.attributes)) {
    const path = prefix + name;
    const notes = [...(a.validators ?? []), ...(a.planModifiers ?? [])].map((x) => x.description);
    if (a.default !== undefined) notes.push(`default: ${JSON.stringify(a.default)}`);
    if (a.deprecationMessage) notes.push(a.deprecationMessage);
    out.push({
      path,
      kind: "attribute",
      type: typeToHcl(typeOfAttribute(name, a)),
      flags: flagsOf(a),
      description: a.description ?? "",
      notes,
    });
    if (a.kind === "nested") rows({ attributes: a.attributes }, `${path}.`, out);
  }
  for (const [name, nb] of Object.entries(b.blocks ?? {})) {
    const path = prefix + name;
    const size = [nb.minItems ? `min ${nb.minItems}` : "", nb.maxItems ? `max ${nb.maxItems}` : ""].filter(Boolean);
    const notes = [...(nb.validators ?? []), ...(nb.planModifiers ?? [])].map((x) => x.description);
    const description = nb.description ?? nb.block.description ?? "";
    out.push({ path, kind: `block (${[nb.nesting, ...size].join(", ")})`, type: "", flags: [], description, notes });
    rows(nb.block, `${path}.`, out);
  }
}

/** Every attribute and block of a schema as documentation rows. */
export function schemaDocs(schema: Block): SchemaDocRow[] {
  const out: SchemaDocRow[] = [];
  rows(schema, "", out);
  return out;
}
