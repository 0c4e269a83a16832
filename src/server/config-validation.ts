/** Validates a configuration against its schema: required, unconfigurable, write-only, block counts, validators. */
import { type AttributePath, type Diagnostics, formatPath } from "../framework/diagnostics.js";
import type { Attributes, Block } from "../framework/schema.js";
import { isObjectValue, type ObjectValue } from "../framework/schema-values.js";
import type { Validator } from "../framework/validators.js";
import { isUnknown, type Value } from "../framework/values.js";

/** Options of one validation run. */
export interface ConfigValidationOptions {
  /** False when the engine said it cannot handle write-only attributes; undefined when it did not say. */
  readonly writeOnlyAllowed?: boolean;
}

function elements(nesting: string, v: Value, path: AttributePath): [Value, AttributePath][] {
  if (v === null || isUnknown(v)) return [];
  if (nesting === "single" || nesting === "group") return [[v, path]];
  if (Array.isArray(v)) return v.map((e, i) => [e, nesting === "list" ? [...path, { index: i }] : path]);
  if (isObjectValue(v)) return Object.entries(v).map(([k, e]) => [e, [...path, { key: k }]]);
  return [];
}

class ConfigWalker {
  constructor(
    private readonly root: Value,
    private readonly diags: Diagnostics,
    private readonly opts: ConfigValidationOptions,
  ) {}

  private async runValidators(
    vs: readonly Validator[] | undefined,
    value: Value,
    path: AttributePath,
    parent: ObjectValue,
  ) {
    for (const v of vs ?? []) await v.validate({ value, path, parent, config: this.root }, { diagnostics: this.diags });
  }

  async object(attrs: Attributes, b: Block | undefined, obj: Value, path: AttributePath): Promise<void> {
    if (!isObjectValue(obj)) return;
    for (const [name, a] of Object.entries(attrs)) {
      const v = obj[name] ?? null;
      const p = [...path, { attr: name }];
      if (isUnknown(v)) continue;
      if (v === null) {
        if (a.required) {
          this.diags.error(
            "Missing required argument",
            `The argument "${formatPath(p)}" is required, but no definition was found.`,
            p,
          );
        }
        continue;
      }
      if (a.computed && !a.optional) {
        this.diags.error(
          "Invalid configuration",
          `${formatPath(p)} is set by the provider and cannot be configured; remove it from the configuration.`,
          p,
        );
        continue;
      }
      if (a.writeOnly && this.opts.writeOnlyAllowed === false) {
        this.diags.error(
          "Write-only attribute not supported",
          `${formatPath(p)} is write-only, which needs Terraform 1.11 or later; upgrade the engine or remove it.`,
          p,
        );
      }
      if (a.deprecationMessage)
        this.diags.warning("Deprecated attribute", `${formatPath(p)}: ${a.deprecationMessage}`, p);
      await this.runValidators(a.validators, v, p, obj);
      if (a.kind === "nested") {
        for (const [e, ep] of elements(a.nesting, v, p)) await this.object(a.attributes, undefined, e, ep);
      }
    }
    for (const [name, nb] of Object.entries(b?.blocks ?? {})) {
      const v = obj[name] ?? null;
      const p = [...path, { attr: name }];
      if (isUnknown(v)) continue;
      if (Array.isArray(v) && !v.some(isUnknown)) {
        const { minItems = 0, maxItems = 0 } = nb;
        if (v.length < minItems) {
          this.diags.error(
            `Insufficient ${name} blocks`,
            `At least ${minItems} "${name}" blocks are required, found ${v.length}.`,
            p,
          );
        } else if (maxItems > 0 && v.length > maxItems) {
          this.diags.error(
            `Too many ${name} blocks`,
            `No more than ${maxItems} "${name}" blocks are allowed, found ${v.length}.`,
            p,
          );
        }
      }
      if (v !== null) await this.runValidators(nb.validators, v, p, obj);
      for (const [e, ep] of elements(nb.nesting, v, p)) await this.object(nb.block.attributes, nb.block, e, ep);
    }
  }
}

/** Adds a diagnostic (with its attribute path) to `diags` for every way `config` breaks the schema. */
export async function validateConfig(
  b: Block,
  config: Value,
  diags: Diagnostics,
  opts: ConfigValidationOptions = {},
): Promise<void> {
  await new ConfigWalker(config, diags, opts).object(b.attributes, b, config, []);
}
