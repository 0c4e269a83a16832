/**
 * `defineResource`: a Resource whose handlers receive typed models (model.ts) and an explicit `deps` object built
 * from the provider's configured data, and return models that the adapter encodes. The server still sees a plain
 * Resource (resource.ts).
 */
import type { Context } from "./context.js";
import type { Diagnostics } from "./diagnostics.js";
import { decode, encode, type ModelOf } from "./model.js";
import type { Resource, StateUpgrader } from "./resource.js";
import type { Schema } from "./schema.js";
import type { Value } from "./values.js";

/** What every typed handler gets besides its models. */
export interface TypedRequest {
  readonly context: Context;
  readonly diagnostics: Diagnostics;
}

type Maybe<T> = T | Promise<T>;

/** A resource written against typed models; `D` is its dependencies. */
export interface ResourceDefinition<S extends Schema, D> {
  readonly typeName: string;
  readonly schema: S;
  /** Builds the handlers' dependencies from the provider's configured data (called at configure). */
  readonly deps: (providerData: unknown) => D;
  /** Returns the new state; undefined leaves the plan (with its unknowns: nothing is recorded). */
  create(r: TypedRequest & { plan: ModelOf<S, "plan"> }, deps: D): Maybe<ModelOf<S> | undefined>;
  /** Returns the refreshed state, or null when the object is gone. */
  read(r: TypedRequest & { state: ModelOf<S> }, deps: D): Maybe<ModelOf<S> | null>;
  /** Returns the new state; undefined leaves the plan. */
  update(r: TypedRequest & { plan: ModelOf<S, "plan">; state: ModelOf<S> }, deps: D): Maybe<ModelOf<S> | undefined>;
  delete(r: TypedRequest & { state: ModelOf<S> }, deps: D): Maybe<void>;
  /** Plan-time checks: diagnostics only. `plan` is null on destroy, `state` on create. */
  modifyPlan?(r: TypedRequest & { plan: ModelOf<S, "config"> | null; state: ModelOf<S> | null }, deps: D): Maybe<void>;
  /** Returns the attributes an import id names (the rest stay null), or undefined after a diagnostic. */
  importState?(r: TypedRequest & { id: string }): Partial<ModelOf<S>> | undefined;
  readonly upgradeState?: { readonly [fromVersion: number]: StateUpgrader };
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
      const r = { context: req.context, diagnostics: resp.diagnostics, plan: decode(schema, req.plan, "plan") };
      const s = await def.create(r, need());
      if (s !== undefined) resp.state = encode(schema, s);
    },
    async read(req, resp) {
      const s = await def.read(
        { context: req.context, diagnostics: resp.diagnostics, state: state(req.state) },
        need(),
      );
      resp.state = s === null ? null : encode(schema, s);
    },
    async update(req, resp) {
      const plan = decode(schema, req.plan, "plan");
      const r = { context: req.context, diagnostics: resp.diagnostics, plan, state: state(req.state) };
      const s = await def.update(r, need());
      if (s !== undefined) resp.state = encode(schema, s);
    },
    async delete(req, resp) {
      await def.delete({ context: req.context, diagnostics: resp.diagnostics, state: state(req.state) }, need());
    },
    ...(def.upgradeState ? { upgradeState: def.upgradeState } : {}),
  };
  const { modifyPlan, importState } = def;
  if (modifyPlan) {
    resource.modifyPlan = async (req, resp) => {
      const plan = req.plan === null ? null : decode(schema, req.plan, "config");
      const prior = req.state === null ? null : state(req.state);
      await modifyPlan({ context: req.context, diagnostics: resp.diagnostics, plan, state: prior }, need());
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
