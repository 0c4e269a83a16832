/** The plan rules of the engine (objchange.AssertPlanValid), checked before PlanResourceChange replies. */
import type { AttributePath } from "../framework/diagnostics.js";
import type { Attribute, Attributes, Block, NestedBlock } from "../framework/schema.js";
import { isObjectValue } from "../framework/schema-values.js";
import { typeOfBlock } from "../framework/to-wire.js";
import { containsUnknown, isUnknown, type Value, valuesEqual } from "../framework/values.js";
import { checkType, field, type Problem } from "./contract.js";
import { showValue } from "./show-value.js";

function planAttr(
  a: Attribute,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
  out: Problem[],
): void {
  if (a.writeOnly) {
    if (planned !== null) out.push({ path, what: "a write-only attribute must be null in the plan" });
    return;
  }
  if (valuesEqual(planned, config)) return;
  if (prior !== null && config !== null && valuesEqual(planned, prior)) return;
  if (a.computed && !a.optional) return;
  if (config === null && a.computed) return;
  const s = !!a.sensitive;
  if (config === null && planned !== null) {
    out.push({ path, what: `planned value ${showValue(planned, s)} for a non-computed attribute left null in config` });
    return;
  }
  if (a.kind === "nested" && !isUnknown(config) && !isUnknown(planned) && planned !== null) {
    planCollection(a.nesting, a.attributes, undefined, prior, config, planned, path, out);
    return;
  }
  const vs = prior === null ? "" : ` nor the prior value ${showValue(prior, s)}`;
  out.push({
    path,
    what: `planned value ${showValue(planned, s)} does not match the configuration value ${showValue(config, s)}${vs}`,
  });
}

function planObject(
  attrs: Attributes,
  b: Block | undefined,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
  out: Problem[],
): void {
  if (!isObjectValue(planned)) {
    if (!valuesEqual(planned, config))
      out.push({ path, what: "planned an unknown or null object the config does not have" });
    return;
  }
  for (const [n, a] of Object.entries(attrs)) {
    planAttr(a, field(prior, n), field(config, n), planned[n] ?? null, [...path, { attr: n }], out);
  }
  for (const [n, nb] of Object.entries(b?.blocks ?? {})) {
    planBlock(nb, field(prior, n), field(config, n), planned[n] ?? null, [...path, { attr: n }], out);
  }
}

function planCollection(
  nesting: string,
  attrs: Attributes,
  b: Block | undefined,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
  out: Problem[],
): void {
  if (isUnknown(config)) {
    if (!isUnknown(planned)) out.push({ path, what: "planned a known value where the configuration is unknown" });
    return;
  }
  if (isUnknown(planned)) {
    out.push({ path, what: "planned unknown where the configuration is known" });
    return;
  }
  if (nesting === "single" || nesting === "group") {
    if (nesting === "single" && (config === null) !== (planned === null)) {
      const what = config === null ? "planned a block absent from config" : "planned null for a configured block";
      out.push({ path, what });
      return;
    }
    planObject(attrs, b, prior, config, planned, path, out);
    return;
  }
  if (nesting === "map") {
    const ck = isObjectValue(config) ? Object.keys(config).sort() : [];
    const pk = isObjectValue(planned) ? Object.keys(planned).sort() : [];
    if (ck.join("\u0000") !== pk.join("\u0000")) {
      out.push({ path, what: `planned keys [${pk}] differ from configured keys [${ck}]` });
      return;
    }
    for (const k of pk)
      planObject(attrs, b, field(prior, k), field(config, k), field(planned, k), [...path, { key: k }], out);
    return;
  }
  const cl = Array.isArray(config) ? config : [];
  const pl = Array.isArray(planned) ? planned : [];
  if (nesting === "set" && containsUnknown(config)) return; // unknown elements may coalesce
  if (cl.length !== pl.length) {
    out.push({ path, what: `planned ${pl.length} elements where the configuration has ${cl.length}` });
    return;
  }
  if (nesting === "list") {
    const pr = Array.isArray(prior) ? prior : [];
    for (let i = 0; i < pl.length; i++) planObject(attrs, b, pr[i] ?? null, cl[i], pl[i], [...path, { index: i }], out);
  }
}

function planBlock(
  nb: NestedBlock,
  prior: Value,
  config: Value,
  planned: Value,
  path: AttributePath,
  out: Problem[],
): void {
  if (nb.nesting !== "single" && planned === null) {
    out.push({ path, what: `a ${nb.nesting} of nested blocks must be empty to mean no blocks, not null` });
    return;
  }
  const elems = Array.isArray(planned)
    ? planned
    : nb.nesting === "map" && isObjectValue(planned)
      ? Object.values(planned)
      : [];
  if (elems.some(isUnknown)) {
    out.push({ path, what: "a nested block element must not be unknown itself; make its attributes unknown instead" });
    return;
  }
  planCollection(nb.nesting, nb.block.attributes, nb.block, prior, config, planned, path, out);
}

/** Breaches of the plan rules: shape, non-computed attributes equal to config (or prior), block counts. */
export function checkPlan(b: Block, v: { config: Value; prior: Value; planned: Value }): Problem[] {
  const out: Problem[] = [];
  if ((v.config === null) !== (v.planned === null)) {
    out.push({
      path: [],
      what:
        v.config === null
          ? "planned an object while the configuration is null (destroy)"
          : "planned null for a configured resource",
    });
    return out;
  }
  checkType(v.planned, typeOfBlock(b), [], out);
  if (out.length === 0 && v.planned !== null) planObject(b.attributes, b, v.prior, v.config, v.planned, [], out);
  return out;
}
