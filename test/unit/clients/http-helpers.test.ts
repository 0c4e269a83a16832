/** Pure pieces of the HTTP core: Retry-After parsing, backoff, redaction, the semaphore. */
import { describe, expect, it } from "vitest";
import { backoffMs, parseRetryAfter, resolvePolicy } from "../../../src/clients/http/retry.js";
import { Semaphore } from "../../../src/clients/http/semaphore.js";
import { Redactor, safeUrl } from "../../../src/clients/redact.js";

describe("Retry-After", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  it("reads delta-seconds and HTTP-dates, never negative", () => {
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("backoff", () => {
  it("doubles up to the ceiling with half of each delay jittered", () => {
    const p = resolvePolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect([1, 2, 3, 4, 5].map((r) => backoffMs(r, p, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((r) => backoffMs(r, p, () => 0.999999))).toEqual([100, 200, 400, 800, 1000]);
  });
  it("fails on a nonsensical attempt count", () => {
    expect(() => resolvePolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
  });
});

describe("Redactor", () => {
  it("masks secrets and their URL-, JSON- and basic-auth forms; drops credential headers", () => {
    const r = new Redactor().add('p@ss "x"').addBasicAuth("root", 'p@ss "x"');
    const b64 = Buffer.from('root:p@ss "x"').toString("base64");
    const text = `a p@ss "x" b ${encodeURIComponent('p@ss "x"')} c p@ss \\"x\\" d Basic ${b64}`;
    expect(r.isClean(r.redact(text))).toBe(true);
    expect(r.headers({ Authorization: "Basic x", "X-Auth-Token": "t", etag: '"1"' })).toEqual({ etag: '"1"' });
    expect(safeUrl("https://u:p@h/x")).toBe("https://h/x");
  });
});

describe("Semaphore", () => {
  it("never lets more than the limit hold a slot", async () => {
    const s = new Semaphore(2);
    let now = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        s.run(async () => {
          peak = Math.max(peak, ++now);
          await new Promise((r) => setImmediate(r));
          now--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(s.inUse).toBe(0);
  });
});
