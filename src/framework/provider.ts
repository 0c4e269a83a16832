/** The Provider contract: its own schema and configuration, and the resource and data source types it serves. */
import type { DataSource } from "./data-source.js";
import type {
  HandlerRequest,
  HandlerResponse,
  Resource,
  ValidateConfigRequest,
  ValidateConfigResponse,
} from "./resource.js";
import type { Schema } from "./schema.js";
import type { ObjectValue } from "./schema-values.js";

/** What the engine supports (structurally the same as the server's ClientCapabilities; framework imports nothing else). */
export interface EngineCapabilities {
  readonly deferralAllowed: boolean;
  readonly writeOnlyAttributesAllowed: boolean;
}

/** Who the provider is. */
export interface ProviderMetadata {
  /** Prefix of every resource type, e.g. "rackform". */
  readonly typeName: string;
  readonly version: string;
}

/** Input of the provider's configure. */
export interface ProviderConfigureRequest extends HandlerRequest {
  /** May hold unknowns during plan (e.g. an endpoint from another resource): configure what you can. */
  readonly config: ObjectValue;
  readonly terraformVersion: string;
  readonly clientCapabilities?: EngineCapabilities;
}
/** Whatever is put in resourceData / dataSourceData is handed to each resource's / data source's configure. */
export interface ProviderConfigureResponse extends HandlerResponse {
  resourceData?: unknown;
  dataSourceData?: unknown;
}

type Handler<Req, Resp> = (req: Req, resp: Resp) => void | Promise<void>;

/** A provider. */
export interface Provider {
  readonly metadata: ProviderMetadata;
  readonly schema: Schema;
  configure: Handler<ProviderConfigureRequest, ProviderConfigureResponse>;
  resources(): readonly Resource[];
  dataSources(): readonly DataSource[];
  /** Capability: cross-attribute checks of the provider block. */
  validateConfig?: Handler<ValidateConfigRequest, ValidateConfigResponse>;
  /**
   * Capability: release what the process holds on remote systems (sessions) before it exits. Called once, when the
   * engine shuts the process down (or it is signalled or orphaned), with little time left: keep it short.
   */
  close?(): Promise<void>;
}
