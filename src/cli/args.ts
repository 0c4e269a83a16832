/**
 * The command line of every `rackform` subcommand: one table of options per command (name, value, help, parser), one
 * parser, one help layout. A usage problem is a UsageError whose message is a single line naming the option and the fix;
 * main.ts prints it with the command's name and exits 2 (never a stack trace).
 */

/** The CLI's own codes; docs/errors.md lists them with the provider's and the constructs'. */
export const CLI_ERROR_CODES = {
  RACKFORM_ERR_CLI_USAGE:
    "A `rackform` command was given an unknown option, a missing or a bad value; the one-line message names the " +
    "option and the fix, and the command exits 2. `rackform <command> --help` lists the options.",
} as const;

/** A usage problem: an unknown option, a missing or bad value. The message is one line and names the fix. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code: keyof typeof CLI_ERROR_CODES = "RACKFORM_ERR_CLI_USAGE";
}

/** One option of a command. */
export interface OptionSpec {
  /** The long name with its dashes, e.g. `--nodes`. */
  readonly name: string;
  /** The value's placeholder in help, e.g. `N`; absent for a boolean switch. */
  readonly value?: string;
  /** One line of help. */
  readonly help: string;
  /** May be given more than once; the values are kept in order. */
  readonly multiple?: boolean;
  /** Checks and converts the raw value; throws a UsageError-worthy message (a string) when it is bad. */
  readonly parse?: (raw: string) => unknown;
}

/** A subcommand: its synopsis, what it does, its options and what its positional arguments are. */
export interface CommandSpec {
  /** As typed after `rackform`, e.g. `lab up`. */
  readonly name: string;
  /** Positional arguments in the synopsis, e.g. `[FILE]...`; absent when the command takes none. */
  readonly positionals?: string;
  /** What the command does in one short line, for `rackform --help`. */
  readonly brief: string;
  /** What the command does, one to three lines, for its own `--help`. */
  readonly summary: string;
  readonly options: readonly OptionSpec[];
}

/** Parsed arguments: option values by name without dashes (a list for `multiple`), and the positionals. */
export interface Parsed {
  readonly help: boolean;
  readonly values: Readonly<Record<string, unknown>>;
  readonly positionals: readonly string[];
  /** Every value and positional in command-line order, as [option name without dashes, or "" for a positional, value]. */
  readonly sequence: readonly (readonly [string, unknown])[];
}

const HELP: OptionSpec = { name: "--help", help: "print this help and exit" };

/** Levenshtein distance, for "did you mean" on a mistyped option. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

function unknownOption(spec: CommandSpec, given: string): UsageError {
  const names = spec.options.map((o) => o.name);
  const near = names
    .map((n) => ({ n, d: distance(given, n) }))
    .filter((x) => x.d <= 2 || x.n.startsWith(given) || given.startsWith(x.n))
    .sort((x, y) => x.d - y.d)[0]?.n;
  const hint = near ? `did you mean ${near}? ` : "";
  return new UsageError(`unknown option ${given}; ${hint}\`rackform ${spec.name} --help\` lists the options`);
}

/** Parses `argv` against the command's options; throws a UsageError with a one-line message. */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): Parsed {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const sequence: [string, unknown][] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      for (const p of argv.slice(i + 1)) {
        positionals.push(p);
        sequence.push(["", p]);
      }
      break;
    }
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      if (!spec.positionals)
        throw new UsageError(
          `unexpected argument ${JSON.stringify(arg)}; \`rackform ${spec.name}\` takes options only`,
        );
      positionals.push(arg);
      sequence.push(["", arg]);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const opt = spec.options.find((o) => o.name === name);
    if (!opt) throw unknownOption(spec, name);
    const key = opt.name.slice(2);
    if (opt.value === undefined) {
      if (eq > 0) throw new UsageError(`${opt.name} takes no value; give it alone`);
      values[key] = true;
      continue;
    }
    const raw = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (raw === undefined || (eq < 0 && raw.startsWith("--"))) {
      throw new UsageError(`${opt.name} needs a value: ${opt.name} ${opt.value}`);
    }
    let value: unknown = raw;
    if (opt.parse) {
      try {
        value = opt.parse(raw);
      } catch (e) {
        throw new UsageError(`${opt.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    sequence.push([key, value]);
    if (opt.multiple) values[key] = [...((values[key] as unknown[] | undefined) ?? []), value];
    else if (key in values) throw new UsageError(`${opt.name} given twice; give it once`);
    else values[key] = value;
  }
  return { help, values, positionals, sequence };
}

/** The help text of a command: synopsis, summary, then one line per option. */
export function helpText(spec: CommandSpec): string {
  const opts = [...spec.options, HELP];
  const left = (o: OptionSpec) => (o.value ? `${o.name} ${o.value}` : o.name);
  const width = Math.max(...opts.map((o) => left(o).length));
  const synopsis = [`rackform ${spec.name}`, spec.options.length ? "[options]" : "", spec.positionals ?? ""]
    .filter(Boolean)
    .join(" ");
  return [
    `usage: ${synopsis}`,
    "",
    ...spec.summary.split("\n").map((l) => `  ${l}`),
    "",
    "options:",
    ...opts.map((o) => `  ${left(o).padEnd(width)}  ${o.help}${o.multiple ? " (repeatable)" : ""}`),
    "",
  ].join("\n");
}

/** A value parser: a whole number within [min, max]. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
      throw new Error(`expected a whole number ${range}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
}

/** A value parser: a positive number (decimals allowed). */
export function positiveNumber(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0) {
    throw new Error(`expected a number above 0, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/** A value parser: one of the listed words. */
export function oneOf<T extends string>(choices: readonly T[]): (raw: string) => T {
  return (raw) => {
    if ((choices as readonly string[]).includes(raw)) return raw as T;
    throw new Error(`expected one of ${choices.join(", ")}, got ${JSON.stringify(raw)}`);
  };
}
