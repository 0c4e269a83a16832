import { describe, expect, it } from "vitest";
import { peakInWindow, rateOf } from "../../../src/lab/request-rates.js";

describe("request rates", () => {
  it("counts the most arrivals within any one second, in a sliding window", () => {
    // 3 in [0, 1000), then 4 within 900–1800: the peak is the sliding window's 4, not a calendar second's 3
    expect(peakInWindow([0, 100, 200, 900, 1_200, 1_500, 1_800])).toBe(4);
  });

  it("does not count two arrivals exactly a second apart in one window", () => {
    expect(peakInWindow([0, 1_000, 2_000])).toBe(1);
  });

  it("reports nothing for an empty log and only entries since a time", () => {
    expect(rateOf([])).toEqual({ requests: 0, peakPerSecond: 0 });
    expect(rateOf([{ at: 5 }, { at: 10 }, { at: 2_000 }], 10)).toEqual({ requests: 2, peakPerSecond: 1 });
  });
});
