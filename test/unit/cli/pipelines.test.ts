/**
 * The example pipelines (examples/pipelines/*.yml) have the structure their README promises — plan and comment on
 * pull/merge requests, apply in waves on the main branch — and every rackform, cdktf and terraform command they run
 * exists with the flags they pass. No YAML library is installed: the files keep to a block-style subset that the
 * small reader below parses (and refuses anything else, so the check cannot pass on a file it did not understand).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN_SUMMARY_FLAGS, parseArgs } from "../../../src/cli/plan-summary/index.js";
import { ROOT } from "../../support/rackform-e2e.js";

type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  readonly indent: number;
  readonly text: string;
  readonly no: number;
}

const unquote = (s: string): string =>
  /^"(.*)"$/.test(s) ? (JSON.parse(s) as string) : /^'(.*)'$/.test(s) ? s.slice(1, -1).replaceAll("''", "'") : s;

/** Reads block-style YAML: mappings, `- ` sequences, `|` block scalars, `[a, b]` flow lists of plain scalars. */
function readYaml(text: string): Yaml {
  const raw = text.split("\n");
  const lines: Line[] = raw
    .map((t, i) => ({ indent: t.length - t.trimStart().length, text: t.trim(), no: i + 1 }))
    .filter((l) => l.text !== "" && !l.text.startsWith("#"));
  let i = 0;

  function scalar(v: string, l: Line): Yaml {
    if (v.startsWith("[")) {
      if (!v.endsWith("]")) throw new Error(`line ${l.no}: unterminated flow list`);
      return v
        .slice(1, -1)
        .split(",")
        .map((s) => unquote(s.trim()))
        .filter((s) => s !== "");
    }
    if (v.startsWith("{") || v.startsWith("&") || v.startsWith("*") || v.startsWith(">")) {
      throw new Error(`line ${l.no}: outside the subset this reader understands: ${v}`);
    }
    return unquote(v);
  }

  /** A `|` block: every following source line indented deeper than `indent`, blank lines kept. */
  function block(parent: Line): string {
    const start = parent.no;
    const body: string[] = [];
    let end = start;
    while (
      end < raw.length &&
      (raw[end].trim() === "" || raw[end].length - raw[end].trimStart().length > parent.indent)
    )
      body.push(raw[end++]);
    while (i < lines.length && lines[i].no <= end) i++;
    const cut = Math.min(...body.filter((b) => b.trim() !== "").map((b) => b.length - b.trimStart().length));
    return `${body
      .map((b) => b.slice(cut))
      .join("\n")
      .trimEnd()}\n`;
  }

  function value(v: string, l: Line, childIndent: number): Yaml {
    if (v === "|") return block(l);
    if (v !== "") return scalar(v, l);
    if (i < lines.length && lines[i].indent > childIndent) return node(lines[i].indent);
    return "";
  }

  function mapping(indent: number, first?: { key: string; rest: string; line: Line }): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    const entry = (key: string, rest: string, l: Line) => {
      if (key in out) throw new Error(`line ${l.no}: duplicate key ${key}`);
      out[key] = value(rest, l, indent);
    };
    if (first) entry(first.key, first.rest, first.line);
    while (i < lines.length && lines[i].indent === indent && !lines[i].text.startsWith("- ")) {
      const l = lines[i++];
      const m = /^([A-Za-z0-9_.-]+|"[^"]+"):(?: (.*))?$/.exec(l.text);
      if (!m) throw new Error(`line ${l.no}: expected "key: value", got ${l.text}`);
      entry(unquote(m[1]), (m[2] ?? "").trim(), l);
    }
    return out;
  }

  function sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    while (i < lines.length && lines[i].indent === indent && lines[i].text.startsWith("- ")) {
      const l = lines[i++];
      const item = l.text.slice(2).trim();
      const m = /^([A-Za-z0-9_.-]+):(?: (.*))?$/.exec(item);
      if (m && !item.startsWith('"')) out.push(mapping(indent + 2, { key: m[1], rest: (m[2] ?? "").trim(), line: l }));
      else out.push(value(item, { ...l, indent }, indent));
    }
    return out;
  }

  function node(indent: number): Yaml {
    return lines[i].text.startsWith("- ") ? sequence(indent) : mapping(indent);
  }

  const doc = node(0);
  if (i < lines.length) throw new Error(`line ${lines[i].no}: unexpected indentation`);
  return doc;
}

const load = (name: string) => readYaml(readFileSync(join(ROOT, "examples", "pipelines", name), "utf8"));
const obj = (y: Yaml | undefined): { [key: string]: Yaml } => {
  if (typeof y !== "object" || y === null || Array.isArray(y)) throw new Error(`not a mapping: ${JSON.stringify(y)}`);
  return y;
};
const list = (y: Yaml | undefined): Yaml[] => (Array.isArray(y) ? y : []);
const texts = (y: Yaml | undefined): string[] =>
  typeof y === "string" ? [y] : Array.isArray(y) ? y.flatMap(texts) : y ? Object.values(y).flatMap(texts) : [];

/** Every shell command line of the scripts, continuation lines joined. */
const commands = (scripts: string[]) =>
  scripts.flatMap((s) =>
    s
      .replace(/\\\n/g, " ")
      .split("\n")
      .map((l) => l.trim()),
  );

/** The arguments after `<tool> <sub>` on each command line that runs it, as shell words (quotes dropped). */
function invocations(lines: string[], tool: RegExp): string[][] {
  return lines.flatMap((l) => {
    const m = tool.exec(l);
    if (!m) return [];
    const rest = l.slice(m.index + m[0].length).split(/\s*(?:\||>|&&|;)\s*/)[0];
    return [rest.match(/"[^"]*"|'[^']*'|\S+/g)?.map((w) => w.replace(/^["']|["']$/g, "")) ?? []];
  });
}

const RACKFORM_COMMANDS = ["install", "docs", "schema", "lab", "demo", "plan-summary"];
const CDKTF_FLAGS: Readonly<Record<string, readonly string[]>> = {
  synth: ["--app", "--output"],
  deploy: [
    "--app",
    "--auto-approve",
    "--ignore-missing-stack-dependencies",
    "--parallelism",
    "--skip-synth",
    "--no-color",
  ],
};
const TERRAFORM_FLAGS: Readonly<Record<string, readonly string[]>> = {
  init: ["-input", "-no-color"],
  plan: ["-input", "-no-color", "-lock-timeout", "-detailed-exitcode", "-out"],
  show: ["-json", "-no-color"],
};

/** Checks every rackform, cdktf and terraform command line of a pipeline's scripts; returns the plan-summary ones. */
function checkCommands(scripts: string[]): string[][] {
  const lines = commands(scripts);
  for (const args of invocations(lines, /\bnpx rackform /)) expect(RACKFORM_COMMANDS).toContain(args[0]);
  const summaries = invocations(lines, /\bnpx rackform plan-summary\b/);
  for (const args of summaries) {
    for (const f of args.filter((a) => a.startsWith("--"))) expect(PLAN_SUMMARY_FLAGS).toContain(f);
    expect(typeof parseArgs(args.map((a) => (a.startsWith("$") ? "r=plan.json" : a)))).toBe("object");
  }
  for (const args of invocations(lines, /\bnpx cdktf /)) {
    expect(Object.keys(CDKTF_FLAGS)).toContain(args[0]);
    for (const f of args.filter((a) => a.startsWith("--"))) expect(CDKTF_FLAGS[args[0]]).toContain(f);
  }
  for (const args of invocations(lines, /\bterraform -chdir=\S+ /)) {
    expect(Object.keys(TERRAFORM_FLAGS)).toContain(args[0]);
    for (const f of args.filter((a) => a.startsWith("-"))) expect(TERRAFORM_FLAGS[args[0]]).toContain(f.split("=")[0]);
  }
  return summaries;
}

describe("examples/pipelines/github-actions.yml", () => {
  const wf = obj(load("github-actions.yml"));
  const jobs = obj(wf.jobs);
  const steps = (job: string) => list(obj(jobs[job]).steps).map(obj);

  it("plans on pull requests and comments with plan-summary, updating one sticky comment", () => {
    expect(Object.keys(obj(wf.on))).toEqual(["pull_request", "push"]);
    const plan = obj(jobs.plan);
    expect(plan.if).toBe("github.event_name == 'pull_request'");
    expect(obj(plan.permissions)["pull-requests"]).toBe("write");
    const runs = steps("plan").flatMap((s) => texts(s.run));
    expect(runs.join("\n")).toMatch(
      /npx cdktf synth[\s\S]*terraform -chdir=.* show -json[\s\S]*npx rackform plan-summary/,
    );
    const comment = steps("plan").find((s) => s.uses === "actions/github-script@v7");
    const script = texts(obj(comment?.with).script).join("");
    expect(script).toContain("startsWith(heading)");
    expect(script).toContain('"## rackform plan summary"');
    expect(script).toMatch(/updateComment[\s\S]*createComment/);
    expect(checkCommands(runs)).toHaveLength(1);
    // gates on changes with the engine's exit code (cdktf diff exits 0 either way), and gives the summary the waves
    expect(runs.join("\n")).toMatch(/plan .*-detailed-exitcode .*\|\| code=\$\?/);
    expect(runs.join("\n")).toContain("--manifest cdktf.out/manifest.json");
  });

  it("applies on push in waves: the canary behind an environment, wave 2 after it, one apply at a time", () => {
    expect(obj(jobs.canary).if).toBe("github.event_name == 'push'");
    expect(obj(jobs.canary).environment).toBe("canary");
    expect(obj(jobs["wave-2"]).needs).toBe("canary");
    for (const job of ["canary", "wave-2"]) {
      expect(obj(obj(jobs[job]).concurrency)).toEqual({ group: "rackform-apply", "cancel-in-progress": "false" });
      const runs = steps(job).flatMap((s) => texts(s.run));
      expect(runs.join("\n")).toContain("npx cdktf deploy");
      expect(runs.join("\n")).toMatch(/npx cdktf deploy .*--no-color/);
      checkCommands(runs);
    }
  });

  it("passes secrets only as TF_VAR_* and PGPASSWORD from the secrets store", () => {
    const env = obj(wf.env);
    for (const [k, v] of Object.entries(env)) {
      if (/PASSWORD|TOKEN|KEY/.test(k)) expect(v, k).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    }
  });
});

describe("examples/pipelines/gitlab-ci.yml", () => {
  const ci = obj(load("gitlab-ci.yml"));

  it("plans merge requests and keeps one MR note with plan-summary", () => {
    expect(ci.stages).toEqual(["plan", "canary", "wave-2"]);
    const plan = obj(ci.plan);
    expect(texts(plan.rules)).toEqual(['$CI_PIPELINE_SOURCE == "merge_request_event"']);
    const scripts = [...texts(obj(ci.default).before_script), ...texts(plan.script)];
    expect(scripts.join("\n")).toMatch(/"PUT" : "POST"/);
    expect(scripts.join("\n")).toContain('startsWith("## rackform plan summary")');
    expect(checkCommands(scripts)).toHaveLength(1);
    expect(scripts.join("\n")).toMatch(/plan .*-detailed-exitcode .*\|\| code=\$\?/);
    expect(scripts.join("\n")).toContain("--manifest cdktf.out/manifest.json");
  });

  it("applies the default branch in waves: canary, then wave 2 after it, one apply at a time", () => {
    for (const job of ["canary", "wave-2"]) {
      const j = obj(ci[job]);
      expect(j.stage).toBe(job);
      expect(j.resource_group).toBe("rackform-apply");
      expect(texts(j.rules)).toEqual(["$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"]);
      expect(texts(j.script).join("\n")).toContain("npx cdktf deploy");
      checkCommands(texts(j.script));
    }
    expect(obj(obj(ci.canary).environment).name).toBe("canary");
    expect(obj(ci["wave-2"]).needs).toEqual(["canary"]);
  });
});

describe("the YAML reader the pipeline checks stand on", () => {
  it("reads mappings, sequences of mappings, block scalars and flow lists", () => {
    const y = readYaml("a: 1\nb:\n  - x: 'q'\n    y: |\n      line 1\n\n      line 2\n  - plain\nc: [p, \"r\"]\n");
    expect(y).toEqual({ a: "1", b: [{ x: "q", y: "line 1\n\nline 2\n" }, "plain"], c: ["p", "r"] });
  });

  it("fails on YAML outside its subset instead of misreading it", () => {
    expect(() => readYaml("a: &anchor 1\n")).toThrow(/outside the subset/);
    expect(() => readYaml("a: 1\na: 2\n")).toThrow(/duplicate key a/);
    expect(() => readYaml("a:\n    b: 1\n  c: 2\n")).toThrow(/unexpected indentation/);
  });
});
