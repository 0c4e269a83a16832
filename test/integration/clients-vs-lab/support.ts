/**
 * Test support for the clients against the lab: a lab on a manual clock (profile `demo`, so states take visible
 * simulated time) with every outlet on and every BMC booted. Until startLab wires MAAS/Ironic in, tests start those
 * lab parts themselves with their redfish drivers pointed at these BMCs and this CA.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Lab, type LabNode, ManualClock, type RequestLogEntry, startLab } from "../../../src/lab/index.js";
import { rejection } from "../../support/rejection.js";

export { rejection };

/** A running lab with its manual clock. */
export interface ClientLab {
  readonly lab: Lab;
  readonly clock: ManualClock;
  /** Advances simulated time. */
  advance(ms: number): void;
  node(name: string): LabNode;
  /** Requests the lab saw after `since` (a `lab.requests.last()` value), optionally for one target. */
  requestsSince(since: number, target?: string): RequestLogEntry[];
  close(): Promise<void>;
}

/** Starts a lab of `nodes` nodes (vendors round-robin over every style), outlets on, BMCs booted. */
export async function startClientLab(nodes = 6, profile = "demo"): Promise<ClientLab> {
  const stateDir = mkdtempSync(join(tmpdir(), "rf-clients-vs-lab-"));
  const clock = new ManualClock();
  const lab = await startLab({ stateDir, nodes, profile, clock });
  for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  clock.advance(60_000); // past bmcBootMs: every BMC answers
  return {
    lab,
    clock,
    advance: (ms) => clock.advance(ms),
    node: (name) => {
      const n = lab.world.node(name);
      if (!n) throw new Error(`lab has no node ${name}`);
      return n;
    },
    requestsSince: (since, target) => lab.requests.since(since).filter((r) => !target || r.target === target),
    close: async () => {
      await lab.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
