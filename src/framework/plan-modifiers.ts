/**
 * Attribute plan modifiers: tiny factories that describe themselves (for docs and for reviewers of a plan).
 * The server runs them after defaults and after unset computed attributes were marked unknown.
 */
import type { AttributePath, Diagnostics } from "./diagnostics.js";
import type { PrivateState } from "./private-state.js";
import { isUnknown, type Value, valuesEqual } from "./values.js";

/** What a plan modifier sees: the attribute's values and the whole resource's values. */
export interface PlanModifierRequest {
  readonly path: AttributePath;
  readonly configValue: Value;
  readonly planValue: Value;
  /** Prior state value; null on create. */
  readonly stateValue: Value;
  readonly config: Value;
  readonly plan: Value;
  /** Prior state of the whole resource; null on create. */
  readonly state: Value;
  readonly private: PrivateState;
}

/** What a plan modifier may change. */
export interface PlanModifierResponse {
  planValue: Value;
  requiresReplace: boolean;
  readonly diagnostics: Diagnostics;
}

/** A plan modifier; `description` reads well after "This attribute …" in docs ("requires replacement when changed"). */
export interface PlanModifier {
  readonly description: string;
  modify(req: PlanModifierRequest, resp: PlanModifierResponse): void | Promise<void>;
}

/** A custom plan modifier. */
export function planModifier(description: string, fn: PlanModifier["modify"]): PlanModifier {
  return { description, modify: fn };
}

function isUpdateWithChange(req: PlanModifierRequest): boolean {
  return req.state !== null && req.plan !== null && !valuesEqual(req.planValue, req.stateValue);
}

/** Changing the value destroys and re-creates the resource (never on create or destroy). */
export function requiresReplace(): PlanModifier {
  return planModifier("requires replacement when changed", (req, resp) => {
    if (isUpdateWithChange(req)) resp.requiresReplace = true;
  });
}

/** Like requiresReplace, but only when `fn` says so; `description` explains the condition. */
export function requiresReplaceIf(fn: (req: PlanModifierRequest) => boolean, description: string): PlanModifier {
  return planModifier(description, (req, resp) => {
    if (isUpdateWithChange(req) && fn(req)) resp.requiresReplace = true;
  });
}

/** Keeps the prior state value instead of "known after apply" for a computed value that never changes once set. */
export function useStateForUnknown(): PlanModifier {
  return planModifier("keeps its prior value once known", (req, resp) => {
    if (req.state === null || req.stateValue === null) return;
    if (!isUnknown(resp.planValue) || isUnknown(req.configValue)) return;
    resp.planValue = req.stateValue;
  });
}

/**
 * Semantic equality: when the configured value means the same as the prior state's (`same` says so, e.g. two spellings
 * of one URL), the plan keeps the prior value, so the engine sees no change at all. Both engines accept a planned
 * value equal to the prior state in place of the configured one.
 */
export function keepStateWhenEquivalent(
  same: (config: Value, state: Value) => boolean,
  description: string,
): PlanModifier {
  return planModifier(description, (req, resp) => {
    if (req.state === null || req.stateValue === null || req.configValue === null) return;
    if (isUnknown(req.configValue) || isUnknown(resp.planValue)) return;
    if (!valuesEqual(req.configValue, req.stateValue) && same(req.configValue, req.stateValue))
      resp.planValue = req.stateValue;
  });
}
