/** A host's power as its own BMC reports it, for the resources that reset or power-cycle a host themselves. */
import { abortableSleep } from "../../clients/http/retry.js";
import type { RedfishClient } from "../../clients/redfish/index.js";

/** Whether a ComputerSystem PowerState means the host runs (or is starting). */
export const isHostOn = (p: string | null | undefined): boolean => p === "On" || p === "PoweringOn";

/** Polls the system's PowerState through its BMC every `pollMs` until it reads `state`; the signal ends the wait. */
export async function waitHostPower(
  bmc: Pick<RedfishClient, "getSystem">,
  state: "On" | "Off",
  pollMs: number,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    if ((await bmc.getSystem()).powerState === state) return;
    await abortableSleep(pollMs, signal);
  }
}
