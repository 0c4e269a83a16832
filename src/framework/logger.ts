/** hclog-style JSON logging to stderr: the engine parses these lines (stdout belongs to the handshake). */

/** Log levels, in hclog's names. */
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

/** Structured fields attached to a log line. Never put secrets here. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A logger; `with` returns one that adds fields to every line. */
export interface Logger {
  trace(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  with(fields: LogFields): Logger;
}

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** The @module field. @default "rackform" */
  readonly module?: string;
  /** Lines below this level are dropped; "off" drops all. @default "trace" (the engine filters by TF_LOG) */
  readonly level?: LogLevel | "off";
  /** Where a line (with its trailing newline) goes. @default process.stderr.write */
  readonly write?: (line: string) => void;
  /** Clock for @timestamp, injectable for tests. @default () => new Date() */
  readonly now?: () => Date;
}

/**
 * The level the engine keeps of this provider's log, read as terraform-plugin-log reads it from the environment the
 * engine passes on: TF_LOG_PROVIDER_RACKFORM, else TF_LOG_PROVIDER, else TF_LOG. None set (or OFF): the engine discards
 * every line, so none is written — a fleet's apply logs thousands of progress lines. "JSON" and names the engine does
 * not know mean trace, as in Terraform.
 */
export function engineLogLevel(env: NodeJS.ProcessEnv = process.env): LogLevel | "off" {
  const raw = [env.TF_LOG_PROVIDER_RACKFORM, env.TF_LOG_PROVIDER, env.TF_LOG].find((v) => v !== undefined && v !== "");
  if (raw === undefined) return "off";
  const v = raw.trim().toLowerCase();
  if (v === "off") return "off";
  return v in ORDER ? (v as LogLevel) : "trace";
}

/**
 * go-plugin parses @timestamp with hclog's layout "2006-01-02T15:04:05.000000Z07:00" (exactly six fraction digits);
 * a millisecond ISO time fails that parse and the engine shows the whole line raw at DEBUG instead of at its level.
 */
export function hclogTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** A logger writing one JSON object per line: {"@level","@message","@module","@timestamp",…fields}. */
export function createLogger(opts: LoggerOptions = {}, base: LogFields = {}): Logger {
  const module = opts.module ?? "rackform";
  const level = opts.level ?? "trace";
  const min = level === "off" ? Number.POSITIVE_INFINITY : ORDER[level];
  const write = opts.write ?? ((line: string) => process.stderr.write(line));
  const now = opts.now ?? (() => new Date());
  const emit = (level: LogLevel, message: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    const line = {
      ...base,
      ...fields,
      "@level": level,
      "@message": message,
      "@module": module,
      "@timestamp": hclogTime(now()),
    };
    write(`${JSON.stringify(line, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}\n`);
  };
  return {
    trace: (m, f) => emit("trace", m, f),
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    with: (fields) => createLogger(opts, { ...base, ...fields }),
  };
}
