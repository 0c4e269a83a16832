/** What one provider process remembers between RPCs: the registry, provider data, cancellation, secrets. */
import { backgroundContext, type Context } from "../framework/context.js";
import type { DataSource } from "../framework/data-source.js";
import { type Diagnostic, type Diagnostics, errorDiag } from "../framework/diagnostics.js";
import { createLogger, engineLogLevel, type Logger } from "../framework/logger.js";
import type { Provider } from "../framework/provider.js";
import { redact } from "../framework/redact.js";
import type { Resource } from "../framework/resource.js";

function message(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The single diagnostic an exception escaping provider code becomes. */
export function unexpectedError(where: string, e: unknown): Diagnostic {
  return errorDiag(
    "Unexpected provider error",
    `${where} failed with an exception: ${message(e)}. This is always a bug in the provider, please report it.`,
  );
}

/** Registry and process-wide state of one server. */
export class ServerState {
  readonly resources = new Map<string, Resource>();
  readonly dataSources = new Map<string, DataSource>();
  /** Problems found while listing resources and data sources, reported by GetProviderSchema. */
  readonly setupDiagnostics: Diagnostic[] = [];
  resourceData: unknown = undefined;
  dataSourceData: unknown = undefined;
  /** Sensitive strings of the provider configuration, redacted from every later diagnostic. */
  providerSecrets: readonly string[] = [];
  private abort = new AbortController();
  private active = 0;

  constructor(
    readonly provider: Provider,
    readonly log: Logger = createLogger({ module: provider.metadata.typeName, level: engineLogLevel() }),
  ) {
    this.register("resource", () => provider.resources(), this.resources);
    this.register("data source", () => provider.dataSources(), this.dataSources);
  }

  private register<T extends { typeName: string }>(kind: string, list: () => readonly T[], into: Map<string, T>): void {
    try {
      for (const item of list()) {
        if (into.has(item.typeName)) {
          this.setupDiagnostics.push(
            errorDiag(
              `Duplicate ${kind} type`,
              `${item.typeName} is registered twice. This is always a bug in the provider, please report it.`,
            ),
          );
        }
        into.set(item.typeName, item);
      }
    } catch (e) {
      this.setupDiagnostics.push(unexpectedError(`Listing ${kind}s`, e));
    }
  }

  /** The context handed to handlers now, logging with the type name; StopProvider aborts its signal. */
  context(typeName?: string): Context {
    const log = typeName ? this.log.with({ tf_resource_type: typeName }) : this.log;
    return backgroundContext(this.abort.signal, log, () => this.active);
  }

  /** Runs one RPC, counted in `inFlight` while it runs (a handler can tell the engine's parallelism in use). */
  async track<T>(fn: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
    }
  }

  /** Aborts in-flight work; later calls get a fresh signal. */
  stop(): void {
    this.abort.abort(new Error("the engine asked the provider to stop"));
    this.abort = new AbortController();
  }

  /** The resource type, or undefined with an error diagnostic added. */
  resource(typeName: string, diags: Diagnostics): Resource | undefined {
    const r = this.resources.get(typeName);
    if (!r) diags.error("Unknown resource type", `This provider has no resource type "${typeName}".`);
    return r;
  }

  /** The data source type, or undefined with an error diagnostic added. */
  dataSource(typeName: string, diags: Diagnostics): DataSource | undefined {
    const d = this.dataSources.get(typeName);
    if (!d) diags.error("Unknown data source type", `This provider has no data source type "${typeName}".`);
    return d;
  }

  /** Runs provider code; an exception becomes the one "Unexpected provider error" diagnostic. Returns false then. */
  async guard(diags: Diagnostics, where: string, fn: () => unknown): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (e) {
      this.log.error("provider code threw", { where, error: e instanceof Error ? e.name : typeof e });
      diags.add(unexpectedError(where, e));
      return false;
    }
  }

  /** The diagnostics to send, with every known secret redacted. */
  finish(diags: Diagnostics, secrets: readonly string[] = []): Diagnostic[] {
    const all = [...this.providerSecrets, ...secrets];
    if (all.length === 0) return [...diags.items];
    return diags.items.map((d) => ({ ...d, summary: redact(d.summary, all), detail: redact(d.detail, all) }));
  }
}
