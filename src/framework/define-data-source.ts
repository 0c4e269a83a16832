/**
 * `defineDataSource`: a DataSource whose read receives its config decoded into its typed model (model.ts) and an
 * explicit `deps` object built from the provider's configured data, and returns the model the adapter encodes. The
 * data-source twin of define-resource.ts; the server still sees a plain DataSource (data-source.ts).
 */
import type { DataSource } from "./data-source.js";
import type { TypedRequest } from "./define-resource.js";
import { decode, encode, type ModelOf } from "./model.js";
import type { Schema } from "./schema.js";

type Maybe<T> = T | Promise<T>;

/** A data source written against typed models; `D` is its dependencies. */
export interface DataSourceDefinition<S extends Schema, D> {
  readonly typeName: string;
  readonly schema: S;
  /** Builds the read's dependencies from the provider's configured data (called at configure). */
  readonly deps: (providerData: unknown) => D;
  /**
   * Gets the config (wholly known: the engine defers a read otherwise) and returns the state, every computed attribute
   * filled; undefined after an error diagnostic leaves the config as it came.
   */
  read(r: TypedRequest & { config: ModelOf<S> }, deps: D): Maybe<ModelOf<S> | undefined>;
  /** Cross-attribute checks of the config (it may hold unknowns); called before the provider is configured. */
  validateConfig?(r: TypedRequest & { config: ModelOf<S, "config"> }): Maybe<void>;
}

/** Adapts a typed data-source definition to the server's DataSource contract. */
export function defineDataSource<const S extends Schema, D>(def: DataSourceDefinition<S, D>): DataSource {
  const { schema, typeName } = def;
  let deps: D | undefined;
  const need = (): D => {
    if (deps === undefined) throw new Error(`${typeName} used before the provider was configured`);
    return deps;
  };
  const ds: DataSource = {
    typeName,
    schema,
    configure(req) {
      deps = req.providerData === undefined ? undefined : def.deps(req.providerData);
    },
    async read(req, resp) {
      const config = decode(schema, req.config, "state");
      const s = await def.read({ context: req.context, diagnostics: resp.diagnostics, config }, need());
      if (s !== undefined) resp.state = encode(schema, s);
    },
  };
  const { validateConfig } = def;
  if (validateConfig) {
    ds.validateConfig = async (req, resp) => {
      const config = decode(schema, req.config, "config");
      await validateConfig({ context: req.context, diagnostics: resp.diagnostics, config });
    };
  }
  return ds;
}
