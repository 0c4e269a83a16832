/**
 * Host power through each backend, for rackform_deployment's "power is state": MAAS asks the BMC through the region
 * (op=query_power_state, op=power_on), Ironic reads and sets the power_state its conductor owns
 * (PUT /v1/nodes/{id}/states/power). A BMC that cannot be reached makes the answer "unknown", never an error: the
 * caller plans a power-on re-check of that one machine instead of failing the whole plan.
 */

import { isClientError } from "../../clients/errors.js";
import { nextPollMs, type PollSpec } from "../../clients/http/poll.js";
import { abortableSleep } from "../../clients/http/retry.js";
import type { IronicClient, IronicNode } from "../../clients/ironic/index.js";
import { type MaasClient, MaasError } from "../../clients/maas/index.js";
import type { HostPower, OperationOptions } from "./backend.js";

/** How long a power-on may take before the backend reports it (the resource's timeout bounds it first). */
const POWER_ON_MS = 30 * 60_000;

/**
 * MAAS's answer to op=query_power_state; a refused query (MAAS: 503, the BMC did not answer) is "unknown", and "denied"
 * when the BMC refused MAAS's credentials (the client's RACKFORM_ERR_MAAS_POWER_DENIED).
 */
export async function maasPowerState(client: MaasClient, id: string, signal?: AbortSignal): Promise<HostPower> {
  try {
    const s = await client.queryPowerState(id, signal);
    return s === "on" || s === "off" ? s : "unknown";
  } catch (e) {
    // The machine gone, a bad key or an unreachable region are real failures of the read; a BMC that does not
    // answer is a fact about the host.
    if (isClientError(e, "RACKFORM_ERR_MAAS_POWER_DENIED")) return "denied";
    if (isClientError(e) && e.status === 503) return "unknown";
    throw e;
  }
}

/** op=power_on, then op=query_power_state until the BMC says "on". */
export async function maasPowerOn(
  client: MaasClient,
  id: string,
  o: OperationOptions,
  pollMs: PollSpec,
): Promise<void> {
  if ((await maasPowerState(client, id, o.signal)) === "on") return;
  o.log.info("powering the host on through MAAS", { id });
  await client.powerOn(id, "rackform: the host of a deployed machine was off");
  const start = Date.now();
  const deadline = start + POWER_ON_MS;
  while ((await maasPowerState(client, id, o.signal)) !== "on") {
    if (Date.now() > deadline) {
      throw new MaasError("RACKFORM_ERR_MAAS_STATUS_TIMEOUT", `MAAS machine ${id} did not report power on`);
    }
    await abortableSleep(nextPollMs(o.pollMs ?? pollMs, Date.now() - start), o.signal);
  }
}

/**
 * Ironic's power_state of the node; "denied" when its power sync gave up because the BMC refused the credentials
 * (fault "power failure", the sync's maintenance reason ending with the driver's HTTP 401 error).
 */
export async function ironicPowerState(client: IronicClient, id: string, signal?: AbortSignal): Promise<HostPower> {
  const n = await client.getNode(id, {
    fields: ["uuid", "power_state", "maintenance", "maintenance_reason", "fault"],
    signal,
  });
  return ironicHostPower(n);
}

/** The host power a node's power_state, maintenance and fault say (a direct read or the shared node list). */
export function ironicHostPower(n: IronicNode): HostPower {
  if (n.powerState === "power on") return "on";
  if (n.powerState === "power off") return "off";
  const refused = n.maintenance && n.fault === "power failure" && /\b401\b/.test(n.maintenanceReason ?? "");
  return refused ? "denied" : "unknown";
}

/** PUT states/power "power on", then waits for power_state "power on" with nothing pending. */
export async function ironicPowerOn(
  client: IronicClient,
  id: string,
  o: OperationOptions,
  pollMs: PollSpec,
): Promise<void> {
  if ((await ironicPowerState(client, id, o.signal)) === "on") return;
  o.log.info("powering the host on through Ironic", { id });
  await client.setPowerState(id, "power on", { signal: o.signal });
  await client.waitForPowerState(id, "power on", {
    timeoutMs: POWER_ON_MS,
    pollMs: o.pollMs ?? pollMs,
    signal: o.signal,
  });
}

/** op=power_off (hard), waits until the BMC says "off", then powers on as maasPowerOn does. */
export async function maasPowerCycle(
  client: MaasClient,
  id: string,
  o: OperationOptions,
  pollMs: PollSpec,
): Promise<void> {
  if ((await maasPowerState(client, id, o.signal)) !== "off") {
    o.log.info("power cycling the host through MAAS", { id });
    await client.powerOff(id, { stopMode: "hard", comment: "rackform: remediation power cycle" });
    const start = Date.now();
    while ((await maasPowerState(client, id, o.signal)) !== "off") {
      if (Date.now() - start > POWER_ON_MS) {
        throw new MaasError("RACKFORM_ERR_MAAS_STATUS_TIMEOUT", `MAAS machine ${id} did not report power off`);
      }
      await abortableSleep(nextPollMs(o.pollMs ?? pollMs, Date.now() - start), o.signal);
    }
  }
  await maasPowerOn(client, id, o, pollMs);
}

/** PUT states/power "rebooting" (a host found off: "power on"), then waits for "power on" with nothing pending. */
export async function ironicPowerCycle(
  client: IronicClient,
  id: string,
  o: OperationOptions,
  pollMs: PollSpec,
): Promise<void> {
  const off = (await ironicPowerState(client, id, o.signal)) === "off";
  o.log.info(off ? "powering the host on through Ironic" : "power cycling the host through Ironic", { id });
  await client.setPowerState(id, off ? "power on" : "rebooting", { signal: o.signal });
  await client.waitForPowerState(id, "power on", {
    timeoutMs: POWER_ON_MS,
    pollMs: o.pollMs ?? pollMs,
    signal: o.signal,
  });
}
