import { describe, expect, it } from "vitest";
import { nextPollMs, StepDurations } from "../../../src/clients/http/poll.js";

const BACKEND = { minMs: 1_000, maxMs: 30_000 };
const mid = () => 0.5; // no jitter

describe("nextPollMs", () => {
  it("uses a fixed interval as it is (tests inject short ones)", () => {
    expect(nextPollMs(20, 600_000)).toBe(20);
  });

  it("polls a step of seconds about every second", () => {
    expect(nextPollMs(BACKEND, 0, mid)).toBe(1_000);
    expect(nextPollMs(BACKEND, 6_000, mid)).toBe(1_000);
  });

  it("grows with the time the step has taken, to the ceiling during a 15-minute deployment", () => {
    expect(nextPollMs(BACKEND, 80_000, mid)).toBe(10_000);
    expect(nextPollMs(BACKEND, 900_000, mid)).toBe(30_000);
  });

  it("polls a 15-minute deployment about 50 times, not 900 (one a second)", () => {
    let t = 0;
    let polls = 0;
    while (t < 900_000) {
      t += nextPollMs(BACKEND, t, mid);
      polls++;
    }
    expect(polls).toBeLessThan(60);
    expect(polls).toBeGreaterThan(30);
  });

  it("spreads polls ±20 % so waits started together do not poll together", () => {
    expect(nextPollMs(BACKEND, 900_000, () => 0)).toBe(24_000);
    expect(nextPollMs(BACKEND, 900_000, () => 1)).toBe(36_000);
  });
});

/** Polls of a step that ends after `durationMs`: how many, and how late its end is noticed. */
function walk(durationMs: number, expectedMs?: number): { polls: number; lateMs: number } {
  let t = 0;
  let polls = 0;
  while (t < durationMs) {
    t += nextPollMs(BACKEND, t, mid, expectedMs);
    polls++;
  }
  return { polls, lateMs: t - durationMs };
}

describe("polls around the duration peers took", () => {
  it("keeps the pace before it, without stepping past the start of the dense window", () => {
    expect(nextPollMs(BACKEND, 80_000, mid, 400_000)).toBe(10_000);
    expect(nextPollMs(BACKEND, 335_000, mid, 400_000)).toBe(5_000); // 85 % of 400 s is 340 s
  });

  it("polls four times as often from 85 % to 150 % of it, then at the usual pace", () => {
    expect(nextPollMs(BACKEND, 360_000, mid, 400_000)).toBe(11_250);
    expect(nextPollMs(BACKEND, 360_000, mid)).toBe(30_000);
    expect(nextPollMs(BACKEND, 700_000, mid, 400_000)).toBe(30_000);
  });

  it("notices the end of a ~4-minute step within ~3 % instead of ~12 %, for about as many polls", () => {
    // Steps of 200–280 s; peers took 2 % less (they started a little earlier in the stagger, or ran a little faster).
    const worst = { alone: 0, taught: 0 };
    const polls = { alone: 0, taught: 0 };
    for (let d = 200_000; d <= 280_000; d += 1_000) {
      const a = walk(d);
      const b = walk(d, d * 0.98);
      worst.alone = Math.max(worst.alone, a.lateMs / d);
      worst.taught = Math.max(worst.taught, b.lateMs / d);
      polls.alone += a.polls;
      polls.taught += b.polls;
    }
    expect(worst.alone).toBeGreaterThan(0.1);
    expect(worst.taught).toBeLessThan(0.04);
    expect(polls.taught).toBeLessThan(polls.alone * 1.3);
  });

  it("notices the end of a step of seconds within a quarter of the floor once peers took it, for a few more polls", () => {
    // A 3 s step (a short gate in a fast lab): alone, its end is seen on the next whole-floor poll.
    expect(walk(3_050).lateMs).toBeGreaterThan(900);
    const taught = walk(3_050, 3_000);
    expect(taught.lateMs).toBeLessThanOrEqual(250);
    expect(taught.polls).toBeLessThanOrEqual(walk(3_050).polls + 4);
  });

  it("learns the median of the last steps of each kind, nothing before the first", () => {
    const steps = new StepDurations();
    expect(steps.expectedMs("Deploying→Deployed")).toBeUndefined();
    for (const ms of [50_000, 60_000, 400_000]) steps.record("Deploying→Deployed", ms);
    steps.record("Testing→Ready", 9_000);
    expect(steps.expectedMs("Deploying→Deployed")).toBe(60_000);
    expect(steps.expectedMs("Testing→Ready")).toBe(9_000);
  });
});
