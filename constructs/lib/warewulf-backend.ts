/**
 * Warewulf v4 as the provisioning backend: stateless nodes defined in warewulfd's REST API (≥ 4.6.1), booting the
 * Warewulf image `<name>-<version>` from the network; rackform powers them through their BMCs' Redfish. Each node's
 * acceptance gate runs as rackform's runtime overlay `rackform-acceptance`, which the site imports into Warewulf
 * together with the overlay's own API user in auth.conf (rackform's convention, not a Warewulf feature).
 */
import { Construct, type IConstruct } from "constructs";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { BackendKind, IBackend } from "./backend.js";
import type { ValidationProblem } from "./errors.js";
import type { Image } from "./image.js";
import { type PropsSchema, validateProps } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** Properties of a WarewulfBackend. */
export interface WarewulfBackendProps {
  /** The warewulfd API URL, e.g. "http://ww-head.example:9873" (api.enabled in warewulf.conf). */
  readonly url: string;
  /** An API user of warewulfd's auth.conf. */
  readonly username: string;
  /** That user's password as a token; never a literal. @default the stack's sensitive variable warewulf_password */
  readonly password?: string;
  /** Skip TLS verification of an https warewulfd. @default false */
  readonly insecure?: boolean;
  /** The Warewulf profile every node gets. @default "default" */
  readonly profile?: string;
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
      fix: "use the warewulfd API URL, e.g. http://ww-head.example:9873",
    },
    username: { type: "string", minLength: 1, expect: "a user name", fix: "give an API user of auth.conf" },
    password: { type: "string", secret: true },
    insecure: { type: "boolean" },
    profile: { type: "string", minLength: 1, expect: "a profile name", fix: 'e.g. "default"' },
  },
};

/** warewulfd endpoint and credentials, validated at synth; it creates no resource. */
export class WarewulfBackend extends Construct implements IBackend {
  /** Always "warewulf". */
  readonly kind: BackendKind = "warewulf";
  /** The API URL. */
  readonly url: string;
  private readonly props: WarewulfBackendProps;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: WarewulfBackendProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) =>
      literalSecretProblem(`${base}/password`, props.password, "warewulf_password"),
    );
    this.url = props.url;
    this.props = props;
  }

  /** The provider's `warewulf` block. */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "warewulf"> {
    const { username, insecure, profile } = this.props;
    return {
      warewulf: {
        url: this.url,
        username,
        password: secretValue(scope, this.props.password, "warewulf_password"),
        ...(insecure !== undefined ? { insecure } : {}),
        ...(profile !== undefined ? { profile } : {}),
      },
    };
  }

  /** Nothing beyond name, BMC and MACs. */
  machineFields(): Record<string, never> {
    return {};
  }

  /** Nothing per deployment. */
  deploymentFields(): Record<string, never> {
    return {};
  }

  /** No rackform_image: Warewulf holds its images itself (`wwctl image import`). */
  imageFields(): Record<string, never> {
    return {};
  }

  /** Warewulf boots the image of that name it holds; nothing is required of the image construct. */
  problemsWithImage(_image: Image, _at: string): ValidationProblem[] {
    return [];
  }
}
