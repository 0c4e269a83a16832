/** Small adapters between the lab core (World, Clock) and the backends' own seams (LabClock, BMC addresses). */
import type { LabClock } from "../maas/clock.js";
import type { Clock } from "../time.js";
import type { LabNode, World } from "../world/model.js";

/** The lab clock as the backends' timer clock: a timer is a sleep whose wake-up is ignored once cancelled. */
export function timerClock(clock: Clock): LabClock {
  return {
    now: () => clock.now(),
    setTimer(fn, ms) {
      let live = true;
      void clock.sleep(Math.max(0, ms)).then(() => {
        if (live) void fn();
      });
      return () => {
        live = false;
      };
    },
  };
}

/** The world node whose BMC listens on the host of `address` ("https://127.10.1.1:8443", "127.10.1.1", …). */
export function nodeByBmcAddress(world: World, address: string | undefined): LabNode | undefined {
  const host = bmcHost(address);
  if (!host) return undefined;
  for (const n of world.nodes.values()) if (n.address === host) return n;
  return undefined;
}

function bmcHost(address: string | undefined): string | undefined {
  const a = (address ?? "").trim();
  if (!a) return undefined;
  try {
    return new URL(/^[a-z]+:\/\//i.test(a) ? a : `https://${a}`).hostname;
  } catch {
    return undefined;
  }
}

/** The world node one of whose NIC ports has one of these MACs (any case). */
export function nodeByMac(world: World, macs: readonly string[]): LabNode | undefined {
  const want = new Set(macs.map((m) => m.toLowerCase()));
  for (const n of world.nodes.values()) if (n.ports.some((p) => want.has(p.mac.toLowerCase()))) return n;
  return undefined;
}
