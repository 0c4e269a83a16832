/** OpenStack Ironic as the provisioning backend: nodes with the redfish driver, images written by the deploy ramdisk. */
import { Construct, type IConstruct } from "constructs";
import type { MachineConfig } from "../gen/providers/rackform/machine/index.js";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { BackendKind, IBackend } from "./backend.js";
import type { ValidationProblem } from "./errors.js";
import type { Image } from "./image.js";
import { type PropsSchema, validateProps } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** How rackform authenticates to Ironic. */
export type IronicAuth = "none" | "basic" | "token";

/** Properties of an IronicBackend. */
export interface IronicBackendProps {
  /** The Ironic API URL, e.g. "http://ironic.example:6385". */
  readonly url: string;
  /**
   * Deploy (IPA) kernel URL, rendered in the provider's `ironic` block: written to each node's driver_info when it is
   * enrolled, so provide's automated cleaning can boot the ramdisk. Needed when ironic.conf has no
   * `[conductor]deploy_kernel` (without either, cleaning ends in clean failed + maintenance); set it with
   * deployRamdisk (Ironic takes its defaults only when driver_info names neither image).
   * @default none: the conductor's default applies
   */
  readonly deployKernel?: string;
  /** Deploy (IPA) ramdisk URL, with deployKernel (see there). @default none: the conductor's default applies */
  readonly deployRamdisk?: string;
  /** Authentication: "none" (noauth), "basic" (username + ironic_password) or "token" (ironic_token). @default "none" */
  readonly auth?: IronicAuth;
  /** HTTP basic user (auth "basic" only). @default none */
  readonly username?: string;
  /** HTTP basic password as a token; never a literal. @default the stack's sensitive variable ironic_password (auth "basic") */
  readonly password?: string;
  /** Keystone token as a token; never a literal. @default the stack's sensitive variable ironic_token (auth "token") */
  readonly token?: string;
  /** Ironic resource_class of every node. @default the provider's */
  readonly resourceClass?: string;
}

const url = (fix: string) => ({ type: "string", format: "http-url", expect: "an http(s) URL", fix });

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["url"],
  properties: {
    url: url("use the API URL, e.g. http://ironic.example:6385"),
    deployKernel: url("give the IPA kernel URL, e.g. http://images.example/ipa.kernel"),
    deployRamdisk: url("give the IPA ramdisk URL, e.g. http://images.example/ipa.initramfs"),
    auth: { enum: ["none", "basic", "token"], fix: 'use "none", "basic" or "token"' },
    username: { type: "string", minLength: 1, expect: "a user name", fix: "give the HTTP basic user" },
    password: { type: "string", secret: true },
    token: { type: "string", secret: true },
    resourceClass: { type: "string", minLength: 1, expect: "a resource class", fix: 'e.g. "gpu-h100"' },
  },
};

function crossProblems(base: string, p: IronicBackendProps): ValidationProblem[] {
  const problems = [
    ...literalSecretProblem(`${base}/password`, p.password, "ironic_password"),
    ...literalSecretProblem(`${base}/token`, p.token, "ironic_token"),
  ];
  if ((p.deployKernel === undefined) !== (p.deployRamdisk === undefined)) {
    const missing = p.deployKernel === undefined ? "deployKernel" : "deployRamdisk";
    problems.push({
      path: `${base}/${missing}`,
      problem: `is missing while ${missing === "deployKernel" ? "deployRamdisk" : "deployKernel"} is set`,
      fix: "set both, or neither to use ironic.conf's [conductor]deploy_kernel/deploy_ramdisk",
    });
  }
  if ((p.auth ?? "none") === "basic" && p.username === undefined) {
    problems.push({
      path: `${base}/username`,
      problem: 'is missing for auth "basic"',
      fix: "give the HTTP basic user",
    });
  }
  return problems;
}

/** Ironic endpoint, credentials and deploy ramdisk, validated at synth; it creates no resource. */
export class IronicBackend extends Construct implements IBackend {
  /** Always "ironic". */
  readonly kind: BackendKind = "ironic";
  /** The API URL. */
  readonly url: string;
  private readonly props: IronicBackendProps;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: IronicBackendProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) => crossProblems(base, props));
    this.url = props.url;
    this.props = props;
  }

  /** The provider's `ironic` block, with the deploy kernel and ramdisk every node is enrolled with. */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "ironic"> {
    const auth = this.props.auth ?? "none";
    const { deployKernel, deployRamdisk } = this.props;
    return {
      ironic: {
        url: this.url,
        ...(deployKernel !== undefined && deployRamdisk !== undefined ? { deployKernel, deployRamdisk } : {}),
        ...(auth === "basic"
          ? { username: this.props.username, password: secretValue(scope, this.props.password, "ironic_password") }
          : {}),
        ...(auth === "token" ? { token: secretValue(scope, this.props.token, "ironic_token") } : {}),
      },
    };
  }

  /** The node's resource_class, when set. */
  machineFields(): Pick<MachineConfig, "resourceClass"> {
    return this.props.resourceClass !== undefined ? { resourceClass: this.props.resourceClass } : {};
  }

  /**
   * Nothing per deployment: the provider block's deploy kernel and ramdisk are already in every node's driver_info
   * (rackform_deployment's own deploy_kernel/deploy_ramdisk stay a per-deployment override in HCL).
   */
  deploymentFields(): Record<string, never> {
    return {};
  }

  /** Ironic's rackform_image needs nothing beyond the image: it checks the URL. */
  imageFields(): Record<string, never> {
    return {};
  }

  /** Ironic writes the image from its URL (instance_info.image_source), so the image needs one. */
  problemsWithImage(image: Image, at: string): ValidationProblem[] {
    if (image.url !== undefined) return [];
    return [
      {
        path: `${image.node.path}/url`,
        problem: `is missing, and ${at} deploys through Ironic, which writes the image from its URL`,
        fix: "give the image a url (http or https)",
      },
    ];
  }
}
