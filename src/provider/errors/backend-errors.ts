/**
 * How the resources built on a backend (machine, deployment, acceptance) report its failures: one place, so the three
 * say the same things the same way. Client errors go through client-errors.ts (hints keyed by code).
 */
import { isClientError } from "../../clients/errors.js";
import { type AttributePath, type Context, type Diagnostics, path } from "../../framework/index.js";
import {
  AmbiguousMachineError,
  type Backend,
  type BackendName,
  BackendNotConfiguredError,
  type MachineFacts,
} from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import { addClientError } from "./client-errors.js";

/** How the backends are named to people. */
export const BACKEND_LABEL: Record<BackendName, string> = Object.fromEntries(
  Object.entries(BACKEND_TRAITS).map(([k, t]) => [k, t.label]),
) as Record<BackendName, string>;

/** Where a backend failure points: the resource attribute that selects the backend, and the one naming the object. */
export interface BackendSite {
  readonly backend: BackendName;
  /** e.g. `machine "r01-n01"` or `machine 4y3h7n`. */
  readonly what: string;
  /** The attribute that chose this backend (`backend`, `machine_id`): missing configuration points here. */
  readonly selector: AttributePath;
  /** The attribute naming the object (`name`): ambiguity and not-found point here. @default selector */
  readonly object?: AttributePath;
}

/** Reports any failure of a backend call as one diagnostic. */
export function reportBackendError(diags: Diagnostics, e: unknown, action: string, site: BackendSite): void {
  const label = BACKEND_LABEL[site.backend];
  if (e instanceof BackendNotConfiguredError) {
    diags.error(`${label} is not configured`, `${e.message}.`, site.selector);
  } else if (e instanceof AmbiguousMachineError) {
    diags.error("Several machines match this node", `${e.message}.`, site.object ?? site.selector);
  } else if (e instanceof OperationTimeoutError || isClientError(e)) {
    addClientError(diags, e, action, {
      what: `${site.what} in ${label}`,
      endpointPath: site.selector,
      notFoundPath: site.object ?? site.selector,
      endpointSetting: `${site.backend}.url`,
    });
  } else {
    diags.error(`Failed to ${action}`, `${site.what}: ${(e as Error)?.message ?? String(e)}`);
  }
}

/** A backend machine selected by `machine_id` (deployment, acceptance). */
export const machineIdSite = (backend: BackendName, id: string): BackendSite => ({
  backend,
  what: `machine ${id}`,
  selector: path("machine_id"),
});

/** Facts after a failure, read with a short bound of its own (the operation's signal may already be aborted). */
export async function factsAfterFailure(b: Backend, ctx: Context, id: string): Promise<MachineFacts> {
  const unknown: MachineFacts = { id, name: "", state: "other", status: "unknown", message: "", macs: [], power: "" };
  try {
    return (await bounded(ctx, 15_000, "read", "reading the machine after a failure", (s) => b.read(id, s))) ?? unknown;
  } catch {
    return unknown;
  }
}
