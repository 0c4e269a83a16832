/**
 * Exact decimal arithmetic for cty numbers. The engine's numbers are arbitrary-precision, so a config value such as
 * 0.1 arrives as the string "0.1": it is not exactly any double. Handing back the nearest double would make a plan
 * differ from the config ("Provider produced invalid plan"), so the codec keeps such numbers as BigNumber text and only
 * uses a JS number when the double is exactly the engine's value.
 */
import { BigNumber, type CtyNumber } from "../framework/values.js";

/** A finite decimal: sign × mantissa × 10^-scale, normalised so the mantissa has no trailing zeros when scale > 0. */
export interface Decimal {
  readonly negative: boolean;
  readonly mantissa: bigint;
  readonly scale: number;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function normalise(negative: boolean, mantissa: bigint, scale: number): Decimal {
  if (mantissa === 0n) return { negative: false, mantissa: 0n, scale: 0 };
  let m = mantissa;
  let s = scale;
  while (s > 0 && m % 10n === 0n) {
    m /= 10n;
    s--;
  }
  if (s < 0) {
    m *= 10n ** BigInt(-s);
    s = 0;
  }
  return { negative, mantissa: m, scale: s };
}

/** Parses decimal text ("12", "-0.5", "1e30", "1.25E-3"); throws on anything else, including NaN and infinities. */
export function parseDecimal(text: string): Decimal {
  const m = DECIMAL_RE.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new Error(`"${text}" is not a decimal number`);
  const frac = m[3] ?? "";
  const exp = m[4] ? Number.parseInt(m[4], 10) : 0;
  if (Math.abs(exp) > 100_000) throw new Error(`"${text}" has an exponent out of range`);
  return normalise(m[1] === "-", BigInt(`${m[2]}${frac}` || "0"), frac.length - exp);
}

/** The decimal text Go's big.Float.Text('f', -1) would print for an exact value: no exponent, no trailing zeros. */
export function formatDecimal(d: Decimal): string {
  let digits = d.mantissa.toString();
  if (d.scale > 0) {
    digits = digits.padStart(d.scale + 1, "0");
    digits = `${digits.slice(0, digits.length - d.scale)}.${digits.slice(digits.length - d.scale)}`;
  }
  return d.negative ? `-${digits}` : digits;
}

/** The exact decimal value of a finite double. */
export function decimalOfDouble(x: number): Decimal {
  if (!Number.isFinite(x)) throw new Error(`${x} is not a finite number`);
  if (Number.isInteger(x)) return normalise(x < 0, BigInt(Math.abs(x)), 0);
  // x = m × 2^-k exactly, with k ≤ 1074; multiplying by 5^k turns the binary fraction into a decimal one.
  let k = 0;
  let v = Math.abs(x);
  while (!Number.isInteger(v)) {
    v *= 2;
    k++;
  }
  return normalise(x < 0, BigInt(v) * 5n ** BigInt(k), k);
}

function sameDecimal(a: Decimal, b: Decimal): boolean {
  return a.negative === b.negative && a.mantissa === b.mantissa && a.scale === b.scale;
}

/** The double that is exactly this decimal, or undefined when none is. */
export function exactDouble(d: Decimal): number | undefined {
  const x = Number(formatDecimal(d));
  if (!Number.isFinite(x)) return undefined;
  return sameDecimal(decimalOfDouble(x), d) ? x : undefined;
}

/** A CtyNumber in canonical form: a number when a double holds it exactly, else a BigNumber with canonical text. */
export function ctyNumberOfDecimal(d: Decimal): CtyNumber {
  const x = exactDouble(d);
  return x === undefined ? new BigNumber(formatDecimal(d)) : x;
}

/** A CtyNumber from an integer read off the wire. */
export function ctyNumberOfBigInt(n: bigint): CtyNumber {
  const x = Number(n);
  return BigInt(x) === n ? x : new BigNumber(n.toString());
}

/** Canonical CtyNumber for any number value (normalises BigNumber text, turns exact ones into numbers). */
export function canonicalNumber(n: CtyNumber): CtyNumber {
  return typeof n === "number" ? n : ctyNumberOfDecimal(parseDecimal(n.text));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** How go-cty puts a number on the wire: an int64 if exact, else a float64 if exact, else decimal text. */
export type WireNumber =
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "string"; readonly value: string };

/** Chooses the wire form of a number exactly as go-cty's msgpack marshal does. */
export function wireNumber(n: CtyNumber): WireNumber {
  if (typeof n === "number") {
    if (Number.isNaN(n)) throw new Error("NaN is not a valid number value");
    if (Number.isInteger(n)) {
      const b = BigInt(n);
      if (b >= INT64_MIN && b <= INT64_MAX) return { kind: "int", value: b };
    }
    return { kind: "float", value: n };
  }
  const d = parseDecimal(n.text);
  if (d.scale === 0) {
    const b = d.negative ? -d.mantissa : d.mantissa;
    if (b >= INT64_MIN && b <= INT64_MAX) return { kind: "int", value: b };
  }
  const x = exactDouble(d);
  if (x !== undefined) return { kind: "float", value: x };
  return { kind: "string", value: formatDecimal(d) };
}
