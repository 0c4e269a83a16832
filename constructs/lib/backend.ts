/**
 * The seam between a Rack and the provisioning backend (MAAS, Ironic, Warewulf or BCM): what the provider block needs
 * and what each node's machine and deployment get. Implemented by MaasBackend, IronicBackend, WarewulfBackend and
 * BcmBackend.
 */
import type { IConstruct } from "constructs";
import type { DeploymentConfig } from "../gen/providers/rackform/deployment/index.js";
import type { ImageConfig } from "../gen/providers/rackform/image/index.js";
import type { MachineConfig } from "../gen/providers/rackform/machine/index.js";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { ValidationProblem } from "./errors.js";
import type { Image } from "./image.js";

/** The backends rackform_machine knows. */
export const BACKEND_KINDS = ["maas", "ironic", "warewulf", "bcm"] as const;

/** One of BACKEND_KINDS. */
export type BackendKind = (typeof BACKEND_KINDS)[number];

/** A provisioning backend as a Rack uses it. */
export interface IBackend extends IConstruct {
  /** rackform_machine `backend`. */
  readonly kind: BackendKind;
  /** The provider block's backend settings for the stack of `scope` (credentials as that stack's variables). */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "maas" | "ironic" | "warewulf" | "bcm">;
  /** Per-machine settings beyond name, BMC and MACs. */
  machineFields(): Pick<MachineConfig, "architecture" | "resourceClass">;
  /** Per-deployment settings beyond machine, image and user data. */
  deploymentFields(): Pick<DeploymentConfig, "deployKernel" | "deployRamdisk" | "osystem" | "eraseOnDestroy">;
  /** Per-image settings of the rackform_image this backend needs (MAAS: the boot resource's architecture). */
  imageFields(): Pick<ImageConfig, "architecture">;
  /**
   * false when the backend holds images itself, outside rackform (BCM software images made on the head node): the
   * Image construct then creates no rackform_image for it. @default true
   */
  readonly imageResource?: boolean;
  /** Problems deploying `image` with this backend; paths under `at`. */
  problemsWithImage(image: Image, at: string): ValidationProblem[];
}
