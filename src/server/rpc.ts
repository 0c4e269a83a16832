/**
 * The seam between src/protocol and src/server: every tfplugin6 RPC in decoded form.
 * The protocol layer decodes DynamicValues with `impliedType` of the schema named by the request, calls these methods,
 * and encodes the replies; it never interprets values. The server never sees protobuf or gRPC.
 */
import type { AttributePath, Diagnostic } from "../framework/diagnostics.js";
import type { Value } from "../framework/values.js";
import type { WireSchema } from "../framework/wire-schema.js";

export interface ServerCapabilities {
  readonly planDestroy: boolean;
  readonly getProviderSchemaOptional: boolean;
}

export interface GetProviderSchemaResponse {
  readonly provider: WireSchema;
  readonly resourceSchemas: Readonly<Record<string, WireSchema>>;
  readonly dataSourceSchemas: Readonly<Record<string, WireSchema>>;
  readonly serverCapabilities: ServerCapabilities;
  readonly diagnostics: readonly Diagnostic[];
}

export interface ClientCapabilities {
  /** The engine supports deferred actions (tfplugin6 ClientCapabilities.deferral_allowed). */
  readonly deferralAllowed: boolean;
  /** The engine supports write-only attributes (ValidateResourceConfig, tfplugin6.9+). */
  readonly writeOnlyAttributesAllowed: boolean;
}

export interface DiagnosticsResponse {
  readonly diagnostics: readonly Diagnostic[];
}

export interface UpgradeResourceStateRequest {
  readonly typeName: string;
  /** Schema version the stored state was written with. */
  readonly version: number;
  /** The stored state as parsed JSON (RawState.json), or undefined when only flatmap was sent. */
  readonly rawJson?: unknown;
  readonly rawFlatmap?: Readonly<Record<string, string>>;
}

export interface ReadResourceRequest {
  readonly typeName: string;
  readonly currentState: Value;
  readonly private: Uint8Array;
  readonly clientCapabilities?: ClientCapabilities;
}

export interface PlanResourceChangeRequest {
  readonly typeName: string;
  readonly priorState: Value;
  readonly proposedNewState: Value;
  readonly config: Value;
  readonly priorPrivate: Uint8Array;
  readonly clientCapabilities?: ClientCapabilities;
}

export interface PlanResourceChangeResponse {
  readonly plannedState: Value;
  readonly requiresReplace: readonly AttributePath[];
  readonly plannedPrivate: Uint8Array;
  readonly diagnostics: readonly Diagnostic[];
}

export interface ApplyResourceChangeRequest {
  readonly typeName: string;
  readonly priorState: Value;
  readonly plannedState: Value;
  readonly config: Value;
  readonly plannedPrivate: Uint8Array;
}

export interface ImportedResource {
  readonly typeName: string;
  readonly state: Value;
  readonly private: Uint8Array;
}

/** What src/protocol calls. Implementations never throw for user problems: they return diagnostics. */
export interface ProviderServer {
  getProviderSchema(): GetProviderSchemaResponse;
  validateProviderConfig(req: { config: Value }): Promise<DiagnosticsResponse>;
  validateResourceConfig(req: {
    typeName: string;
    config: Value;
    clientCapabilities?: ClientCapabilities;
  }): Promise<DiagnosticsResponse>;
  validateDataResourceConfig(req: { typeName: string; config: Value }): Promise<DiagnosticsResponse>;
  configureProvider(req: {
    terraformVersion: string;
    config: Value;
    clientCapabilities?: ClientCapabilities;
  }): Promise<DiagnosticsResponse>;
  upgradeResourceState(
    req: UpgradeResourceStateRequest,
  ): Promise<{ upgradedState: Value; diagnostics: readonly Diagnostic[] }>;
  readResource(
    req: ReadResourceRequest,
  ): Promise<{ newState: Value; private: Uint8Array; diagnostics: readonly Diagnostic[] }>;
  planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse>;
  applyResourceChange(
    req: ApplyResourceChangeRequest,
  ): Promise<{ newState: Value; private: Uint8Array; diagnostics: readonly Diagnostic[] }>;
  importResourceState(req: {
    typeName: string;
    id: string;
    clientCapabilities?: ClientCapabilities;
  }): Promise<{ imported: readonly ImportedResource[]; diagnostics: readonly Diagnostic[] }>;
  readDataSource(req: {
    typeName: string;
    config: Value;
    clientCapabilities?: ClientCapabilities;
  }): Promise<{ state: Value; diagnostics: readonly Diagnostic[] }>;
  /** Cancel in-flight work and return fast; `error` is reported to the engine. */
  stopProvider(): Promise<{ error?: string }>;
  /** Before the process exits: the provider releases remote sessions (Provider.close). Never rejects. */
  close?(): Promise<void>;
}
