/**
 * The schema as the engine sees it (GetProviderSchema), free of protobuf. The framework's schema DSL produces it;
 * the protocol layer encodes it; `impliedType` gives the cty type every DynamicValue of the block is encoded with.
 */
import type { CtyType } from "./values.js";

/** Nesting of a nested attribute's object (tfplugin6 Schema.Object.NestingMode). */
export type ObjectNesting = "single" | "list" | "set" | "map";
/** Nesting of a nested block (tfplugin6 Schema.NestedBlock.NestingMode). */
export type BlockNesting = "single" | "list" | "set" | "map" | "group";

export interface WireAttribute {
  readonly name: string;
  /** The attribute's type; absent when `nestedType` is given. */
  readonly type?: CtyType;
  readonly nestedType?: WireObject;
  readonly description: string;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  /** Write-only (tfplugin6.9+): accepted in config, never stored in state or plan. */
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
}

export interface WireObject {
  readonly attributes: readonly WireAttribute[];
  readonly nesting: ObjectNesting;
}

export interface WireNestedBlock {
  readonly typeName: string;
  readonly block: WireBlock;
  readonly nesting: BlockNesting;
  readonly minItems: number;
  readonly maxItems: number;
}

export interface WireBlock {
  readonly attributes: readonly WireAttribute[];
  readonly blockTypes: readonly WireNestedBlock[];
  readonly description: string;
  readonly deprecated: boolean;
}

export interface WireSchema {
  readonly version: number;
  readonly block: WireBlock;
}

function objectOf(attrs: readonly WireAttribute[]): CtyType {
  const fields: Record<string, CtyType> = {};
  const optional: string[] = [];
  for (const a of attrs) {
    fields[a.name] = attributeType(a);
    if (!a.required) optional.push(a.name);
  }
  return optional.length > 0 ? ["object", fields, optional] : ["object", fields];
}

/** The cty type of one attribute, including nested attributes. */
export function attributeType(a: WireAttribute): CtyType {
  if (a.type) return a.type;
  if (!a.nestedType) throw new Error(`attribute ${a.name} has neither type nor nestedType`);
  const obj = objectOf(a.nestedType.attributes);
  switch (a.nestedType.nesting) {
    case "single":
      return obj;
    case "list":
      return ["list", obj];
    case "set":
      return ["set", obj];
    case "map":
      return ["map", obj];
  }
}

/** The cty object type implied by a block: every attribute and every nested block type is a key. */
export function impliedType(block: WireBlock): CtyType {
  const fields: Record<string, CtyType> = {};
  for (const a of block.attributes) fields[a.name] = attributeType(a);
  for (const b of block.blockTypes) {
    const inner = impliedType(b.block);
    switch (b.nesting) {
      case "single":
      case "group":
        fields[b.typeName] = inner;
        break;
      case "list":
        fields[b.typeName] = ["list", inner];
        break;
      case "set":
        fields[b.typeName] = ["set", inner];
        break;
      case "map":
        fields[b.typeName] = ["map", inner];
        break;
    }
  }
  return ["object", fields];
}
