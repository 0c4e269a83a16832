/** What every RPC adapter shares: the ProviderServer, the types implied by its schema, and the bug guard. */
import type { CtyType } from "../../framework/values.js";
import { impliedType } from "../../framework/wire-schema.js";
import type { GetProviderSchemaResponse, ProviderServer } from "../../server/rpc.js";
import { bugDiagnostic, type PbDiagnostic, type PbDynamicValue } from "../wire.js";

/** Which schema family a type name is looked up in. */
export type SchemaKind = "resource" | "data source";

/** Per-process state for the adapters. The schema is fixed for the life of a provider process, so it is cached. */
export class RpcContext {
  private schemaCache?: GetProviderSchemaResponse;
  private readonly types = new Map<string, CtyType>();

  constructor(readonly server: ProviderServer) {}

  /** The server's schema, computed once. */
  schema(): GetProviderSchemaResponse {
    this.schemaCache ??= this.server.getProviderSchema();
    return this.schemaCache;
  }

  /** The cty type of the provider's configuration block. */
  providerType(): CtyType {
    return this.cached("provider", () => impliedType(this.schema().provider.block));
  }

  /** The cty type of a resource or data source, or undefined when the provider has no such type. */
  typeOf(kind: SchemaKind, typeName: string): CtyType | undefined {
    const s = this.schema();
    const schemas = kind === "resource" ? s.resourceSchemas : s.dataSourceSchemas;
    if (!Object.hasOwn(schemas, typeName)) return undefined;
    return this.cached(`${kind}:${typeName}`, () => impliedType(schemas[typeName].block));
  }

  private cached(key: string, make: () => CtyType): CtyType {
    let t = this.types.get(key);
    if (!t) this.types.set(key, (t = make()));
    return t;
  }
}

/** The error diagnostic for a type name the provider does not have (the engine only asks for names in the schema). */
export function unknownTypeDiagnostic(kind: SchemaKind, typeName: string): PbDiagnostic {
  return {
    severity: "ERROR",
    summary: `Unknown ${kind} type`,
    detail: `This provider has no ${kind} type named "${typeName}". The engine only asks for types the provider's schema lists, so this is always a bug in the provider or a mismatched plugin binary.`,
  };
}

/**
 * Runs an adapter body; an exception (a server bug or a codec failure) becomes one "Unexpected provider error"
 * diagnostic in a response of the same shape, and is logged to stderr with its stack for the developer.
 */
export async function guard<R extends { diagnostics?: PbDiagnostic[] }>(
  rpc: string,
  body: () => Promise<R>,
): Promise<R | { diagnostics: PbDiagnostic[] }> {
  try {
    return await body();
  } catch (e) {
    process.stderr.write(`[rackform] ${rpc} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return { diagnostics: [bugDiagnostic(e)] };
  }
}

/** When a response carries no new_state (a failure), fills in the fallback fields (the request's state, unchanged). */
export async function withFallbackState<R extends { new_state?: PbDynamicValue; diagnostics: PbDiagnostic[] }>(
  fallback: Partial<R>,
  pending: Promise<R | { diagnostics: PbDiagnostic[] }>,
): Promise<R> {
  // Every field of R but diagnostics is optional, so a diagnostics-only answer is a valid R.
  const res = (await pending) as R;
  if (res.new_state || !fallback.new_state) return res;
  return { ...fallback, ...res, new_state: fallback.new_state };
}
