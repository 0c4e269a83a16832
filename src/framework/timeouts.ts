/** The conventional `timeouts { create = "20m" }` block, declared by resources that want it, and Go duration parsing. */
import { formatPath } from "./diagnostics.js";
import { attr, type Block, block, type TypedBlock } from "./schema.js";
import { isObjectValue } from "./schema-values.js";
import { validator } from "./validators.js";
import type { Value } from "./values.js";

/** An operation a timeout can bound. */
export type TimeoutOperation = "create" | "read" | "update" | "delete";

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "\u00b5s": 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h)/y;

/** A Go-style duration ("20m", "1h30m", "90s", "1.5h") in milliseconds; throws RangeError when malformed. */
export function parseDuration(text: string): number {
  const t = text.trim();
  if (t === "0") return 0;
  if (t === "") throw new RangeError('empty duration; write e.g. "20m" or "1h30m"');
  let ms = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < t.length) {
    const start = PART.lastIndex;
    const m = PART.exec(t);
    if (!m || m.index !== start) {
      throw new RangeError(`invalid duration "${text}"; write e.g. "20m", "1h30m" or "90s" (units ns us ms s m h)`);
    }
    ms += Number(m[1]) * UNIT_MS[m[2]];
  }
  return ms;
}

const durationValidator = validator("a duration such as 20m or 1h30m", (req, resp) => {
  if (typeof req.value !== "string") return;
  try {
    parseDuration(req.value);
  } catch (e) {
    resp.diagnostics.error("Invalid duration", `${formatPath(req.path)}: ${(e as Error).message}.`, req.path);
  }
});

/** A `timeouts` single block with an optional duration string per operation; add it under `blocks.timeouts`. */
export function timeoutsBlock(operations: readonly TimeoutOperation[]): TypedBlock<"single", Block> {
  const attributes = Object.fromEntries(
    operations.map((op) => [
      op,
      attr.string({
        optional: true,
        description: `How long ${op} may take, as a duration such as "20m".`,
        validators: [durationValidator],
      }),
    ]),
  );
  return block.single({ attributes, description: "Bounds on how long each operation may take." });
}

/** The configured timeout of `op` in a resource value holding a `timeouts` block, or `defaultMs`. */
export function timeoutMs(resource: Value, op: TimeoutOperation, defaultMs: number): number {
  const t = isObjectValue(resource) ? resource.timeouts : null;
  const v = isObjectValue(t) ? t[op] : null;
  return typeof v === "string" ? parseDuration(v) : defaultMs;
}
