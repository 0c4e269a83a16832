import { describe, expect, it } from "vitest";
import { nextPollMs } from "../../../src/clients/http/poll.js";

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
