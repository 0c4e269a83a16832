/**
 * tfplugin6 message shapes as @grpc/proto-loader hands them over (keepCase, enums as names, bytes as Buffer), and the
 * encoders from the framework's protobuf-free types: diagnostics, attribute paths, schemas, capabilities.
 */
import type { AttributePath, Diagnostic } from "../framework/diagnostics.js";
import type { WireAttribute, WireBlock, WireSchema } from "../framework/wire-schema.js";
import type { ClientCapabilities, ServerCapabilities } from "../server/rpc.js";
import type { WireDynamicValue } from "./codec.js";
import { typeJson } from "./cty-type.js";

/** tfplugin6.AttributePath.Step: exactly one selector is set. */
export interface PbStep {
  attribute_name?: string;
  element_key_string?: string;
  element_key_int?: number;
}

/** tfplugin6.AttributePath. */
export interface PbAttributePath {
  steps: PbStep[];
}

/** tfplugin6.Diagnostic. */
export interface PbDiagnostic {
  severity: "ERROR" | "WARNING";
  summary: string;
  detail: string;
  attribute?: PbAttributePath;
}

/** tfplugin6.ClientCapabilities as received. */
export interface PbClientCapabilities {
  deferral_allowed?: boolean;
  write_only_attributes_allowed?: boolean;
}

/** A request field holding a DynamicValue (null when the engine left it unset). */
export type PbDynamicValue = WireDynamicValue | null | undefined;

/** Encodes one attribute path as tfplugin6.AttributePath. */
export function encodePath(p: AttributePath): PbAttributePath {
  return {
    steps: p.map((s): PbStep => {
      if ("attr" in s) return { attribute_name: s.attr };
      if ("key" in s) return { element_key_string: s.key };
      return { element_key_int: s.index };
    }),
  };
}

/** Encodes diagnostics; an attribute path is sent only when it has steps (an empty path means "whole object"). */
export function encodeDiagnostics(ds: readonly Diagnostic[]): PbDiagnostic[] {
  return ds.map((d) => {
    const out: PbDiagnostic = {
      severity: d.severity === "warning" ? "WARNING" : "ERROR",
      summary: d.summary,
      detail: d.detail,
    };
    if (d.attribute && d.attribute.length > 0) out.attribute = encodePath(d.attribute);
    return out;
  });
}

/** One error diagnostic for an exception that escaped the server or the codec: always a provider bug. */
export function bugDiagnostic(e: unknown): PbDiagnostic {
  const message = e instanceof Error ? e.message : String(e);
  return {
    severity: "ERROR",
    summary: "Unexpected provider error",
    detail: `This is always a bug in the provider: ${message}`,
  };
}

/** Decodes tfplugin6.ClientCapabilities (undefined when the engine sent none). */
export function decodeClientCapabilities(c: PbClientCapabilities | null | undefined): ClientCapabilities | undefined {
  if (!c) return undefined;
  return {
    deferralAllowed: c.deferral_allowed === true,
    writeOnlyAttributesAllowed: c.write_only_attributes_allowed === true,
  };
}

/** Encodes tfplugin6.ServerCapabilities. */
export function encodeServerCapabilities(c: ServerCapabilities): Record<string, boolean> {
  return {
    plan_destroy: c.planDestroy,
    get_provider_schema_optional: c.getProviderSchemaOptional,
    move_resource_state: false,
  };
}

function encodeAttribute(a: WireAttribute): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: a.name,
    description: a.description,
    description_kind: "PLAIN",
    required: a.required,
    optional: a.optional,
    computed: a.computed,
    sensitive: a.sensitive,
    deprecated: a.deprecated,
    write_only: a.writeOnly,
  };
  if (a.type !== undefined) out.type = Buffer.from(typeJson(a.type), "utf8");
  if (a.nestedType) {
    out.nested_type = {
      attributes: a.nestedType.attributes.map(encodeAttribute),
      nesting: a.nestedType.nesting.toUpperCase(),
    };
  }
  return out;
}

function encodeBlock(b: WireBlock): Record<string, unknown> {
  return {
    version: 0,
    attributes: b.attributes.map(encodeAttribute),
    block_types: b.blockTypes.map((nb) => ({
      type_name: nb.typeName,
      block: encodeBlock(nb.block),
      nesting: nb.nesting.toUpperCase(),
      min_items: nb.minItems,
      max_items: nb.maxItems,
    })),
    description: b.description,
    description_kind: "PLAIN",
    deprecated: b.deprecated,
  };
}

/** Encodes a WireSchema as tfplugin6.Schema. */
export function encodeSchema(s: WireSchema): Record<string, unknown> {
  return { version: s.version, block: encodeBlock(s.block) };
}

/** Bytes from the engine as a Uint8Array (proto-loader gives Buffers; absent bytes fields are empty). */
export function bytesOf(b: Uint8Array | null | undefined): Uint8Array {
  return b ? new Uint8Array(b) : new Uint8Array(0);
}

/** Bytes for the engine. */
export function toBuffer(b: Uint8Array | undefined): Buffer {
  return b ? Buffer.from(b) : Buffer.alloc(0);
}
