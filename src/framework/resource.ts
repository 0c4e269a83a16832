/**
 * The Resource contract. Handlers get a request and a pre-filled response; they report problems as diagnostics in
 * `resp.diagnostics` (an exception is treated as a provider bug). Optional capabilities are checked at runtime.
 */
import type { Context } from "./context.js";
import type { AttributePath, Diagnostics } from "./diagnostics.js";
import type { JsonObject } from "./json-value.js";
import type { PrivateState } from "./private-state.js";
import type { Schema } from "./schema.js";
import type { ObjectValue } from "./schema-values.js";
import type { Value } from "./values.js";

/** Fields every handler request carries. */
export interface HandlerRequest {
  readonly context: Context;
}

/** Fields every handler response carries. */
export interface HandlerResponse {
  readonly diagnostics: Diagnostics;
}

/** Input of create. */
export interface CreateRequest extends HandlerRequest {
  readonly config: ObjectValue;
  /** The planned state; computed attributes may be unknown. */
  readonly plan: ObjectValue;
}
/** `state` starts as the plan: replace every unknown. Leave it holding unknowns on error to record nothing. */
export interface CreateResponse extends HandlerResponse {
  state: Value;
  private: PrivateState;
}

/** Input of read. */
export interface ReadRequest extends HandlerRequest {
  readonly state: ObjectValue;
  readonly private: PrivateState;
}
/** `state` starts as the current state; set it to null when the object is gone. */
export interface ReadResponse extends HandlerResponse {
  state: Value;
  private: PrivateState;
}

/** Input of update. */
export interface UpdateRequest extends HandlerRequest {
  readonly config: ObjectValue;
  readonly plan: ObjectValue;
  readonly state: ObjectValue;
  readonly private: PrivateState;
}
/** `state` starts as the plan; on error with unknowns left in it, the prior state is kept. */
export interface UpdateResponse extends HandlerResponse {
  state: Value;
  private: PrivateState;
}

/** Input of delete. */
export interface DeleteRequest extends HandlerRequest {
  readonly state: ObjectValue;
  readonly private: PrivateState;
}
/** Without error diagnostics the object is removed from state. */
export type DeleteResponse = HandlerResponse;

/** Receives what the provider's configure put in `resourceData` (undefined before configuration). */
export interface ConfigureRequest extends HandlerRequest {
  readonly providerData: unknown;
}
/** Output of a resource's configure. */
export type ConfigureResponse = HandlerResponse;

/** Input of importState. */
export interface ImportStateRequest extends HandlerRequest {
  /** The id the user gave to `terraform import` or an import block. */
  readonly id: string;
}
/** `state` starts as the schema's null object; set at least the id. The engine calls read next. */
export interface ImportStateResponse extends HandlerResponse {
  state: ObjectValue;
  private: PrivateState;
}

/** Input of modifyPlan (the plan after defaults, unknown-marking and attribute plan modifiers). */
export interface ModifyPlanRequest extends HandlerRequest {
  readonly config: Value;
  /** The plan so far; null when the resource is being destroyed. */
  readonly plan: Value;
  /** Prior state; null on create. */
  readonly state: Value;
  readonly private: PrivateState;
}
/** Output of modifyPlan. */
export interface ModifyPlanResponse extends HandlerResponse {
  plan: Value;
  /** Paths whose change forces replacement (only changed paths are kept). */
  requiresReplace: AttributePath[];
  private: PrivateState;
}

/** Input of validateConfig. */
export interface ValidateConfigRequest extends HandlerRequest {
  /** May hold unknowns: skip those. */
  readonly config: ObjectValue;
}
/** Output of validateConfig: add diagnostics with attribute paths. */
export type ValidateConfigResponse = HandlerResponse;

/** Upgrades stored state JSON of version N to version N+1. */
export type StateUpgrader = (prior: JsonObject, context: Context) => JsonObject | Promise<JsonObject>;

type Handler<Req, Resp> = (req: Req, resp: Resp) => void | Promise<void>;

/** A managed resource type. */
export interface Resource {
  /** Full type name, e.g. "rackform_bmc". */
  readonly typeName: string;
  /** Schema, including its state `version`. */
  readonly schema: Schema;
  create: Handler<CreateRequest, CreateResponse>;
  read: Handler<ReadRequest, ReadResponse>;
  update: Handler<UpdateRequest, UpdateResponse>;
  delete: Handler<DeleteRequest, DeleteResponse>;
  /** Capability: receive the provider's resource data once it is configured. */
  configure?: Handler<ConfigureRequest, ConfigureResponse>;
  /** Capability: `terraform import`. */
  importState?: Handler<ImportStateRequest, ImportStateResponse>;
  /** Capability: adjust the plan after the framework did (values known at plan time, extra replace paths). */
  modifyPlan?: Handler<ModifyPlanRequest, ModifyPlanResponse>;
  /** Capability: upgraders keyed by the version they upgrade FROM; all steps from stored to current must exist. */
  readonly upgradeState?: { readonly [fromVersion: number]: StateUpgrader };
  /** Capability: cross-attribute checks beyond the schema's validators. */
  validateConfig?: Handler<ValidateConfigRequest, ValidateConfigResponse>;
}

/** An importState handler that copies the import id into attribute `attribute` (usually "id"). */
export function importStatePassthroughId(attribute = "id"): Handler<ImportStateRequest, ImportStateResponse> {
  return (req, resp) => {
    resp.state = { ...resp.state, [attribute]: req.id };
  };
}
