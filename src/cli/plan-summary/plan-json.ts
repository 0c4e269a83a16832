/**
 * The part of `terraform show -json PLAN` (and `tofu show -json PLAN`) that plan-summary reads, with its own types:
 * the CLI may not import the provider, and the JSON plan format is the engines' public contract, not ours.
 */

/** One change action as the engines spell it. */
export type PlanAction = "no-op" | "create" | "read" | "update" | "delete" | "forget";

/** A mask parallel to a value: `true` marks the value (or a whole subtree) as sensitive or unknown. */
export type ValueMask = boolean | readonly ValueMask[] | { readonly [key: string]: ValueMask };

/** `change` of one resource instance. */
export interface PlanChange {
  readonly actions: readonly PlanAction[];
  readonly before: unknown;
  readonly after: unknown;
  readonly after_unknown?: ValueMask;
  readonly before_sensitive?: ValueMask;
  readonly after_sensitive?: ValueMask;
  readonly replace_paths?: readonly (readonly (string | number)[])[];
}

/** One entry of `resource_changes`. */
export interface ResourceChange {
  readonly address: string;
  readonly module_address?: string;
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly name: string;
  readonly index?: string | number;
  readonly change: PlanChange;
  readonly action_reason?: string;
}

/** An attribute's expression in `configuration`: what it refers to. */
export interface ConfigExpression {
  readonly references?: readonly string[];
  readonly constant_value?: unknown;
}

/** A resource block in `configuration`. */
export interface ConfigResource {
  readonly address: string;
  readonly mode?: string;
  readonly type: string;
  readonly name: string;
  readonly expressions?: { readonly [attr: string]: unknown };
  readonly depends_on?: readonly string[];
  readonly count_expression?: unknown;
  readonly for_each_expression?: unknown;
}

/** A module in `configuration` (the root one or a called one). */
export interface ConfigModule {
  readonly resources?: readonly ConfigResource[];
  readonly module_calls?: { readonly [name: string]: { readonly module?: ConfigModule } };
}

/** A module of `prior_state.values`: each resource with the dependencies the engine recorded in state. */
export interface StateModule {
  readonly resources?: readonly { readonly address: string; readonly depends_on?: readonly string[] }[];
  readonly child_modules?: readonly StateModule[];
}

/** The plan as `show -json` writes it (the fields plan-summary reads). */
export interface PlanJson {
  readonly format_version: string;
  readonly terraform_version?: string;
  readonly resource_changes?: readonly ResourceChange[];
  readonly resource_drift?: readonly ResourceChange[];
  /** The attributes of drifted resources that this plan's changes depend on (what the engine shows as drift). */
  readonly relevant_attributes?: readonly { readonly resource: string; readonly attribute: readonly unknown[] }[];
  readonly configuration?: { readonly root_module?: ConfigModule };
  /** The state the plan started from; its recorded dependencies tie resources the configuration no longer has. */
  readonly prior_state?: { readonly values?: { readonly root_module?: StateModule } };
  readonly errored?: boolean;
  readonly complete?: boolean;
  readonly applyable?: boolean;
}

/** Input that is not a `show -json` plan; the message says what is wrong and how to produce the right input. */
export class PlanJsonError extends Error {
  override readonly name = "PlanJsonError";
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses and checks the shape of a `show -json` plan; `source` names the input in errors. */
export function parsePlanJson(text: string, source: string): PlanJson {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PlanJsonError(
      `${source}: not JSON (${(e as Error).message}); pass the output of \`terraform show -json PLANFILE\``,
    );
  }
  if (!isObject(raw) || typeof raw.format_version !== "string") {
    throw new PlanJsonError(`${source}: no format_version; pass the output of \`terraform show -json PLANFILE\``);
  }
  if (!String(raw.format_version).startsWith("1.")) {
    throw new PlanJsonError(`${source}: JSON plan format ${raw.format_version} is not supported (1.x is)`);
  }
  if (raw.planned_values === undefined && raw.resource_changes === undefined && isObject(raw.values)) {
    throw new PlanJsonError(
      `${source}: this is state, not a plan; run \`terraform plan -out=PLANFILE\` then \`terraform show -json PLANFILE\``,
    );
  }
  const changes = raw.resource_changes;
  if (changes !== undefined && !Array.isArray(changes))
    throw new PlanJsonError(`${source}: resource_changes is not a list`);
  for (const [i, c] of (changes ?? []).entries()) {
    const ok =
      isObject(c) &&
      typeof c.address === "string" &&
      typeof c.type === "string" &&
      isObject(c.change) &&
      Array.isArray(c.change.actions);
    if (!ok) throw new PlanJsonError(`${source}: resource_changes[${i}] lacks address, type or change.actions`);
  }
  return raw as unknown as PlanJson;
}
