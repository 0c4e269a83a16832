/** The framework's planning passes over a proposed new state: defaults, unknown-marking, attribute plan modifiers. */
import { type AttributePath, Diagnostics } from "../framework/diagnostics.js";
import type { PlanModifier, PlanModifierResponse } from "../framework/plan-modifiers.js";
import type { PrivateState } from "../framework/private-state.js";
import type { Attributes, Block } from "../framework/schema.js";
import { UNKNOWN, type Value } from "../framework/values.js";
import { walkPlan } from "./walk.js";

/** Resource-level values of one PlanResourceChange. */
export interface PlanInputs {
  readonly config: Value;
  readonly prior: Value;
  readonly plan: Value;
}

const withDefaults = new WeakMap<Block, boolean>();

function attrsHaveDefault(attrs: Attributes): boolean {
  return Object.values(attrs).some(
    (a) => a.default !== undefined || (a.kind === "nested" && attrsHaveDefault(a.attributes)),
  );
}

/** Whether any attribute of the block, at any depth, has a static default (cached: a schema does not change). */
function hasDefaults(b: Block): boolean {
  let d = withDefaults.get(b);
  if (d === undefined) {
    d = attrsHaveDefault(b.attributes) || Object.values(b.blocks ?? {}).some((nb) => hasDefaults(nb.block));
    withDefaults.set(b, d);
  }
  return d;
}

/**
 * Sets optional+computed attributes with a static default to that default wherever the config leaves them null. A
 * schema without defaults keeps the plan itself (values are never mutated), so an unchanged plan is still the object
 * the engine proposed and compares equal to the prior state at once.
 */
export async function applyDefaults(b: Block, v: PlanInputs): Promise<Value> {
  if (!hasDefaults(b)) return v.plan;
  return walkPlan(b, v, [], (node, t) => {
    if (node.kind !== "attr" || node.attr.default === undefined) return t.plan;
    return t.config === null ? node.attr.default : t.plan;
  });
}

/** Marks computed attributes the config leaves null as unknown ("known after apply"), except those with defaults. */
export function markComputedUnknown(b: Block, v: PlanInputs): Promise<Value> {
  return walkPlan(b, v, [], (node, t) => {
    if (node.kind !== "attr") return t.plan;
    const a = node.attr;
    if (!a.computed || a.default !== undefined || t.config !== null) return t.plan;
    return UNKNOWN;
  });
}

/** Outcome of the attribute plan-modifier pass. */
export interface ModifierOutcome {
  readonly plan: Value;
  readonly requiresReplace: AttributePath[];
}

/** Runs every attribute's and block's plan modifiers in order; diagnostics go to `diags`. */
export async function runPlanModifiers(
  b: Block,
  v: PlanInputs,
  priv: PrivateState,
  diags: Diagnostics,
): Promise<ModifierOutcome> {
  const requiresReplace: AttributePath[] = [];
  const plan = await walkPlan(b, v, [], async (node, t, path) => {
    const mods: readonly PlanModifier[] =
      (node.kind === "attr" ? node.attr.planModifiers : node.nb.planModifiers) ?? [];
    if (mods.length === 0) return t.plan;
    const resp: PlanModifierResponse = { planValue: t.plan, requiresReplace: false, diagnostics: new Diagnostics() };
    for (const m of mods) {
      await m.modify(
        {
          path,
          configValue: t.config,
          planValue: resp.planValue,
          stateValue: t.prior,
          config: v.config,
          plan: v.plan,
          state: v.prior,
          private: priv,
        },
        resp,
      );
    }
    diags.add(...resp.diagnostics.items);
    if (resp.requiresReplace) requiresReplace.push(path);
    return resp.planValue;
  });
  return { plan, requiresReplace };
}
