/**
 * Host power for the Warewulf adapter. Warewulf's API has no power (warewulfd shells out to ipmitool from the CLI), so
 * rackform powers the node through its own Redfish path: the BMC address, user and password the adapter stored in the
 * node's `ipmi` block at enroll (as Warewulf itself keeps them for `wwctl power`).
 */

import { isUnreachable } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import type { PollSpec } from "../../clients/http/poll.js";
import type { RedfishClient } from "../../clients/redfish/index.js";
import type { WarewulfNode } from "../../clients/warewulf/index.js";
import type { HostPower, PowerCredentials } from "./backend.js";
import { pollUntil } from "./poll.js";
import { IPMI_TAG } from "./warewulf-states.js";

/** Makes (or shares) the Redfish client of one BMC. */
export type RedfishFactory = (address: string, username: string, password: string) => RedfishClient;

/** The node's BMC as stored in its ipmi block; undefined when rackform did not store one. */
export function bmcOf(n: WarewulfNode): PowerCredentials | undefined {
  const ipmi = n.fields.ipmi;
  const address = ipmi?.tags?.[IPMI_TAG.address];
  if (!address || !ipmi?.username || !ipmi.password) return undefined;
  return {
    bmcAddress: address,
    bmcUsername: ipmi.username,
    bmcPassword: ipmi.password,
    bmcInsecure: ipmi.tags?.[IPMI_TAG.insecure] === "true",
  };
}

/** The ipmi block that records `c` (the address also as ipaddr/port when its host is an IPv4 address). */
export function ipmiOf(c: PowerCredentials) {
  let host = "";
  let port = "";
  try {
    const u = new URL(/^https?:\/\//i.test(c.bmcAddress) ? c.bmcAddress : `https://${c.bmcAddress}`);
    host = u.hostname;
    port = u.port;
  } catch {
    // kept in the tag only
  }
  return {
    username: c.bmcUsername,
    password: c.bmcPassword,
    ...(/^\d+\.\d+\.\d+\.\d+$/.test(host) ? { ipaddr: host } : {}),
    ...(port ? { port } : {}),
    tags: { [IPMI_TAG.address]: c.bmcAddress, [IPMI_TAG.insecure]: String(c.bmcInsecure) },
  };
}

/** Power through the BMCs the nodes name. */
export class WarewulfPower {
  constructor(
    private readonly redfish: RedfishFactory,
    private readonly pollMs: PollSpec,
  ) {}

  private client(c: PowerCredentials): RedfishClient {
    return this.redfish(c.bmcAddress, c.bmcUsername, c.bmcPassword);
  }

  /** on/off as the BMC reports it; "denied" on 401, "unknown" when it cannot be reached. */
  async state(c: PowerCredentials): Promise<HostPower> {
    try {
      const p = (await this.client(c).getSystem()).powerState;
      return p === "On" ? "on" : p === "Off" ? "off" : "unknown";
    } catch (e) {
      if (isClientError(e, "RACKFORM_ERR_REDFISH_AUTH")) return "denied";
      if (isUnreachable(e)) return "unknown";
      throw e;
    }
  }

  /**
   * Boots the host from the network once: a one-time PXE override, then On (or ForceRestart when it runs), so the
   * node fetches its iPXE script, kernel, image and overlays from warewulfd.
   */
  async bootFromNetwork(c: PowerCredentials): Promise<void> {
    const rf = this.client(c);
    await rf.setBootOverride("Pxe", "Once");
    const on = (await rf.getSystem()).powerState === "On";
    await rf.power(on ? "ForceRestart" : "On");
  }

  /** Boots the host from the network again (a stateless node's fresh image) and waits until the BMC reports On. */
  async cycle(c: PowerCredentials, signal: AbortSignal, pollMs?: PollSpec): Promise<void> {
    await this.bootFromNetwork(c);
    const rf = this.client(c);
    await pollUntil({ pollMs: pollMs ?? this.pollMs, signal }, async () =>
      (await rf.getSystem()).powerState === "On" ? true : undefined,
    );
  }

  /** Powers the host off (ForceOff) unless it is off. */
  async off(c: PowerCredentials): Promise<void> {
    const rf = this.client(c);
    if ((await rf.getSystem()).powerState !== "Off") await rf.power("ForceOff");
  }

  /** Powers the host on from the network unless it runs, and waits until the BMC reports On. */
  async on(c: PowerCredentials, signal: AbortSignal, pollMs?: PollSpec): Promise<void> {
    const rf = this.client(c);
    if ((await rf.getSystem()).powerState === "On") return;
    await rf.setBootOverride("Pxe", "Once");
    await rf.power("On");
    await pollUntil({ pollMs: pollMs ?? this.pollMs, signal }, async () =>
      (await rf.getSystem()).powerState === "On" ? true : undefined,
    );
  }
}
