/**
 * NVIDIA Base Command Manager as the provisioning backend: PhysicalNode devices in cmdaemon, powered through their
 * BMCs, installed by the node-installer with a software image named `<image name>-<version>` that exists on the head
 * node (made with cm-create-image or a clone; rackform does not upload it, so no rackform_image is created).
 */
import { Construct, type IConstruct } from "constructs";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { BackendKind, IBackend } from "./backend.js";
import type { ValidationProblem } from "./errors.js";
import type { Image } from "./image.js";
import { type PropsSchema, validateProps } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** Properties of a BcmBackend. */
export interface BcmBackendProps {
  /** The head node's cmdaemon URL, e.g. "https://bcm-head:8081". */
  readonly url: string;
  /** The BCM user rackform logs in as. */
  readonly username: string;
  /** The password as a token; never a literal. @default the stack's sensitive variable bcm_password */
  readonly password?: string;
  /** PEM file of the CA that signed cmdaemon's certificate. @default the system store */
  readonly caFile?: string;
  /** Skip TLS verification (a lab you trust). @default false */
  readonly insecure?: boolean;
  /** Category new devices join. @default "default" */
  readonly category?: string;
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["url", "username"],
  properties: {
    url: {
      type: "string",
      format: "http-url",
      expect: "an http(s) URL",
      fix: "use the head node URL, e.g. https://bcm-head:8081",
    },
    username: { type: "string", minLength: 1, expect: "a user name", fix: "give the BCM user" },
    password: { type: "string", secret: true },
    caFile: { type: "string", minLength: 1, expect: "a file path", fix: "give the PEM file of the head node's CA" },
    insecure: { type: "boolean", expect: "true or false", fix: "use true only for a lab you trust" },
    category: { type: "string", minLength: 1, expect: "a category name", fix: 'e.g. "gpu-nodes"' },
  },
};

function crossProblems(base: string, p: BcmBackendProps): ValidationProblem[] {
  const problems = literalSecretProblem(`${base}/password`, p.password, "bcm_password");
  if (p.insecure === true && p.caFile !== undefined) {
    problems.push({ path: `${base}/insecure`, problem: "is true together with caFile", fix: "remove one of them" });
  }
  return problems;
}

/** BCM head node endpoint and credentials, validated at synth; it creates no resource. */
export class BcmBackend extends Construct implements IBackend {
  /** Always "bcm". */
  readonly kind: BackendKind = "bcm";
  /** BCM keeps software images itself: no rackform_image. */
  readonly imageResource = false;
  /** The head node URL. */
  readonly url: string;
  private readonly props: BcmBackendProps;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: BcmBackendProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) => crossProblems(base, props));
    this.url = props.url;
    this.props = props;
  }

  /** The provider's `bcm` block, the password as the stack's sensitive variable unless given. */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "bcm"> {
    const { caFile, insecure, category } = this.props;
    return {
      bcm: {
        url: this.url,
        username: this.props.username,
        password: secretValue(scope, this.props.password, "bcm_password"),
        ...(caFile !== undefined ? { caFile } : {}),
        ...(insecure !== undefined ? { insecure } : {}),
        ...(category !== undefined ? { category } : {}),
      },
    };
  }

  /** Nothing per machine beyond name, BMC and MACs. */
  machineFields(): Record<string, never> {
    return {};
  }

  /** Nothing per deployment: the software image is named from the image. */
  deploymentFields(): Record<string, never> {
    return {};
  }

  /** Not used: BCM gets no rackform_image. */
  imageFields(): Record<string, never> {
    return {};
  }

  /** BCM installs a software image of the head node by name; the image needs nothing more. */
  problemsWithImage(_image: Image, _at: string): ValidationProblem[] {
    return [];
  }
}
