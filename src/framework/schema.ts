/**
 * The schema DSL: attributes, nested attributes and nested blocks, with the flags, defaults, validators and plan
 * modifiers the server enforces. Build schemas with `attr.*` and `block.*`; `toWire` turns them into a WireSchema.
 */
import type { PlanModifier } from "./plan-modifiers.js";
import type { Validator } from "./validators.js";
import type { CtyType, Value } from "./values.js";
import type { BlockNesting, ObjectNesting } from "./wire-schema.js";

/** What every attribute may say about itself. Exactly one of required / optional / computed must hold (optional+computed is allowed). */
export interface AttributeOptions {
  /** Shown in generated docs and `terraform providers schema`. @default "" */
  readonly description?: string;
  /** The user must set it. */
  readonly required?: boolean;
  /** The user may set it. */
  readonly optional?: boolean;
  /** The provider sets it (alone: read-only; with optional: the provider fills it when the user leaves it out). */
  readonly computed?: boolean;
  /** The engine hides it in plan output; the server also redacts it from diagnostics. */
  readonly sensitive?: boolean;
  /** Accepted in config, never stored in plan or state (Terraform ≥ 1.11). Cannot be computed. */
  readonly writeOnly?: boolean;
  /** Marks the attribute deprecated; the text tells users what to use instead. */
  readonly deprecationMessage?: string;
  /** Static value used when the config leaves it null; needs optional + computed. */
  readonly default?: Value;
  /** Run on known, non-null config values during validation. */
  readonly validators?: readonly Validator[];
  /** Run during plan, in order, after defaults and unknown-marking. */
  readonly planModifiers?: readonly PlanModifier[];
}

/** An attribute of a plain cty type (primitive, collection, object or dynamic). */
export interface TypedAttribute extends AttributeOptions {
  readonly kind: "typed";
  readonly type: CtyType;
}

/** An attribute whose value is an object, or a collection of objects, with attributes of their own. */
export interface NestedAttribute extends AttributeOptions {
  readonly kind: "nested";
  readonly nesting: ObjectNesting;
  readonly attributes: Attributes;
}

/** Any attribute. */
export type Attribute = TypedAttribute | NestedAttribute;

/** Attributes by their snake_case name. */
export type Attributes = { readonly [name: string]: Attribute };

/** A block: attributes plus nested blocks. */
export interface Block {
  readonly description?: string;
  readonly deprecationMessage?: string;
  readonly attributes: Attributes;
  readonly blocks?: { readonly [typeName: string]: NestedBlock };
}

/** Options of a nested block. */
export interface NestedBlockOptions {
  /** Documents the block type; overrides the inner block's description. */
  readonly description?: string;
  /** Fewest blocks allowed (list and set nesting). @default 0 */
  readonly minItems?: number;
  /** Most blocks allowed (list and set nesting); 0 means no limit. @default 0 */
  readonly maxItems?: number;
  /** Run on the known block value (object, list, set or map). */
  readonly validators?: readonly Validator[];
  /** Run during plan on the block value. */
  readonly planModifiers?: readonly PlanModifier[];
}

/** A nested block of some nesting mode. */
export interface NestedBlock extends NestedBlockOptions {
  readonly kind: "block";
  readonly nesting: BlockNesting;
  readonly block: Block;
}

/** A resource, data source or provider schema; `version` is the state schema version (resources only). */
export interface Schema extends Block {
  /** State schema version; bump it with an upgrader in Resource.upgradeState. @default 0 */
  readonly version?: number;
}

function typed(type: CtyType, o: AttributeOptions): TypedAttribute {
  return { ...o, kind: "typed", type };
}

function nested(nesting: ObjectNesting, attributes: Attributes, o: AttributeOptions): NestedAttribute {
  return { ...o, kind: "nested", nesting, attributes };
}

/** Options `O` with no key AttributeOptions lacks (generic parameters skip excess-property checks). */
type Exact<O> = O & { readonly [K in Exclude<keyof O, keyof AttributeOptions>]: never };

/** A typed attribute that keeps its literal type and flags, so `ModelOf` (model.ts) can type its value. */
export type TypedAttr<T extends CtyType, O extends AttributeOptions> = Omit<TypedAttribute, "type"> & {
  readonly type: T;
} & O;

/** A nested attribute that keeps its literal nesting, attributes and flags. */
export type NestedAttr<N extends ObjectNesting, A extends Attributes, O extends AttributeOptions> = Omit<
  NestedAttribute,
  "nesting" | "attributes"
> & {
  readonly nesting: N;
  readonly attributes: A;
} & O;

const t =
  <const T extends CtyType>(type: T) =>
  <const O extends AttributeOptions>(o: Exact<O>): TypedAttr<T, O> =>
    typed(type, o) as TypedAttr<T, O>;

function collection<const O extends AttributeOptions, const C extends CtyType>(type: C, o: Exact<O>): TypedAttr<C, O> {
  return typed(type, o) as TypedAttr<C, O>;
}

const nest =
  <const N extends ObjectNesting>(n: N) =>
  <const A extends Attributes, const O extends AttributeOptions>(attributes: A, o: Exact<O>): NestedAttr<N, A, O> =>
    nested(n, attributes, o) as NestedAttr<N, A, O>;

/** Attribute builders: `attr.string({ required: true })`, `attr.list("string", { optional: true })`. */
export const attr = {
  string: t("string"),
  number: t("number"),
  bool: t("bool"),
  dynamic: t("dynamic"),
  list: <const E extends CtyType, const O extends AttributeOptions>(e: E, o: Exact<O>) =>
    collection<O, readonly ["list", E]>(["list", e], o),
  set: <const E extends CtyType, const O extends AttributeOptions>(e: E, o: Exact<O>) =>
    collection<O, readonly ["set", E]>(["set", e], o),
  map: <const E extends CtyType, const O extends AttributeOptions>(e: E, o: Exact<O>) =>
    collection<O, readonly ["map", E]>(["map", e], o),
  object: <const F extends { readonly [name: string]: CtyType }, const O extends AttributeOptions>(
    fields: F,
    o: Exact<O>,
  ): TypedAttr<readonly ["object", F], O> => typed(["object", fields], o) as TypedAttr<readonly ["object", F], O>,
  /** A nested attribute holding one object. */
  single: nest("single"),
  listNested: nest("list"),
  setNested: nest("set"),
  mapNested: nest("map"),
} as const;

function nb(nesting: BlockNesting, b: Block, o: NestedBlockOptions = {}): NestedBlock {
  return { ...o, kind: "block", nesting, block: b };
}

/** A nested block that keeps its literal nesting and inner block, so `ModelOf` can type its value. */
export type TypedBlock<N extends BlockNesting, B extends Block> = Omit<NestedBlock, "nesting" | "block"> & {
  readonly nesting: N;
  readonly block: B;
};

const nbOf =
  <const N extends BlockNesting>(n: N) =>
  <const B extends Block>(b: B, o?: NestedBlockOptions): TypedBlock<N, B> =>
    nb(n, b, o) as TypedBlock<N, B>;

/** Nested block builders: `block.list({ attributes: {...} }, { maxItems: 4 })`. */
export const block = {
  single: nbOf("single"),
  list: nbOf("list"),
  set: nbOf("set"),
  map: nbOf("map"),
  /** Always present (an object of nulls when absent from config); groups attributes visually. */
  group: nbOf("group"),
} as const;
