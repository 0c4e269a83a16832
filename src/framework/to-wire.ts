/** Turns a DSL schema into the engine's WireSchema, rejecting flag combinations the engine or server cannot honour. */
import type { Attribute, Attributes, Block, NestedBlock, Schema } from "./schema.js";
import type { CtyType } from "./values.js";
import { attributeType, impliedType, type WireAttribute, type WireBlock, type WireSchema } from "./wire-schema.js";

/** A schema is malformed (a provider bug caught at GetProviderSchema); `where` is the dotted attribute path. */
export class SchemaError extends Error {
  override readonly name = "SchemaError";
  readonly code = "RACKFORM_ERR_FRAMEWORK_SCHEMA";
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
  }
}

const NAME = /^[a-z_][a-z0-9_]*$/;

function checkAttribute(where: string, a: Attribute): void {
  const { required = false, optional = false, computed = false } = a;
  if (!required && !optional && !computed) throw new SchemaError(where, "set one of required, optional or computed");
  if (required && (optional || computed)) throw new SchemaError(where, "required excludes optional and computed");
  if (a.writeOnly && computed) throw new SchemaError(where, "a write-only attribute cannot be computed");
  if (a.default !== undefined && !(optional && computed)) {
    throw new SchemaError(where, "a default needs optional: true and computed: true");
  }
}

function wireAttributes(prefix: string, attrs: Attributes): WireAttribute[] {
  return Object.entries(attrs).map(([name, a]) => {
    const where = prefix ? `${prefix}.${name}` : name;
    if (!NAME.test(name)) throw new SchemaError(where, "attribute names are lower snake_case");
    checkAttribute(where, a);
    const base = {
      name,
      description: a.description ?? "",
      required: a.required ?? false,
      optional: a.optional ?? false,
      computed: a.computed ?? false,
      sensitive: a.sensitive ?? false,
      writeOnly: a.writeOnly ?? false,
      deprecated: a.deprecationMessage !== undefined,
    };
    if (a.kind === "typed") return { ...base, type: a.type };
    return { ...base, nestedType: { attributes: wireAttributes(where, a.attributes), nesting: a.nesting } };
  });
}

function wireBlock(prefix: string, b: Block, description?: string): WireBlock {
  const blockTypes = Object.entries(b.blocks ?? {}).map(([typeName, nbk]: [string, NestedBlock]) => {
    const where = prefix ? `${prefix}.${typeName}` : typeName;
    if (!NAME.test(typeName)) throw new SchemaError(where, "block type names are lower snake_case");
    if (b.attributes[typeName]) throw new SchemaError(where, "a block and an attribute share this name");
    const sized = nbk.nesting === "list" || nbk.nesting === "set";
    if (!sized && (nbk.minItems || nbk.maxItems)) throw new SchemaError(where, "minItems/maxItems need list or set");
    return {
      typeName,
      block: wireBlock(where, nbk.block, nbk.description),
      nesting: nbk.nesting,
      minItems: nbk.minItems ?? 0,
      maxItems: nbk.maxItems ?? 0,
    };
  });
  return {
    attributes: wireAttributes(prefix, b.attributes),
    blockTypes,
    description: description ?? b.description ?? "",
    deprecated: b.deprecationMessage !== undefined,
  };
}

/** The engine's view of a schema; throws SchemaError for an invalid schema. */
export function toWire(schema: Schema): WireSchema {
  return { version: schema.version ?? 0, block: wireBlock("", schema) };
}

const blockTypes = new WeakMap<Block, CtyType>();

/** The cty object type of a block's values (cached per block object). */
export function typeOfBlock(b: Block): CtyType {
  let t = blockTypes.get(b);
  if (!t) {
    t = impliedType(wireBlock("", b));
    blockTypes.set(b, t);
  }
  return t;
}

/** The cty type of one attribute's values. */
export function typeOfAttribute(name: string, a: Attribute): CtyType {
  return attributeType(wireAttributes("", { [name]: a })[0]);
}
