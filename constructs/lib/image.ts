/**
 * A golden image: what every node of a rack is deployed with. A new version or checksum reimages the nodes that use it.
 */
import { Construct } from "constructs";
import type { DeploymentImage } from "../gen/providers/rackform/deployment/index.js";
import { type PropsSchema, validateProps } from "./private/validate.js";

/** Properties of an Image. */
export interface ImageProps {
  /** Image name as the backend knows it (MAAS custom/<name>-<version>). @default the construct id */
  readonly name?: string;
  /** Image version, e.g. "2026.06.2"; changing it reimages every node that uses the image. */
  readonly version: string;
  /** Where the image is served (http or https); Ironic writes it from there. @default none (MAAS deploys the uploaded custom/<name>-<version>; Ironic racks require it) */
  readonly url?: string;
  /** sha256 of the image, 64 hex digits; changing it reimages. */
  readonly sha256: string;
  /** Detached signature, recorded with each deployment (a change does not reimage). @default none */
  readonly signature?: string;
  /**
   * Whether apply asks the image server that `url` answers (HEAD, or a ranged GET) before an Ironic deploy; false
   * when only the backend's provisioning network reaches the URL. @default true
   */
  readonly checkUrl?: boolean;
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["version", "sha256"],
  properties: {
    name: { type: "string", minLength: 1, expect: "a non-empty name", fix: 'name the image, e.g. "ubuntu-gpu"' },
    version: {
      type: "string",
      minLength: 1,
      expect: "a non-empty version",
      fix: 'give the image version, e.g. "2026.06.2"',
    },
    url: {
      type: "string",
      format: "http-url",
      expect: "an http(s) URL",
      fix: "serve the image over http:// or https://, e.g. http://images.example/ubuntu-gpu-2026.06.2.qcow2",
    },
    sha256: {
      type: "string",
      format: "sha256",
      expect: "a sha256 (64 hex digits)",
      fix: "use the output of `sha256sum IMAGE` (64 hex digits)",
    },
    signature: { type: "string", minLength: 1, expect: "a non-empty signature", fix: "leave signature out" },
    checkUrl: { type: "boolean" },
  },
};

/** A golden image (name, version, url, sha256, signature), validated at synth; it creates no resource. */
export class Image extends Construct {
  /** The image name. */
  readonly name: string;
  /** The image version. */
  readonly version: string;
  /** Where the image is served, if given. */
  readonly url: string | undefined;
  /** The image's sha256. */
  readonly sha256: string;
  /** The detached signature, if given. */
  readonly signature: string | undefined;
  /** Whether apply checks that the URL answers before an Ironic deploy (undefined: the provider's default, true). */
  readonly checkUrl: boolean | undefined;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: ImageProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props);
    this.name = props.name ?? id;
    this.version = props.version;
    this.url = props.url;
    this.sha256 = props.sha256.toLowerCase();
    this.signature = props.signature;
    this.checkUrl = props.checkUrl;
  }

  /** The rackform_deployment `image` block. */
  toDeploymentImage(): DeploymentImage {
    return {
      name: this.name,
      version: this.version,
      sha256: this.sha256,
      ...(this.url !== undefined ? { url: this.url } : {}),
      ...(this.signature !== undefined ? { signature: this.signature } : {}),
      ...(this.checkUrl !== undefined ? { checkUrl: this.checkUrl } : {}),
    };
  }
}
