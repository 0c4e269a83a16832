/**
 * A tiny provider process for protocol tests: one resource `echo_thing` and one data source `echo_data`, implemented
 * straight on ProviderServer (no framework). Run it as the engine would: `node --import tsx echo-provider.ts`.
 * Input "boom" makes PlanResourceChange throw, to show a server bug becomes a diagnostic, not a crash.
 */
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "../../../src/framework/diagnostics.js";
import { UNKNOWN, type Value } from "../../../src/framework/values.js";
import type { WireAttribute, WireSchema } from "../../../src/framework/wire-schema.js";
import { serve } from "../../../src/protocol/serve.js";
import type {
  ApplyResourceChangeRequest,
  GetProviderSchemaResponse,
  PlanResourceChangeRequest,
  PlanResourceChangeResponse,
  ProviderServer,
  ReadResourceRequest,
  UpgradeResourceStateRequest,
} from "../../../src/server/rpc.js";

type Obj = Readonly<Record<string, Value>>;

function attr(name: string, type: WireAttribute["type"], how: "required" | "optional" | "computed"): WireAttribute {
  return {
    name,
    type,
    description: `${name} (${how})`,
    required: how === "required",
    optional: how === "optional",
    computed: how === "computed",
    sensitive: false,
    writeOnly: false,
    deprecated: false,
  };
}

function schema(attributes: WireAttribute[]): WireSchema {
  return { version: 0, block: { attributes, blockTypes: [], description: "", deprecated: false } };
}

/** The echo provider's schema. */
export const ECHO_SCHEMA: GetProviderSchemaResponse = {
  provider: schema([attr("prefix", "string", "optional")]),
  resourceSchemas: {
    echo_thing: schema([
      attr("id", "string", "computed"),
      attr("input", "string", "required"),
      attr("size", "number", "optional"),
      attr("tags", ["map", "string"], "optional"),
    ]),
  },
  dataSourceSchemas: {
    echo_data: schema([attr("input", "string", "required"), attr("output", "string", "computed")]),
  },
  serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false },
  diagnostics: [],
};

const none: readonly Diagnostic[] = [];

/** ProviderServer for `echo_thing`: id is "echo-<input>", known after apply. */
export class EchoServer implements ProviderServer {
  private prefix = "echo-";

  getProviderSchema(): GetProviderSchemaResponse {
    return ECHO_SCHEMA;
  }
  async validateProviderConfig() {
    return { diagnostics: none };
  }
  async validateResourceConfig() {
    return { diagnostics: none };
  }
  async validateDataResourceConfig() {
    return { diagnostics: none };
  }
  async configureProvider(req: { config: Value }) {
    const prefix = (req.config as Obj | null)?.prefix;
    if (typeof prefix === "string") this.prefix = prefix;
    return { diagnostics: none };
  }
  async upgradeResourceState(req: UpgradeResourceStateRequest) {
    const raw = (req.rawJson ?? {}) as Record<string, Value>;
    const upgradedState = {
      id: raw.id ?? null,
      input: raw.input ?? null,
      size: raw.size ?? null,
      tags: raw.tags ?? null,
    };
    return { upgradedState, diagnostics: none };
  }
  async readResource(req: ReadResourceRequest) {
    return { newState: req.currentState, private: req.private, diagnostics: none };
  }
  async planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    const proposed = req.proposedNewState as Obj | null;
    if (proposed === null) {
      return { plannedState: null, requiresReplace: [], plannedPrivate: req.priorPrivate, diagnostics: none };
    }
    if (proposed.input === "boom") throw new Error("the echo resource exploded on purpose");
    const prior = req.priorState as Obj | null;
    const sameInput = prior !== null && prior.input === proposed.input;
    return {
      plannedState: { ...proposed, id: sameInput ? prior.id : UNKNOWN },
      requiresReplace: prior !== null && !sameInput ? [[{ attr: "input" }]] : [],
      plannedPrivate: new TextEncoder().encode("planned"),
      diagnostics: none,
    };
  }
  async applyResourceChange(req: ApplyResourceChangeRequest) {
    const planned = req.plannedState as Obj | null;
    if (planned === null) return { newState: null, private: new Uint8Array(0), diagnostics: none };
    return {
      newState: { ...planned, id: `${this.prefix}${String(planned.input)}` },
      private: req.plannedPrivate,
      diagnostics: none,
    };
  }
  async importResourceState(req: { typeName: string; id: string }) {
    const state = { id: req.id, input: req.id.replace(/^echo-/, ""), size: null, tags: null };
    return { imported: [{ typeName: req.typeName, state, private: new Uint8Array(0) }], diagnostics: none };
  }
  async readDataSource(req: { config: Value }) {
    const input = String((req.config as Obj).input);
    return { state: { input, output: `${this.prefix}${input}` }, diagnostics: none };
  }
  async stopProvider() {
    return {};
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await serve(new EchoServer());
}
