/**
 * Hand-made plans in the engines' `show -json` format for plan-summary's unit tests: one resource change at a time,
 * with empty sensitivity and unknown masks unless a test sets them.
 */
import type { PlanJson, ResourceChange } from "../../src/cli/plan-summary/index.js";

type Change = ResourceChange["change"];

/** One entry of resource_changes (or resource_drift). */
export function rc(
  type: string,
  name: string,
  actions: string[],
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  extra: Partial<Change> & { action_reason?: string } = {},
): ResourceChange {
  const { action_reason, ...change } = extra;
  return {
    address: `${type}.${name}`,
    mode: "managed",
    type,
    name,
    change: {
      actions: actions as Change["actions"],
      before,
      after,
      after_unknown: {},
      before_sensitive: {},
      after_sensitive: {},
      ...change,
    },
    ...(action_reason ? { action_reason } : {}),
  };
}

/** A plan with these changes (none: no resource_changes at all). */
export const plan = (changes: ResourceChange[] | undefined, extra: Partial<PlanJson> = {}): PlanJson => ({
  format_version: "1.2",
  terraform_version: "1.11.4",
  ...(changes ? { resource_changes: changes } : {}),
  errored: false,
  complete: true,
  ...extra,
});

/** A deployment's image block. */
export const image = (version: string, sha256 = "00") => ({
  name: "ubuntu-gpu",
  version,
  url: `http://images/ubuntu-gpu-${version}.qcow2`,
  sha256,
});
