/**
 * Props validation: an ajv JSON Schema per construct whose leaf schemas carry `expect` (what a good value is) and `fix`
 * (what to write), so every ajv error becomes `path: "value" is not <expect> — <fix>`. Constructs call `check` in their
 * constructor with the schema problems plus their own cross-field problems.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { IConstruct } from "constructs";
import type { ValidationProblem } from "../errors.js";
import { FORMATS, isToken } from "./formats.js";
import { throwInvalid } from "./invalid.js";

/** A JSON Schema with the annotations the messages are built from. */
export type PropsSchema = Record<string, unknown>;

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
for (const keyword of ["expect", "fix", "secret"]) ajv.addKeyword({ keyword });
for (const [name, test] of Object.entries(FORMATS)) ajv.addFormat(name, test);
const compiled = new WeakMap<PropsSchema, ValidateFunction>();

/** `/nodes/3/bmc` → `nodes[3].bmc`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replaceAll("~1", "/").replaceAll("~0", "~")}`))
    .join("")
    .replace(/^\./, "");
}

/** A value as a message quotes it: JSON, cut short, or hidden when the schema marks it secret. */
export function show(value: unknown, secret = false): string {
  if (secret) return "the value (not shown: it is a secret)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case "type":
      return `a ${e.params.type}`;
    case "minimum":
      return `at least ${e.params.limit}`;
    case "maximum":
      return `at most ${e.params.limit}`;
    case "exclusiveMinimum":
      return `above ${e.params.limit}`;
    case "minLength":
      return "a non-empty string";
    case "minItems":
      return `a list of at least ${e.params.limit}`;
    case "enum":
      return `one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "multipleOf":
      return "a whole number";
    default:
      return e.message ?? "valid";
  }
}

function problemOf(base: string, e: ErrorObject): ValidationProblem {
  const at = (field: string) => (field ? `${base}/${field}` : base);
  const field = fieldPath(e.instancePath);
  const parent = (e.parentSchema ?? {}) as PropsSchema;
  if (e.keyword === "required") {
    const name = e.params.missingProperty as string;
    const sub = ((parent.properties ?? {}) as Record<string, PropsSchema>)[name] ?? {};
    const full = field ? `${field}.${name}` : name;
    return { path: at(full), problem: "is missing", fix: (sub.fix as string) ?? `set ${name}` };
  }
  if (e.keyword === "additionalProperties") {
    const name = e.params.additionalProperty as string;
    const known = Object.keys((parent.properties ?? {}) as object).join(", ");
    return { path: at(field), problem: `has no property ${JSON.stringify(name)}`, fix: `use one of: ${known}` };
  }
  const expect = (parent.expect as string) ?? describe(e);
  const fix = (parent.fix as string) ?? `write ${expect}`;
  return { path: at(field), problem: `${show(e.data, parent.secret === true)} is not ${expect}`, fix };
}

/**
 * The props as the schema sees them: number tokens dropped (cdktf encodes them as huge negative numbers that no range
 * accepts) and keys whose value is undefined left out, as TypeScript's optional props treat them.
 */
function forSchema(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(forSchema);
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined && !(typeof x === "number" && isToken(x)))
        .map(([k, x]) => [k, forSchema(x)]),
    );
  }
  return v;
}

/** The problems `data` has against `schema`, one per field (the first ajv reports), paths under `base`. */
export function schemaProblems(base: string, schema: PropsSchema, data: unknown): ValidationProblem[] {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(forSchema(data))) return [];
  // ajv reports an anyOf's branches before the anyOf itself: per field, prefer the error whose schema says `expect`.
  const byPath = new Map<string, ErrorObject>();
  for (const e of validate.errors ?? []) {
    // An if/then/else's own error only says a branch failed; the branch's errors name the field.
    if (e.keyword === "if") continue;
    const key = e.keyword === "required" ? `${e.instancePath}#${e.params.missingProperty}` : e.instancePath;
    const had = byPath.get(key);
    if (!had || (!(had.parentSchema as PropsSchema)?.expect && (e.parentSchema as PropsSchema)?.expect))
      byPath.set(key, e);
  }
  const problems = [...byPath.values()].map((e) => problemOf(base, e));
  return problems;
}

/** Throws one RackformValidationError for `scope` listing every problem; returns when there are none. */
export function check(scope: IConstruct, problems: readonly ValidationProblem[]): void {
  if (problems.length > 0) throwInvalid(scope.node.path, problems);
}

/** Validates `data` against `schema` and adds `extra` problems (cross-field rules), throwing for any. */
export function validateProps(
  scope: IConstruct,
  schema: PropsSchema,
  data: unknown,
  extra: (base: string) => ValidationProblem[] = () => [],
): void {
  const base = scope.node.path;
  const problems = schemaProblems(base, schema, data);
  // Cross-field rules assume the shapes the schema guarantees.
  check(scope, problems.length > 0 ? problems : extra(base));
}
