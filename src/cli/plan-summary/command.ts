/**
 * `rackform plan-summary`: reads one or more `show -json` plans (files or stdin) and writes the Markdown summary.
 * I/O is passed in, so tests drive the same code path as the command.
 */
import { renderMarkdown } from "./markdown.js";
import { type PlanInput, summarise } from "./model.js";
import { PlanJsonError, parsePlanJson } from "./plan-json.js";

/** The command's usage text (also the line `rackform --help` shows). */
export const PLAN_SUMMARY_USAGE = `plan-summary [--plan [RACK=]FILE]... [FILE]... [--out FILE]
                              summarise \`terraform show -json PLANFILE\` (or \`tofu show -json\`) output as Markdown for
                              a pull request: per rack, the nodes that power-cycle, reimage, re-run acceptance, join or
                              leave the cluster; RACK labels a plan (else nodes group by PDU); no FILE or \`-\` reads stdin`;

/** Every flag the command accepts (pipelines are checked against it). */
export const PLAN_SUMMARY_FLAGS: readonly string[] = ["--plan", "--out", "--help"];

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

/** The arguments, or a usage error message. */
export function parseArgs(args: readonly string[]): { plans: PlanArg[]; out?: string; help: boolean } | string {
  const plans: PlanArg[] = [];
  let out: string | undefined;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") help = true;
    else if (a === "--plan" || a === "--out") {
      const v = args[++i];
      if (v === undefined) return `${a} needs a value`;
      if (a === "--plan") plans.push(parsePlanArg(v));
      else out = v;
    } else if (a.startsWith("--plan=")) plans.push(parsePlanArg(a.slice("--plan=".length)));
    else if (a.startsWith("--out=")) out = a.slice("--out=".length);
    else if (a.startsWith("-") && a !== "-") return `unknown flag ${a}`;
    else plans.push({ path: a });
  }
  if (plans.length === 0) plans.push({ path: "-" });
  if (plans.filter((p) => p.path === "-").length > 1) return "stdin (-) can be read only once";
  return { plans, out, help };
}

/** Runs the command; returns the exit code (0 written, 1 unreadable plan, 2 usage). */
export async function planSummary(args: readonly string[], io: PlanSummaryIo): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === "string") {
    io.stderr(`rackform plan-summary: ${parsed}\nusage: rackform ${PLAN_SUMMARY_USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(`usage: rackform ${PLAN_SUMMARY_USAGE}\n`);
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
  const markdown = renderMarkdown(summarise(inputs));
  if (parsed.out) await io.writeFile(parsed.out, markdown);
  else io.stdout(markdown);
  return 0;
}
