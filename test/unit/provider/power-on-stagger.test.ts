import { describe, expect, it } from "vitest";
import { PowerOnStagger, pduCircuit } from "../../../src/provider/shared/power-on-stagger.js";

/**
 * A manual clock with a timer queue: sleeping registers a wake-up, and run() moves time to the earliest one only once
 * every promise has settled, so recorded start times are the stagger's own, not the machine's speed.
 */
function manualClock() {
  let t = 1_000;
  const timers: { at: number; wake: () => void }[] = [];
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    now: () => t,
    sleep: (ms: number) => new Promise<void>((wake) => timers.push({ at: t + ms, wake })),
    async run(): Promise<void> {
      for (await settle(); timers.length > 0; await settle()) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift()!;
        t = next.at;
        next.wake();
      }
    },
  };
}

describe("PowerOnStagger", () => {
  it("spaces power-ons on one PDU by the interval, first come first served", async () => {
    const clock = manualClock();
    const s = new PowerOnStagger(250, clock);
    const a = pduCircuit("https://127.11.0.1", "r01-pdu-a");
    const started: number[] = [];
    const all = Promise.all([1, 2, 3, 4].map(() => s.turn(a).then(() => started.push(clock.now()))));
    await clock.run();
    await all;
    expect(started).toEqual([1_000, 1_250, 1_500, 1_750]);
  });

  it("does not make one PDU's power-ons wait for another PDU's", async () => {
    // GIVEN a rack of 8 nodes on two PDUs, all outlets switched on at once
    const clock = manualClock();
    const s = new PowerOnStagger(250, clock);
    const pdus = [pduCircuit("https://127.11.0.1", "r01-pdu-a"), pduCircuit("https://127.11.0.2", "r01-pdu-b")];
    const order: string[] = [];
    // WHEN the turns are asked alternately, as the engine would start the outlets
    const all = Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => s.turn(pdus[i % 2]).then(() => order.push(`${i % 2}@${clock.now()}`))),
    );
    await clock.run();
    await all;
    // THEN each PDU's fourth power-on starts 3 intervals in (a whole-run stagger would need 7): side by side
    expect(order.filter((o) => o.startsWith("0@"))).toEqual(["0@1000", "0@1250", "0@1500", "0@1750"]);
    expect(order.filter((o) => o.startsWith("1@"))).toEqual(["1@1000", "1@1250", "1@1500", "1@1750"]);
  });

  it("keys a circuit by the PDU's service and its id, so two services' PDUs of the same id are two circuits", () => {
    expect(pduCircuit("https://127.11.0.1", "pdu-a")).not.toBe(pduCircuit("https://127.11.0.2", "pdu-a"));
  });
});
