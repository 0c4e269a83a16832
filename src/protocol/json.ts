/**
 * JSON.parse without losing number precision: stored state may hold integers beyond 2^53 and long decimals.
 * Numbers become a plain number when a double holds them exactly, else a BigNumber; everything else is as JSON.parse.
 */
import { ctyNumberOfDecimal, parseDecimal } from "./numbers.js";

const textDecoder = new TextDecoder("utf-8", { fatal: true });
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A JSON string token; control characters (below U+0020) must be escaped, so they are excluded from the plain run.
const STRING_RE = new RegExp(
  `"(?:[^"\\\\${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"`,
  "y",
);

// A JSON string token, escapes included: removed before looking for number tokens, so text inside strings (a MAC
// address, a time) never looks like a number.
const STRING_TOKEN_RE = /"(?:[^"\\]|\\.)*"/g;
// Outside strings: a number token JSON.parse might not read exactly — a fraction or exponent, 16 or more digits, or
// -0 (which the exact reading makes 0). Number tokens follow ':', ',' or '[', or open the text.
const INEXACT_NUMBER_RE = /(?:^|[:,[])[ \t\n\r]*(?:-?\d+[.eE]|-?\d{16}|-0(?!\d))/;

/** Parses JSON text (or UTF-8 bytes), keeping numbers exact. Throws a SyntaxError naming the offset. */
export function parseJsonLossless(input: string | Uint8Array): unknown {
  const text = typeof input === "string" ? input : textDecoder.decode(input);
  // Stored state is mostly strings and small integers, which JSON.parse (native, several times faster) reads exactly.
  if (!INEXACT_NUMBER_RE.test(text.replace(STRING_TOKEN_RE, '""'))) {
    try {
      return JSON.parse(text);
    } catch {
      // Malformed: the exact parser below names the offset.
    }
  }
  return parseJsonExact(text);
}

/** The exact parser on its own (parseJsonLossless without its fast path), for tests that compare the two. */
export function parseJsonExact(text: string): unknown {
  let pos = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`invalid JSON: ${what} at offset ${pos}`);
  };
  const ws = () => {
    while (pos < text.length && " \t\n\r".includes(text[pos])) pos++;
  };
  const value = (): unknown => {
    ws();
    const c = text[pos];
    if (c === "{") {
      pos++;
      const entries: [string, unknown][] = [];
      ws();
      if (text[pos] === "}") {
        pos++;
        return {};
      }
      for (;;) {
        ws();
        if (text[pos] !== '"') fail("expected a string key");
        const k = str();
        ws();
        if (text[pos++] !== ":") fail("expected ':'");
        entries.push([k, value()]);
        ws();
        const d = text[pos++];
        if (d === "}") return Object.fromEntries(entries);
        if (d !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      pos++;
      const items: unknown[] = [];
      ws();
      if (text[pos] === "]") {
        pos++;
        return items;
      }
      for (;;) {
        items.push(value());
        ws();
        const d = text[pos++];
        if (d === "]") return items;
        if (d !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    for (const [lit, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(lit, pos)) {
        pos += lit.length;
        return v;
      }
    }
    NUMBER_RE.lastIndex = pos;
    const m = NUMBER_RE.exec(text);
    if (!m) return fail("unexpected character");
    pos += m[0].length;
    return ctyNumberOfDecimal(parseDecimal(m[0]));
  };
  const str = (): string => {
    STRING_RE.lastIndex = pos;
    const m = STRING_RE.exec(text);
    if (!m) return fail("malformed string");
    pos += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  const out = value();
  ws();
  if (pos !== text.length) fail("trailing characters");
  return out;
}
