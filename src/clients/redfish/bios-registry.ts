/**
 * A BIOS AttributeRegistry (DMTF AttributeRegistry schema, DSP8010) as a typed table, and the check of wanted BIOS
 * settings against it before anything is written: unknown names, wrong types, values outside an enumeration or its
 * bounds, read-only attributes, and the registry's own Map dependencies that make an attribute read-only (or force its
 * value) given the other settings. Pure: no requests, no diagnostics (the provider words them).
 */
import { isObj, str } from "./parse.js";
import type { RedfishJson } from "./types.js";

/** A BIOS attribute value as Redfish carries it. */
export type BiosValue = string | number | boolean | null;

/** One attribute of the registry. */
export interface RegistryAttribute {
  readonly name: string;
  /** Enumeration, String, Integer, Boolean or Password. */
  readonly type: string;
  /** The ValueName of each Value entry (Enumeration only). */
  readonly allowed?: readonly string[];
  readonly readOnly: boolean;
  readonly lowerBound?: number;
  readonly upperBound?: number;
  readonly scalarIncrement?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A regular expression a String value must match. */
  readonly valueExpression?: string;
  readonly resetRequired?: boolean;
}

/** One condition of a Map dependency. */
interface MapFrom {
  readonly attribute: string;
  readonly property: string;
  readonly condition: string;
  readonly value: unknown;
  /** How this term joins the ones before it (AND by default). */
  readonly terms: "AND" | "OR";
}

/** A Map dependency: when every MapFrom holds, MapToProperty of MapToAttribute becomes MapToValue. */
export interface RegistryDependency {
  readonly target: string;
  readonly property: string;
  readonly value: unknown;
  readonly from: readonly MapFrom[];
}

/** The registry as rackform uses it. */
export interface AttributeRegistry {
  readonly id: string;
  readonly attributes: ReadonlyMap<string, RegistryAttribute>;
  readonly dependencies: readonly RegistryDependency[];
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

function parseAttribute(a: Record<string, unknown>): RegistryAttribute | undefined {
  const name = str(a.AttributeName);
  if (!name) return undefined;
  const values = Array.isArray(a.Value) ? a.Value.filter(isObj).flatMap((v) => str(v.ValueName) ?? []) : undefined;
  const opt = <T>(k: string, v: T | undefined) => (v === undefined ? {} : { [k]: v });
  return {
    name,
    type: str(a.Type) ?? "String",
    readOnly: a.ReadOnly === true || a.Immutable === true,
    ...opt("allowed", str(a.Type) === "Enumeration" ? values : undefined),
    ...opt("lowerBound", num(a.LowerBound)),
    ...opt("upperBound", num(a.UpperBound)),
    ...opt("scalarIncrement", num(a.ScalarIncrement)),
    ...opt("minLength", num(a.MinLength)),
    ...opt("maxLength", num(a.MaxLength)),
    ...opt("valueExpression", str(a.ValueExpression)),
    ...opt("resetRequired", typeof a.ResetRequired === "boolean" ? a.ResetRequired : undefined),
  };
}

function parseDependency(d: Record<string, unknown>): RegistryDependency | undefined {
  if (d.Type !== undefined && d.Type !== "Map") return undefined;
  const dep = isObj(d.Dependency) ? d.Dependency : undefined;
  const target = str(dep?.MapToAttribute) ?? str(d.DependencyFor);
  const property = str(dep?.MapToProperty);
  if (!dep || !target || !property) return undefined;
  const from = (Array.isArray(dep.MapFrom) ? dep.MapFrom.filter(isObj) : []).flatMap((f): MapFrom[] => {
    const attribute = str(f.MapFromAttribute);
    if (!attribute) return [];
    const terms = f.MapTerms === "OR" ? "OR" : "AND";
    return [
      {
        attribute,
        property: str(f.MapFromProperty) ?? "CurrentValue",
        condition: str(f.MapFromCondition) ?? "EQU",
        value: f.MapFromValue,
        terms,
      },
    ];
  });
  return { target, property, value: dep.MapToValue, from };
}

/** Parses an AttributeRegistry resource; entries it cannot read are left out. */
export function parseAttributeRegistry(json: RedfishJson): AttributeRegistry {
  const entries = isObj(json.RegistryEntries) ? json.RegistryEntries : {};
  const attrs = Array.isArray(entries.Attributes) ? entries.Attributes.filter(isObj) : [];
  const deps = Array.isArray(entries.Dependencies) ? entries.Dependencies.filter(isObj) : [];
  const attributes = new Map<string, RegistryAttribute>();
  for (const a of attrs) {
    const p = parseAttribute(a);
    if (p) attributes.set(p.name, p);
  }
  return {
    id: str(json.Id) ?? "",
    attributes,
    dependencies: deps.flatMap((d) => parseDependency(d) ?? []),
  };
}

/** Why a wanted setting cannot be written. */
export type BiosProblemKind = "unknown" | "type" | "value" | "read-only" | "dependency";

/** A wanted setting the registry refuses, with what it would accept. */
export interface BiosProblem {
  readonly attribute: string;
  readonly kind: BiosProblemKind;
  /** What is wrong, in the registry's terms. */
  readonly detail: string;
  /** The values an enumeration allows. */
  readonly allowed?: readonly string[];
}

function typeProblem(a: RegistryAttribute, v: BiosValue): string | undefined {
  const want: Record<string, string> = {
    Enumeration: "string",
    String: "string",
    Password: "string",
    Integer: "number",
    Boolean: "boolean",
  };
  const t = want[a.type];
  if (t && typeof v !== t) return `${a.type} attribute given ${v === null ? "null" : typeof v}`;
  if (a.type === "Integer" && !Number.isInteger(v)) return `Integer attribute given ${String(v)}`;
  return undefined;
}

function rangeProblem(a: RegistryAttribute, v: BiosValue): string | undefined {
  if (typeof v === "number") {
    if (a.lowerBound !== undefined && v < a.lowerBound) return `${v} is below the lower bound ${a.lowerBound}`;
    if (a.upperBound !== undefined && v > a.upperBound) return `${v} is above the upper bound ${a.upperBound}`;
    const step = a.scalarIncrement;
    if (step && (v - (a.lowerBound ?? 0)) % step !== 0) return `${v} is not a step of ${step}`;
  }
  if (typeof v === "string" && a.type !== "Enumeration") {
    if (a.minLength !== undefined && v.length < a.minLength) return `shorter than ${a.minLength} characters`;
    if (a.maxLength !== undefined && v.length > a.maxLength) return `longer than ${a.maxLength} characters`;
    if (a.valueExpression && !safeMatch(a.valueExpression, v)) return `does not match ${a.valueExpression}`;
  }
  return undefined;
}

/** A registry's ValueExpression applied to a value; an expression JavaScript cannot compile refuses nothing. */
function safeMatch(expr: string, v: string): boolean {
  try {
    return new RegExp(`^(?:${expr})$`).test(v);
  } catch {
    return true;
  }
}

function compare(condition: string, have: unknown, want: unknown): boolean {
  switch (condition) {
    case "EQU":
      return have === want;
    case "NEQ":
      return have !== want;
    case "GTR":
      return typeof have === "number" && typeof want === "number" && have > want;
    case "GEQ":
      return typeof have === "number" && typeof want === "number" && have >= want;
    case "LSS":
      return typeof have === "number" && typeof want === "number" && have < want;
    case "LEQ":
      return typeof have === "number" && typeof want === "number" && have <= want;
    default:
      return false;
  }
}

/** Whether a dependency's conditions hold for the settings after the change (only CurrentValue terms are judged). */
function holds(d: RegistryDependency, after: Readonly<Record<string, BiosValue>>): boolean {
  let result: boolean | undefined;
  for (const f of d.from) {
    if (f.property !== "CurrentValue") return false;
    const term = compare(f.condition, after[f.attribute], f.value);
    result = result === undefined ? term : f.terms === "OR" ? result || term : result && term;
  }
  return result ?? false;
}

function dependencyProblem(
  name: string,
  v: BiosValue,
  reg: AttributeRegistry,
  after: Readonly<Record<string, BiosValue>>,
): BiosProblem | undefined {
  for (const d of reg.dependencies) {
    if (d.target !== name || !holds(d, after)) continue;
    const because = d.from.map((f) => `${f.attribute} ${f.condition} ${JSON.stringify(f.value)}`).join(" and ");
    if ((d.property === "ReadOnly" || d.property === "GrayOut") && d.value === true)
      return { attribute: name, kind: "dependency", detail: `read-only while ${because}` };
    if (d.property === "CurrentValue" && d.value !== v)
      return { attribute: name, kind: "dependency", detail: `set to ${JSON.stringify(d.value)} while ${because}` };
  }
  return undefined;
}

/**
 * The problems of writing `wanted` on a BIOS whose attributes are `current`, judged by `reg`; empty when every
 * setting may be written. Dependencies are judged on the settings as they would be after the change.
 */
export function checkBiosSettings(
  reg: AttributeRegistry,
  current: Readonly<Record<string, BiosValue>>,
  wanted: Readonly<Record<string, BiosValue>>,
): BiosProblem[] {
  const after = { ...current, ...wanted };
  const out: BiosProblem[] = [];
  for (const [name, v] of Object.entries(wanted)) {
    const a = reg.attributes.get(name);
    if (!a) {
      out.push({ attribute: name, kind: "unknown", detail: `not in the registry ${reg.id}` });
      continue;
    }
    const bad = typeProblem(a, v);
    if (bad) out.push({ attribute: name, kind: "type", detail: bad });
    else if (a.readOnly && current[name] !== v) out.push({ attribute: name, kind: "read-only", detail: "read-only" });
    else if (a.allowed && !a.allowed.includes(String(v)))
      out.push({ attribute: name, kind: "value", detail: `${JSON.stringify(v)} is not allowed`, allowed: a.allowed });
    else {
      const range = rangeProblem(a, v);
      const dep = range ? undefined : dependencyProblem(name, v, reg, after);
      if (range) out.push({ attribute: name, kind: "value", detail: range });
      else if (dep) out.push(dep);
    }
  }
  return out;
}
