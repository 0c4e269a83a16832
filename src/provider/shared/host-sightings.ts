/**
 * What this provider process saw of a host's power through its own BMC, for the resources read after it in the same
 * plan. A refresh reads each rackform_bmc (the host's PowerState, live, or confirmed unchanged by a conditional GET)
 * before the rackform_machine that names it, and that before its rackform_deployment: when the BMC said "On" moments
 * ago, the deployment need not ask the backend too (MAAS's op=query_power_state is one more request to MAAS and two
 * to the same BMC, for every node of every plan). Anything but a fresh "On" — no sighting, an old one, "Off", a BMC
 * that did not answer, a BMC that serves more than one host — and the deployment asks the backend as before, so a
 * host switched off is found either way.
 *
 * Firmware is seen the same way: rackform_bmc's read confirms (or re-reads) the BMC's FirmwareInventory, and the
 * node's rackform_firmware, read after it, takes the versions from it instead of asking the BMC again.
 */
import type { BiosValue, FirmwareInfo } from "../../clients/redfish/index.js";

/**
 * A BMC's FirmwareInventory as a refresh just read it (with the Bios attributes when its System expansion carried
 * them), or "unchanged" since the read's fingerprint.
 */
export type FirmwareSighting =
  | { readonly firmware: readonly FirmwareInfo[]; readonly bios?: Readonly<Record<string, BiosValue>> }
  | "unchanged";

/** How long a sighting stands: the reads of one node's chain follow each other within seconds. */
export const SIGHTING_MAX_AGE_MS = 60_000;

/** A BMC's origin (scheme://host:port), the key sightings use, or undefined when `endpoint` is not a URL. */
function originOf(endpoint: string): string | undefined {
  try {
    return new URL(endpoint).origin;
  } catch {
    return undefined;
  }
}

/** Host power sightings of one provider process. */
export class HostSightings {
  private readonly power = new Map<string, { readonly system: string; readonly on: boolean; readonly at: number }>();
  /** BMCs seen with more than one system: which host a machine is cannot be told by the endpoint alone. */
  private readonly shared = new Set<string>();
  private readonly bmcOf = new Map<string, string>();
  private readonly firmware = new Map<string, { readonly seen: FirmwareSighting; readonly at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A BMC at `endpoint` reported the PowerState ("On", "Off", …) of its system `system` just now. */
  saw(endpoint: string, system: string, powerState: string | null | undefined): void {
    const o = originOf(endpoint);
    if (!o || this.shared.has(o)) return;
    const before = this.power.get(o);
    if (before && before.system !== system) {
      this.shared.add(o);
      this.power.delete(o);
      return;
    }
    this.power.set(o, { system, on: powerState === "On", at: this.now() });
  }

  /** The BMC at `endpoint` went unanswered: what was seen of it no longer stands. */
  lost(endpoint: string): void {
    const o = originOf(endpoint);
    if (!o) return;
    this.power.delete(o);
    this.firmware.delete(o);
  }

  /**
   * rackform_bmc's read of the BMC at `endpoint` found its FirmwareInventory (read or rebuilt just now), or
   * "unchanged": its expanded System and FirmwareInventory (with the System's Bios, where the BMC expands it) answered
   * as at its last full read.
   */
  sawFirmware(endpoint: string, seen: FirmwareSighting): void {
    const o = originOf(endpoint);
    if (o) this.firmware.set(o, { seen, at: this.now() });
  }

  /** What this process's rackform_bmc read found of the BMC's firmware within `maxAgeMs`, if it read it. */
  firmwareOf(endpoint: string, maxAgeMs = SIGHTING_MAX_AGE_MS): FirmwareSighting | undefined {
    const o = originOf(endpoint);
    const s = o === undefined ? undefined : this.firmware.get(o);
    return s && this.now() - s.at <= maxAgeMs ? s.seen : undefined;
  }

  /** The machine `machineId` (`<backend>:<id>`, as rackform_deployment names it) is the host behind `endpoint`. */
  link(machineId: string, endpoint: string): void {
    const o = originOf(endpoint);
    if (o) this.bmcOf.set(machineId, o);
  }

  /** True when this process saw the machine's host on through its BMC within `maxAgeMs`. */
  seenOn(machineId: string, maxAgeMs = SIGHTING_MAX_AGE_MS): boolean {
    const o = this.bmcOf.get(machineId);
    const s = o === undefined ? undefined : this.power.get(o);
    return s?.on === true && this.now() - s.at <= maxAgeMs;
  }
}
