/**
 * `defineResource`: a Resource whose handlers receive typed models (model.ts) and an explicit `deps` object built
 * from the provider's configured data, and return models that the adapter encodes. The server still sees a plain
 * Resource (resource.ts).
 */
import type { Context } from "./context.js";
import type { AttributePath, Diagnostics } from "./diagnostics.js";
import { decode, encode, type ModelOf } from "./model.js";
import type { PrivateState } from "./private-state.js";
import type { Resource, StateUpgrader } from "./resource.js";
import type { Schema } from "./schema.js";
import { isUnknown, type Value } from "./values.js";

/** What every typed handler gets besides its models. */
export interface TypedRequest {
  readonly context: Context;
  readonly diagnostics: Diagnostics;
}

/**
 * The private data an apply or read handler sees (planned for create/update/delete, stored for read) and may
 * replace: what `set` was last given is stored with the state (an empty object stores none).
 */
export interface PrivateSlot {
  readonly value: PrivateState;
  set(next: PrivateState): void;
}

/** The request of an apply or read handler: its private data beside context and diagnostics. */
export interface ApplyRequest extends TypedRequest {
  readonly private: PrivateSlot;
}

/** What modifyPlan may change: the plan (undefined keeps it), extra replace paths, the planned private data. */
export interface PlanChange<S> {
  readonly plan?: ModelOf<S, "config">;
  readonly requiresReplace?: readonly AttributePath[];
  readonly private?: PrivateState;
}

/** The request of modifyPlan; `plan` is null on destroy, `state` on create (never called for a wholly unknown plan). */
export interface PlanRequest<S> extends TypedRequest {
  readonly config: ModelOf<S, "config"> | null;
  readonly plan: ModelOf<S, "config"> | null;
  readonly state: ModelOf<S> | null;
  readonly private: PrivateState;
}

type Maybe<T> = T | Promise<T>;

/** A resource written against typed models; `D` is its dependencies. */
export interface ResourceDefinition<S extends Schema, D> {
  readonly typeName: string;
  readonly schema: S;
  /** Builds the handlers' dependencies from the provider's configured data (called at configure). */
  readonly deps: (providerData: unknown) => D;
  /** Returns the new state; undefined leaves the plan (with its unknowns: nothing is recorded). */
  create(r: ApplyRequest & { plan: ModelOf<S, "plan"> }, deps: D): Maybe<ModelOf<S> | undefined>;
  /** Returns the refreshed state, or null when the object is gone. */
  read(r: ApplyRequest & { state: ModelOf<S> }, deps: D): Maybe<ModelOf<S> | null>;
  /** Returns the new state; undefined leaves the plan. */
  update(r: ApplyRequest & { plan: ModelOf<S, "plan">; state: ModelOf<S> }, deps: D): Maybe<ModelOf<S> | undefined>;
  delete(r: ApplyRequest & { state: ModelOf<S> }, deps: D): Maybe<void>;
  /** Plan-time checks and changes; returning nothing keeps the plan as the framework made it. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only checks returns nothing at all
  modifyPlan?(r: PlanRequest<S>, deps: D): Maybe<PlanChange<S> | undefined | void>;
  /** Cross-attribute checks of the config (it may hold unknowns); called before the provider is configured. */
  validateConfig?(r: TypedRequest & { config: ModelOf<S, "config"> }): Maybe<void>;
  /** Returns the attributes an import id names (the rest stay null), or undefined after a diagnostic. */
  importState?(r: TypedRequest & { id: string }): Partial<ModelOf<S>> | undefined;
  readonly upgradeState?: { readonly [fromVersion: number]: StateUpgrader };
}

/** A private slot over a response's private data. */
function slotOf(resp: { private: PrivateState }): PrivateSlot {
  return {
    get value() {
      return resp.private;
    },
    set(next) {
      resp.private = next;
    },
  };
}

/** Adapts a typed resource definition to the server's Resource contract. */
export function defineResource<const S extends Schema, D>(def: ResourceDefinition<S, D>): Resource {
  const { schema, typeName } = def;
  let deps: D | undefined;
  const need = (): D => {
    if (deps === undefined) throw new Error(`${typeName} used before the provider was configured`);
    return deps;
  };
  const state = (v: Value) => decode(schema, v, "state");
  const resource: Resource = {
    typeName,
    schema,
    configure(req) {
      deps = req.providerData === undefined ? undefined : def.deps(req.providerData);
    },
    async create(req, resp) {
      const plan = decode(schema, req.plan, "plan");
      const s = await def.create(
        { context: req.context, diagnostics: resp.diagnostics, private: slotOf(resp), plan },
        need(),
      );
      if (s !== undefined) resp.state = encode(schema, s);
    },
    async read(req, resp) {
      const r = { context: req.context, diagnostics: resp.diagnostics, private: slotOf(resp), state: state(req.state) };
      const s = await def.read(r, need());
      resp.state = s === null ? null : encode(schema, s);
    },
    async update(req, resp) {
      const plan = decode(schema, req.plan, "plan");
      const r = {
        context: req.context,
        diagnostics: resp.diagnostics,
        private: slotOf(resp),
        plan,
        state: state(req.state),
      };
      const s = await def.update(r, need());
      if (s !== undefined) resp.state = encode(schema, s);
    },
    async delete(req, resp) {
      const held = { private: req.private };
      const r = { context: req.context, diagnostics: resp.diagnostics, private: slotOf(held), state: state(req.state) };
      await def.delete(r, need());
    },
    ...(def.upgradeState ? { upgradeState: def.upgradeState } : {}),
  };
  const { modifyPlan, importState, validateConfig } = def;
  if (modifyPlan) {
    resource.modifyPlan = async (req, resp) => {
      // A wholly unknown plan (its whole config still unknown) has nothing a hook could check or change.
      if (isUnknown(req.plan)) return;
      const config = req.config === null ? null : decode(schema, req.config, "config");
      const plan = req.plan === null ? null : decode(schema, req.plan, "config");
      const prior = req.state === null ? null : state(req.state);
      const r = {
        context: req.context,
        diagnostics: resp.diagnostics,
        config,
        plan,
        state: prior,
        private: resp.private,
      };
      const change = await modifyPlan(r, need());
      if (!change) return;
      if (change.plan !== undefined) resp.plan = encode(schema, change.plan);
      if (change.requiresReplace) resp.requiresReplace.push(...change.requiresReplace);
      if (change.private !== undefined) resp.private = change.private;
    };
  }
  if (validateConfig) {
    resource.validateConfig = async (req, resp) => {
      const config = decode(schema, req.config, "config");
      await validateConfig({ context: req.context, diagnostics: resp.diagnostics, config });
    };
  }
  if (importState) {
    resource.importState = (req, resp) => {
      const set = importState({ context: req.context, diagnostics: resp.diagnostics, id: req.id });
      if (!set) return;
      const base = decode(schema, resp.state, "config");
      resp.state = encode(schema, { ...base, ...set } as ModelOf<S, "config">) as typeof resp.state;
    };
  }
  return resource;
}
