/**
 * A golden image: what every node of a rack is deployed with. A new version or checksum reimages the nodes that use it.
 * The image puts itself where each backend needs it: for every backend a Rack deploys it with, one rackform_image
 * (MAAS: uploaded as custom/<name>-<version>; Ironic: its URL checked), in the stack of the first Rack that uses it
 * for that backend. Other stacks using it depend on that stack, so the image is in place before any of them deploys
 * and is destroyed after them (see constructs/README.md, "Images").
 */
import { TerraformStack } from "cdktf";
import { Construct, type IConstruct } from "constructs";
import type { DeploymentImage } from "../gen/providers/rackform/deployment/index.js";
import { Image as ImageResource } from "../gen/providers/rackform/image/index.js";
import type { IBackend } from "./backend.js";
import { sanitize } from "./private/names.js";
import { type PropsSchema, validateProps } from "./private/validate.js";

/** Properties of an Image. */
export interface ImageProps {
  /** Image name as the backend knows it (MAAS custom/<name>-<version>). @default the construct id */
  readonly name?: string;
  /** Image version, e.g. "2026.06.2"; changing it reimages every node that uses the image. */
  readonly version: string;
  /**
   * Where the image is served (http or https): rackform streams it from there into MAAS (as custom/<name>-<version>),
   * Ironic writes it from there. @default none (then sourceFile for MAAS; Ironic racks require it)
   */
  readonly url?: string;
  /** MAAS: a local file uploaded instead of url, on the machine that runs the engine. @default none (url) */
  readonly sourceFile?: string;
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
    sourceFile: {
      type: "string",
      minLength: 1,
      expect: "a file path",
      fix: "give the image file's path, e.g. /srv/images/ubuntu-gpu-2026.06.2.tgz",
    },
    signature: { type: "string", minLength: 1, expect: "a non-empty signature", fix: "leave signature out" },
    checkUrl: { type: "boolean" },
  },
};

/**
 * A golden image (name, version, url, sha256, signature), validated at synth. It creates its rackform_image when a
 * Rack uses it (`resourceFor`), once per backend, in that Rack's stack.
 */
export class Image extends Construct {
  /** The image name. */
  readonly name: string;
  /** The image version. */
  readonly version: string;
  /** Where the image is served, if given. */
  readonly url: string | undefined;
  /** The image's sha256. */
  readonly sha256: string;
  /** The local file uploaded to MAAS instead of url, if given. */
  readonly sourceFile: string | undefined;
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
    this.sourceFile = props.sourceFile;
    this.sha256 = props.sha256.toLowerCase();
    this.signature = props.signature;
    this.checkUrl = props.checkUrl;
  }

  private readonly placed = new Map<IBackend, { stack: TerraformStack; resource: ImageResource }>();

  /**
   * The rackform_image that puts this image where `backend` needs it, for deployments in the stack of `scope`: created
   * there by the first caller per backend (logical id `<name>_<backend kind>_image`). A caller in another stack gets
   * undefined, and its stack is made to depend on the stack holding the image (cdktf deploys that one first).
   */
  resourceFor(scope: IConstruct, backend: IBackend): ImageResource | undefined {
    if (backend.imageResource === false) return undefined;
    const stack = TerraformStack.of(scope);
    const held = this.placed.get(backend);
    if (held) {
      if (held.stack === stack) return held.resource;
      if (!dependsOn(stack, held.stack)) stack.addDependency(held.stack);
      return undefined;
    }
    // Warewulf holds its images itself (imported with `wwctl image import`): there is no rackform_image to place.
    if (backend.kind === "warewulf") return undefined;
    const id = `${sanitize(this.name)}_${backend.kind}_image`;
    const resource = new ImageResource(stack, id, {
      backend: backend.kind,
      name: this.name,
      version: this.version,
      sha256: this.sha256,
      ...(this.url !== undefined ? { url: this.url } : {}),
      ...(backend.kind === "maas" && this.sourceFile !== undefined ? { sourceFile: this.sourceFile } : {}),
      ...(backend.kind === "maas" ? backend.imageFields() : {}),
    });
    resource.overrideLogicalId(id);
    this.placed.set(backend, { stack, resource });
    return resource;
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

/** True when `stack` depends on `other`, directly or through its dependencies. */
function dependsOn(stack: TerraformStack, other: TerraformStack, seen = new Set<TerraformStack>()): boolean {
  if (seen.has(stack)) return false;
  seen.add(stack);
  return stack.dependencies.some((d) => d === other || (d instanceof TerraformStack && dependsOn(d, other, seen)));
}
