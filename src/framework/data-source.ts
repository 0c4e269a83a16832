/** The DataSource contract: read-only lookups whose result lives only in the plan/state of one run. */

import type {
  ConfigureRequest,
  ConfigureResponse,
  HandlerRequest,
  HandlerResponse,
  ValidateConfigRequest,
  ValidateConfigResponse,
} from "./resource.js";
import type { Schema } from "./schema.js";
import type { ObjectValue } from "./schema-values.js";
import type { Value } from "./values.js";

/** Input of a data source read. */
export interface DataSourceReadRequest extends HandlerRequest {
  /** Wholly known: the engine defers the read otherwise. */
  readonly config: ObjectValue;
}
/** `state` starts as the config: fill every computed attribute. It must end non-null and wholly known. */
export interface DataSourceReadResponse extends HandlerResponse {
  state: Value;
}

type Handler<Req, Resp> = (req: Req, resp: Resp) => void | Promise<void>;

/** A data source type. */
export interface DataSource {
  /** Full type name, e.g. "rackform_inventory". */
  readonly typeName: string;
  readonly schema: Schema;
  read: Handler<DataSourceReadRequest, DataSourceReadResponse>;
  /** Capability: receive the provider's data-source data once it is configured. */
  configure?: Handler<ConfigureRequest, ConfigureResponse>;
  /** Capability: cross-attribute checks beyond the schema's validators. */
  validateConfig?: Handler<ValidateConfigRequest, ValidateConfigResponse>;
}
