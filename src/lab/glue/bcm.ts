/**
 * The lab's BCM head node wired to the world: power through the lab's Redfish BMCs (HTTPS, lab CA), device status
 * from the hosts behind them (a host that finished powering on PXE-boots and installs for the profile's deployMs),
 * the `deploy-failure` fault as INSTALLER_FAILED, and burn runs answered from the acceptance signals.
 */
import { randomBytes } from "node:crypto";
import type { Agent } from "node:https";
import { installBcmAcceptance } from "../acceptance/bcm.js";
import { type BcmApi, createBcmApi } from "../bcm/index.js";
import { redfishPowerDriver } from "../maas/index.js";
import type { Clock } from "../time.js";
import type { World } from "../world/model.js";
import { nodeByBmcAddress } from "./adapters.js";

/** The account the lab's head node lets rackform log in with. */
export const BCM_USER = "rackform";

/** Options of createLabBcm. */
export interface LabBcmOptions {
  readonly world: World;
  readonly clock: Clock;
  readonly caPem: string;
  readonly agent: Agent;
  /** The Redfish URL of the BMC at a loopback address (the lab's BMCs share one port). */
  readonly bmcUrl?: (address: string) => string;
}

/** The lab BCM and the password of its account. */
export function createLabBcm(o: LabBcmOptions): { api: BcmApi; password: string } {
  const { world } = o;
  const t = world.time;
  const password = randomBytes(18).toString("base64url");
  const api = createBcmApi({
    users: { [BCM_USER]: password },
    now: () => o.clock.now(),
    power: redfishPowerDriver({ caPem: o.caPem, agent: o.agent }),
    bmcUrl: o.bmcUrl,
    hostUpSince(ip) {
      const n = nodeByBmcAddress(world, ip);
      if (!n || world.powerState(n) !== "On") return undefined;
      return n.power.since + t.duration("powerOnMs");
    },
    installOutcome(d) {
      const n = nodeByBmcAddress(world, d.interfaces.find((i) => i.childType === "NetworkBmcInterface")?.ip);
      return n && world.faults.take("deploy-failure", { node: n.spec.name }) ? "fail" : "ok";
    },
    delays: { installMs: t.duration("deployMs"), burnMs: t.duration("burnInMs") },
  });
  installBcmAcceptance(api, world, (ip) => nodeByBmcAddress(world, ip));
  return { api, password };
}
