/**
 * `rackform plan-summary`: reads one or more `show -json` plans (files or stdin) and writes the Markdown summary.
 * I/O is passed in, so tests drive the same code path as the command.
 */
import { type CommandSpec, helpText, parseCommand, UsageError } from "../args.js";
import { renderMarkdown } from "./markdown.js";
import { type PlanInput, summarise } from "./model.js";
import { ManifestError, type Wave, wavesOf } from "./order.js";
import { PlanJsonError, parsePlanJson } from "./plan-json.js";
import { notHealthSteps } from "./remediation.js";

/** The command line of `rackform plan-summary`. */
export const PLAN_SUMMARY: CommandSpec = {
  name: "plan-summary",
  brief: "summarise `show -json` plans as Markdown for a pull request",
  positionals: "[FILE]...",
  summary: `summarise \`terraform show -json PLANFILE\` (or \`tofu show -json\`) output as Markdown for a pull request:
per rack, the nodes that power-cycle, reimage, re-run acceptance, join or leave the cluster;
the rollout's order (with --manifest) and each partition's budget for the whole change;
RACK labels a plan (else nodes group by PDU); no FILE or \`-\` reads stdin`,
  options: [
    { name: "--plan", value: "[RACK=]FILE", help: "a plan, labelled with its rack", multiple: true },
    {
      name: "--manifest",
      value: "FILE",
      help: "cdktf.out/manifest.json: the stacks' waves (a stack applies after those it depends on)",
    },
    { name: "--out", value: "FILE", help: "write the Markdown to FILE instead of stdout" },
    {
      name: "--only-health",
      help: "write nothing; exit 0 when the plans hold only health steps (the remediation ladder, re-checks), 3 otherwise, naming the other changes",
    },
  ],
};

/** Every flag the command accepts (pipelines are checked against it). */
export const PLAN_SUMMARY_FLAGS: readonly string[] = [...PLAN_SUMMARY.options.map((o) => o.name), "--help"];

/** What the command needs from the outside world. */
export interface PlanSummaryIo {
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A plan argument: `r12=plan.json` labels the plan with its rack; a bare path does not. */
export interface PlanArg {
  readonly label?: string;
  readonly path: string;
}

/** Splits `RACK=FILE`; a left side with a path separator or a dot is part of a file name, not a label. */
export function parsePlanArg(arg: string): PlanArg {
  const eq = arg.indexOf("=");
  if (eq > 0) {
    const label = arg.slice(0, eq);
    if (!/[/\\]/.test(label) && !label.endsWith(".json")) return { label, path: arg.slice(eq + 1) || "-" };
  }
  return { path: arg };
}

/** The arguments, or a usage error message (one line naming the option and the fix). */
export function parseArgs(
  args: readonly string[],
): { plans: PlanArg[]; out?: string; manifest?: string; help: boolean; onlyHealth: boolean } | string {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(PLAN_SUMMARY, args);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  const plans: PlanArg[] = parsed.sequence.flatMap(([key, value]) =>
    key === "plan" ? [parsePlanArg(value as string)] : key === "" ? [{ path: value as string }] : [],
  );
  if (plans.length === 0) plans.push({ path: "-" });
  if (plans.filter((p) => p.path === "-").length > 1) return "stdin (-) can be read only once; give it for one plan";
  const manifest = parsed.values.manifest as string | undefined;
  const out = parsed.values.out as string | undefined;
  const onlyHealth = parsed.values["only-health"] === true;
  return { plans, out, ...(manifest ? { manifest } : {}), help: parsed.help, onlyHealth };
}

/** `--only-health`: 0 when every plan holds only health steps, 3 (naming the rest on stderr) otherwise. */
function onlyHealth(inputs: readonly PlanInput[], io: PlanSummaryIo): number {
  const other = inputs.flatMap((i) => notHealthSteps(i.plan.resource_changes ?? []).map((c) => `${i.source}: ${c}`));
  if (other.length === 0) return 0;
  io.stderr(
    `rackform plan-summary: the plan holds changes other than health steps:\n${other.map((c) => `  ${c}\n`).join("")}`,
  );
  return 3;
}

/** Runs the command; returns the exit code (0 written, 1 unreadable plan, 2 usage, 3 --only-health refused). */
export async function planSummary(args: readonly string[], io: PlanSummaryIo): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === "string") {
    io.stderr(`rackform plan-summary: ${parsed}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(helpText(PLAN_SUMMARY));
    return 0;
  }
  const inputs: PlanInput[] = [];
  for (const p of parsed.plans) {
    const source = p.path === "-" ? "stdin" : p.path;
    try {
      const text = p.path === "-" ? await io.readStdin() : await io.readFile(p.path);
      inputs.push({ plan: parsePlanJson(text, source), source, ...(p.label ? { label: p.label } : {}) });
    } catch (e) {
      const why = e instanceof PlanJsonError ? e.message : `${source}: ${(e as Error).message}`;
      io.stderr(`rackform plan-summary: ${why}\n`);
      return 1;
    }
  }
  if (parsed.onlyHealth) return onlyHealth(inputs, io);
  let waves: Wave[] | undefined;
  if (parsed.manifest) {
    try {
      const names = new Set(inputs.map((i) => i.label).filter((l): l is string => l !== undefined));
      waves = wavesOf(await io.readFile(parsed.manifest), parsed.manifest, names.size > 0 ? names : undefined);
    } catch (e) {
      const why = e instanceof ManifestError ? e.message : `${parsed.manifest}: ${(e as Error).message}`;
      io.stderr(`rackform plan-summary: ${why}\n`);
      return 1;
    }
  }
  const markdown = renderMarkdown(summarise(inputs, waves));
  if (parsed.out) await io.writeFile(parsed.out, markdown);
  else io.stdout(markdown);
  return 0;
}
