/**
 * Hand-made plans in the engines' `show -json` format for plan-summary's unit tests: one resource change at a time,
 * with empty sensitivity and unknown masks unless a test sets them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type PlanJson,
  type PlanSummaryIo,
  parsePlanJson,
  type ResourceChange,
} from "../../src/cli/plan-summary/index.js";
import { ROOT } from "./rackform-e2e.js";

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

/** The text of a recorded plan under test/fixtures/plans (scripts/record-plans.mjs). */
export const planFixtureText = (name: string): string =>
  readFileSync(join(ROOT, "test", "fixtures", "plans", `${name}.json`), "utf8");

/** A recorded plan under test/fixtures/plans, parsed. */
export const planFixture = (name: string): PlanJson => parsePlanJson(planFixtureText(name), `${name}.json`);

/** plan-summary's I/O faked: files from a map, stdin from a string, output collected in `out`. */
export function fakeIo(files: Record<string, string>, stdin = "") {
  const out = { stdout: "", stderr: "", written: new Map<string, string>() };
  const io: PlanSummaryIo = {
    readFile: async (p) => {
      if (!(p in files)) throw new Error(`ENOENT: no such file, open '${p}'`);
      return files[p];
    },
    readStdin: async () => stdin,
    writeFile: async (p, t) => void out.written.set(p, t),
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
  };
  return { io, out };
}
