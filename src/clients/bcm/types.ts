/** BCM entities as rackform reads them (a subset of cmdaemon's fields; `raw` keeps the rest). */

/** A PhysicalNode device. */
export interface BcmDevice {
  readonly uuid: string;
  readonly hostname: string;
  /** Provisioning MAC, lower case ("" when unset). */
  readonly mac: string;
  /** Every MAC of the device's physical interfaces and its own, lower case. */
  readonly macs: readonly string[];
  /** Category uuid. */
  readonly category: string;
  /** IP of the BMC interface (childType NetworkBmcInterface), "" when none. */
  readonly bmcIp: string;
  readonly powerControl: string;
  /** The node's own software image uuid, undefined when it takes its category's. */
  readonly softwareImage?: string;
  readonly finalizeScript: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** What getStatusForDevices says about one device. */
export interface BcmDeviceStatus {
  readonly uuid: string;
  /** UP, DOWN, CLOSED, INSTALLING, INSTALLER_FAILED, INSTALLER_BURNING, … */
  readonly status: string;
  readonly closed: boolean;
  readonly userMessage: string;
  readonly infoMessage: string;
  /** The image the running boot installed (lab extension; "" when unknown). */
  readonly installedSoftwareImage: string;
}

/** A category or a software image: uuid and name. */
export interface BcmNamed {
  readonly uuid: string;
  readonly name: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** One device's burn run. */
export interface BcmBurnStatus {
  readonly uuid: string;
  /** none, running, passed, failed. */
  readonly status: string;
  readonly log: string;
}

/** The device a new enrollment creates. */
export interface BcmDeviceCreate {
  readonly hostname: string;
  readonly mac: string;
  readonly category: string;
  readonly bmcIp: string;
  readonly bmcUsername: string;
  readonly bmcPassword: string;
}

/** Power operations of cmdevice.powerOperation. */
export type BcmPowerOperation = "ON" | "OFF" | "RESET" | "STATUS";
