/** What rackform_firmware's handlers use, and its builder from the configured provider. */
import type { PollSpec } from "../../clients/http/poll.js";
import { type ImageSourceInfo, urlImageSource } from "../../clients/images/source.js";
import type { RedfishClient } from "../../clients/redfish/index.js";
import type { Backend, BackendName } from "../backends/backend.js";
import { backendFor } from "../backends/index.js";
import type { ProviderData } from "../config/config.js";
import type { HostPace } from "../shared/host-power.js";
import type { HostSightings } from "../shared/host-sightings.js";
import type { RolloutHandovers } from "../shared/rollout-handover.js";

/** The part of a BMC's Redfish client the firmware resource uses. */
export type FirmwareBmc = Pick<
  RedfishClient,
  | "getSystem"
  | "power"
  | "firmwareInventory"
  | "bios"
  | "pushFirmware"
  | "simpleUpdate"
  | "runningUpdates"
  | "followTask"
  | "serviceRoot"
  | "secureBoot"
  | "secureBootDatabases"
  | "setSecureBootEnable"
  | "enrolCertificate"
  | "addSignature"
>;

/** What rackform_firmware's handlers use. */
export interface FirmwareDeps {
  readonly allowHttp: boolean;
  /** Between two polls of an update task. */
  readonly pollMs: number;
  /** How the host's power and the inventory are polled after a reset. */
  readonly hostPace: HostPace;
  /** How long the inventory may take after the reset to report the new versions. */
  readonly settleMs: number;
  /** The BMC at an origin, with the provider's redfish credentials. */
  bmc(origin: string): FirmwareBmc;
  /** An image URL's size and stream (HEAD, then GET); throws RACKFORM_ERR_IMAGE_SOURCE. */
  image(url: string, signal?: AbortSignal): Promise<ImageSourceInfo>;
  /** The backend a machine id names (a failed rolling update quarantines the node there). */
  backend(name: BackendName): Backend;
  /** What this process's rackform_bmc reads found of each BMC's firmware (a refresh reads through it). */
  readonly sightings: Pick<HostSightings, "firmwareOf">;
  /** Where a rolling update offers the node's reset to its cluster member. */
  readonly rollouts: Pick<RolloutHandovers, "offerFirmware">;
}

/** The floor of the BMC pace: an update task is polled at it. */
const pollOf = (p: PollSpec): number => (typeof p === "number" ? p : p.minMs);

/** The deps of the configured provider. */
export function firmwareDeps(providerData: unknown): FirmwareDeps {
  const data = providerData as ProviderData;
  const poll = pollOf(data.timings.readyPollMs);
  return {
    allowHttp: data.redfish.allowHttp,
    pollMs: poll,
    hostPace: data.hostPace,
    settleMs: data.timings.firmwareSettleMs ?? 1_200_000,
    bmc: (origin) => data.redfishClient(origin),
    image: (url, signal) => urlImageSource(data.core, url, signal),
    backend: (name) => backendFor(data, name),
    sightings: data.sightings,
    rollouts: data.rollouts,
  };
}
