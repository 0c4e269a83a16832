/**
 * A length of time, in aws-cdk's manner (`Duration.hours(72)`), for props that also take the Go-style text the provider
 * reads ("72h", "1h30m", "250ms"). Both forms are checked the same way, at the construct that takes them, and reach
 * the provider as the same text; a cdktf token (a variable) passes unread.
 */

/** A duration prop: a `Duration`, Go-style text ("1h30m"), or a token the engine resolves. */
export type DurationLike = Duration | string;

const UNITS: readonly [string, number][] = [
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
  ["ms", 1],
];

/** An immutable length of time. Creates nothing; an invalid amount (negative, not finite) fails where it is used. */
export class Duration {
  /** `amount` milliseconds. */
  static millis(amount: number): Duration {
    return new Duration(amount);
  }
  /** `amount` seconds. */
  static seconds(amount: number): Duration {
    return new Duration(amount * 1000);
  }
  /** `amount` minutes. */
  static minutes(amount: number): Duration {
    return new Duration(amount * 60_000);
  }
  /** `amount` hours. */
  static hours(amount: number): Duration {
    return new Duration(amount * 3_600_000);
  }
  /** `amount` days (24 h each; the provider's text has no day unit). */
  static days(amount: number): Duration {
    return new Duration(amount * 86_400_000);
  }

  private constructor(private readonly ms: number) {}

  /** The length in milliseconds. */
  toMilliseconds(): number {
    return this.ms;
  }

  /** Go-style text, largest units first: 5_400_000 ms → "1h30m", 250 ms → "250ms", 3 days → "72h". */
  toString(): string {
    if (!Number.isFinite(this.ms) || this.ms < 0) return `${this.ms}ms`; // refused by the format check, with the path
    if (this.ms === 0) return "0s";
    if (!Number.isInteger(this.ms)) return `${this.ms}ms`;
    let rest = this.ms;
    let text = "";
    for (const [unit, size] of UNITS) {
      const n = Math.floor(rest / size);
      if (n > 0) text += `${n}${unit}`;
      rest -= n * size;
    }
    return text;
  }
}

/** The text a duration prop hands the provider (and the props check); undefined stays undefined. */
export function durationText(d: DurationLike | undefined): string | undefined {
  return d instanceof Duration ? d.toString() : d;
}
