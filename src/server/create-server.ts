/** createServer: the ProviderServer the protocol layer calls, one RPC per file. */

import type { Diagnostic } from "../framework/diagnostics.js";
import type { Logger } from "../framework/logger.js";
import type { Provider } from "../framework/provider.js";
import { applyResourceChange } from "./apply-resource-change.js";
import { configureProvider } from "./configure-provider.js";
import { getProviderSchema } from "./get-provider-schema.js";
import { importResourceState } from "./import-resource-state.js";
import { planResourceChange } from "./plan-resource-change.js";
import { readDataSource } from "./read-data-source.js";
import { readResource } from "./read-resource.js";
import type { ProviderServer } from "./rpc.js";
import { ServerState, unexpectedError } from "./server-state.js";
import { stopProvider } from "./stop-provider.js";
import { upgradeResourceState } from "./upgrade-resource-state.js";
import { validateDataResourceConfig } from "./validate-data-resource-config.js";
import { validateProviderConfig } from "./validate-provider-config.js";
import { validateResourceConfig } from "./validate-resource-config.js";

/** Options of `createServer`. */
export interface ServerOptions {
  /** Where the server and handlers log. @default hclog JSON lines on stderr, @module = the provider's type name */
  readonly logger?: Logger;
}

/** Serves `provider`: every RPC's semantics plus the contract checks; never throws for provider mistakes. */
export function createServer(provider: Provider, opts: ServerOptions = {}): ProviderServer {
  const s = new ServerState(provider, opts.logger);
  // Last line of defence against a bug in the server itself: answer with a diagnostic, never reject.
  const safe =
    <Req, Resp>(name: string, fn: (req: Req) => Promise<Resp>, fallback: (req: Req, d: Diagnostic[]) => Resp) =>
    async (req: Req): Promise<Resp> => {
      try {
        return await s.track(() => fn(req));
      } catch (e) {
        return fallback(req, [unexpectedError(`The ${name} RPC`, e)]);
      }
    };
  const diagsOnly = <R>(_req: R, diagnostics: Diagnostic[]) => ({ diagnostics });
  return {
    getProviderSchema: () => getProviderSchema(s),
    validateProviderConfig: safe("ValidateProviderConfig", (req) => validateProviderConfig(s, req), diagsOnly),
    validateResourceConfig: safe("ValidateResourceConfig", (req) => validateResourceConfig(s, req), diagsOnly),
    validateDataResourceConfig: safe(
      "ValidateDataResourceConfig",
      (req) => validateDataResourceConfig(s, req),
      diagsOnly,
    ),
    configureProvider: safe("ConfigureProvider", (req) => configureProvider(s, req), diagsOnly),
    upgradeResourceState: safe(
      "UpgradeResourceState",
      (req) => upgradeResourceState(s, req),
      (_r, diagnostics) => ({
        upgradedState: null,
        diagnostics,
      }),
    ),
    readResource: safe(
      "ReadResource",
      (req) => readResource(s, req),
      (req, diagnostics) => ({
        newState: req.currentState,
        private: req.private,
        diagnostics,
      }),
    ),
    planResourceChange: safe(
      "PlanResourceChange",
      (req) => planResourceChange(s, req),
      (req, diagnostics) => ({
        plannedState: req.proposedNewState,
        requiresReplace: [],
        plannedPrivate: req.priorPrivate,
        diagnostics,
      }),
    ),
    applyResourceChange: safe(
      "ApplyResourceChange",
      (req) => applyResourceChange(s, req),
      (req, diagnostics) => ({
        newState: req.priorState,
        private: req.plannedPrivate,
        diagnostics,
      }),
    ),
    importResourceState: safe(
      "ImportResourceState",
      (req) => importResourceState(s, req),
      (_r, diagnostics) => ({
        imported: [],
        diagnostics,
      }),
    ),
    readDataSource: safe(
      "ReadDataSource",
      (req) => readDataSource(s, req),
      (req, diagnostics) => ({
        state: req.config,
        diagnostics,
      }),
    ),
    stopProvider: () => stopProvider(s),
    close: async () => {
      try {
        await provider.close?.();
      } catch {
        // Best effort: the process is exiting, and a session left behind times out on the device.
      }
    },
  };
}
