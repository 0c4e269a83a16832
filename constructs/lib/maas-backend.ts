/** Canonical MAAS as the provisioning backend: machines enrolled with power_type redfish, custom images deployed. */
import { Construct, type IConstruct } from "constructs";
import type { ImageConfig } from "../gen/providers/rackform/image/index.js";
import type { MachineConfig } from "../gen/providers/rackform/machine/index.js";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { BackendKind, IBackend } from "./backend.js";
import type { ValidationProblem } from "./errors.js";
import type { Image } from "./image.js";
import { type PropsSchema, validateProps } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** Properties of a MaasBackend. */
export interface MaasBackendProps {
  /** The MAAS region URL, e.g. "http://maas.example:5240/MAAS/". */
  readonly url: string;
  /** MAAS API key as a token (a TerraformVariable's value); never a literal. @default the stack's sensitive variable maas_api_key (TF_VAR_maas_api_key) */
  readonly apiKey?: string;
  /** Erase the disks when a deployment is destroyed. @default true */
  readonly eraseOnDestroy?: boolean;
  /** Machine architecture. @default the provider's ("amd64/generic") */
  readonly architecture?: string;
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["url"],
  properties: {
    url: {
      type: "string",
      format: "http-url",
      expect: "an http(s) URL",
      fix: "use the region URL, e.g. http://maas.example:5240/MAAS/",
    },
    apiKey: { type: "string", secret: true },
    eraseOnDestroy: { type: "boolean" },
    architecture: { type: "string", minLength: 1, expect: "an architecture", fix: 'e.g. "amd64/generic"' },
  },
};

/** MAAS endpoint and credentials, validated at synth; it creates no resource (each stack using it declares maas_api_key). */
export class MaasBackend extends Construct implements IBackend {
  /** Always "maas". */
  readonly kind: BackendKind = "maas";
  /** The region URL. */
  readonly url: string;
  private readonly props: MaasBackendProps;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: MaasBackendProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) => literalSecretProblem(`${base}/apiKey`, props.apiKey, "maas_api_key"));
    this.url = props.url;
    this.props = props;
  }

  /** The provider's `maas` block. */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "maas"> {
    return { maas: { url: this.url, apiKey: secretValue(scope, this.props.apiKey, "maas_api_key") } };
  }

  /** The machine's architecture, when set. */
  machineFields(): Pick<MachineConfig, "architecture"> {
    return this.props.architecture !== undefined ? { architecture: this.props.architecture } : {};
  }

  /** eraseOnDestroy, when set. */
  deploymentFields(): { eraseOnDestroy?: boolean } {
    return this.props.eraseOnDestroy !== undefined ? { eraseOnDestroy: this.props.eraseOnDestroy } : {};
  }

  /** The boot resource's architecture: the machines'. */
  imageFields(): Pick<ImageConfig, "architecture"> {
    return this.props.architecture !== undefined ? { architecture: this.props.architecture } : {};
  }

  /** MAAS is sent the image's bytes (custom/<name>-<version>): from url, or from sourceFile. */
  problemsWithImage(image: Image, at: string): ValidationProblem[] {
    if (image.url !== undefined || image.sourceFile !== undefined) return [];
    return [
      {
        path: `${image.node.path}/url`,
        problem: `is missing, and ${at} deploys through MAAS, which is sent the image's bytes (neither url nor sourceFile is set)`,
        fix: "give the image a url (rackform streams it into MAAS) or a sourceFile",
      },
    ];
  }
}
