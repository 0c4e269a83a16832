/**
 * RPCs for features rackform does not offer (functions, ephemeral resources, resource identity, cross-type moves).
 * The engine may still call some of them (OpenTofu asks for identity schemas), so each returns a valid empty answer
 * or an error diagnostic rather than UNIMPLEMENTED.
 */
import type { PbDiagnostic } from "../wire.js";
import type { RpcContext } from "./context.js";

function notOffered(what: string): { diagnostics: PbDiagnostic[] } {
  return {
    diagnostics: [
      {
        severity: "ERROR",
        summary: `Unsupported: ${what}`,
        detail: `The rackform provider does not offer ${what}.`,
      },
    ],
  };
}

/** Provider/GetFunctions: no provider functions. */
export async function getFunctions(_ctx: RpcContext, _req: unknown) {
  return { functions: {}, diagnostics: [] };
}

/** Provider/CallFunction: there is no function to call. */
export async function callFunction(_ctx: RpcContext, req: { name?: string }) {
  return { error: { text: `The rackform provider has no function named "${req.name ?? ""}".` } };
}

/** Provider/GetResourceIdentitySchemas: no resource declares an identity. */
export async function getResourceIdentitySchemas(_ctx: RpcContext, _req: unknown) {
  return { identity_schemas: {}, diagnostics: [] };
}

/** Provider/MoveResourceState: moving state across resource types is not supported. */
export async function moveResourceState(_ctx: RpcContext, _req: unknown) {
  return notOffered("moving state between resource types (moved blocks across types)");
}

/** Provider/ValidateEphemeralResourceConfig, Open…, Renew…, Close…: there are no ephemeral resources. */
export async function ephemeralResource(_ctx: RpcContext, _req: unknown) {
  return notOffered("ephemeral resources");
}
