/**
 * PlanResourceChange: proposed new state → planned state. Order as in terraform-plugin-framework: defaults, mark
 * unset computed attributes unknown (only when something changed), attribute plan modifiers, resource modifyPlan;
 * then requires_replace is filtered to changed paths and the result is checked against the engine's plan rules.
 */
import { type AttributePath, Diagnostics } from "../framework/diagnostics.js";
import { decodePrivate, encodePrivate, type PrivateState } from "../framework/private-state.js";
import type { ModifyPlanResponse } from "../framework/resource.js";
import { nullWriteOnly, sensitiveStrings } from "../framework/schema-values.js";
import { type Value, valuesEqual } from "../framework/values.js";
import { providerBug } from "./contract.js";
import { checkPlan } from "./contract-plan.js";
import { applyDefaults, markComputedUnknown, runPlanModifiers } from "./plan-passes.js";
import type { PlanResourceChangeRequest, PlanResourceChangeResponse } from "./rpc.js";
import type { ServerState } from "./server-state.js";
import { normalisePaths, valueAt } from "./value-utils.js";

/**
 * Semantic equality: when the attribute plan modifiers alone (e.g. keepStateWhenEquivalent for another spelling of a
 * URL) bring the plan back to the prior state, nothing changed and nothing is marked unknown — as for an unchanged
 * plan. Returns that plan, or undefined when something did change (then the usual passes run). A trial run: its
 * diagnostics and private-state writes are dropped, and a modifier that throws means "changed".
 */
async function onlySpellings(
  schema: Parameters<typeof runPlanModifiers>[0],
  config: Value,
  prior: Value,
  plan: Value,
  priv: PrivateState,
): Promise<Value | undefined> {
  if (prior === null) return undefined;
  try {
    const out = await runPlanModifiers(schema, { config, prior, plan }, { ...priv }, new Diagnostics());
    return valuesEqual(out.plan, prior) ? out.plan : undefined;
  } catch {
    return undefined;
  }
}

/** Implements PlanResourceChange. */
export async function planResourceChange(
  s: ServerState,
  req: PlanResourceChangeRequest,
): Promise<PlanResourceChangeResponse> {
  const diags = new Diagnostics();
  const r = s.resource(req.typeName, diags);
  if (!r) {
    return {
      plannedState: req.proposedNewState,
      requiresReplace: [],
      plannedPrivate: req.priorPrivate,
      diagnostics: s.finish(diags),
    };
  }
  const { schema } = r;
  // On error the engine discards the plan, but it must still encode and must never carry write-only values.
  const fallback = {
    plannedState: nullWriteOnly(schema, req.proposedNewState),
    requiresReplace: [],
    plannedPrivate: req.priorPrivate,
  };
  const { config, priorState: prior } = req;
  const secrets = sensitiveStrings(schema, config, prior, req.proposedNewState);
  let priv: PrivateState;
  try {
    priv = decodePrivate(req.priorPrivate);
  } catch {
    diags.error("Corrupt private state", `The private data stored with this ${req.typeName} is not valid JSON.`);
    return { ...fallback, diagnostics: s.finish(diags, secrets) };
  }

  let plan: Value = nullWriteOnly(schema, req.proposedNewState);
  let requiresReplace: AttributePath[] = [];
  if (plan !== null) {
    plan = await applyDefaults(schema, { config, prior, plan });
    if (prior === null || !valuesEqual(plan, prior)) {
      const kept = await onlySpellings(schema, config, prior, plan, priv);
      plan = kept ?? (await markComputedUnknown(schema, { config, prior, plan }));
    }
    const before = plan;
    await s.guard(diags, `${req.typeName} attribute plan modifiers`, async () => {
      const out = await runPlanModifiers(schema, { config, prior, plan: before }, priv, diags);
      plan = out.plan;
      requiresReplace = out.requiresReplace;
    });
  }
  if (r.modifyPlan && !diags.hasError()) {
    const resp: ModifyPlanResponse = { plan, requiresReplace: [], private: priv, diagnostics: diags };
    const modifyPlan = r.modifyPlan.bind(r);
    const input = { context: s.context(req.typeName), config, plan, state: prior, private: { ...priv } };
    if (await s.guard(diags, `${req.typeName} modifyPlan`, () => modifyPlan(input, resp))) {
      plan = resp.plan;
      priv = resp.private;
      requiresReplace.push(...resp.requiresReplace);
    }
  }
  if (diags.hasError()) return { ...fallback, diagnostics: s.finish(diags, secrets) };
  plan = nullWriteOnly(schema, plan);

  // The engine ignores requires_replace on create and wants only paths whose value changes.
  const changed =
    prior === null || plan === null
      ? []
      : requiresReplace.filter((p) => !valuesEqual(valueAt(plan, p), valueAt(prior, p)));
  for (const p of checkPlan(schema, { config, prior, planned: plan })) diags.add(providerBug(req.typeName, "plan", p));
  if (diags.hasError()) return { ...fallback, diagnostics: s.finish(diags, secrets) };
  return {
    plannedState: plan,
    requiresReplace: normalisePaths(changed),
    plannedPrivate: encodePrivate(priv),
    diagnostics: s.finish(diags, secrets),
  };
}
