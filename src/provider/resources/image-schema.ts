/** rackform_image's schema and its config checks (all before any backend call). */
import {
  attr,
  type Diagnostics,
  isUnknownValue,
  type ModelOf,
  path,
  requiresReplace,
  stringLength,
  stringMatches,
  stringOneOf,
  timeoutsBlock,
} from "../../framework/index.js";
import { IMAGE_VERSION, SHA256 } from "./deployment-schema.js";
import { imageUrl } from "./image-url.js";

/** The import id (and id): `<backend>:<name>/<version>`. */
export const IMAGE_ID = /^(maas|ironic):([a-z0-9][a-z0-9._-]{0,62})\/([A-Za-z0-9][A-Za-z0-9._+-]{0,63})$/;

/** The MAAS boot resource name rackform_deployment deploys by default: custom/<name>-<version>. */
export function maasImageName(name: string, version: string): string {
  return `custom/${name}-${version}`;
}

/** The rackform_image schema; its model (ModelOf) is what the handlers in image-ops.ts read and write. */
export const imageSchema = {
  version: 0,
  description:
    "A golden image, present where its backend needs it and verified by sha256, before any rackform_deployment uses " +
    "it. MAAS: a custom boot resource `custom/<name>-<version>` (what rackform_deployment deploys when osystem and " +
    "distro_series are left out), created through MAAS's boot-resources API with the sha256 and size and uploaded in " +
    "4 MiB pieces streamed from url (or source_file), never held whole in memory; MAAS checks the sha256 when the " +
    "last byte arrives. An upload cut short (a killed run) is resumed from the bytes MAAS reports holding. Ironic: " +
    "nothing is uploaded (Ironic downloads image.url itself); url is checked with a HEAD — it must answer with a " +
    "size, and with this sha256 when the server announces one (Repr-Digest, Digest, x-amz-checksum-sha256, " +
    "X-Checksum-Sha256). Refresh notices a boot resource deleted or holding other bytes (MAAS), or a url that no " +
    "longer answers (Ironic): verified_sha256 no longer matches, and the plan re-uploads (re-checks) in place — " +
    "deployments are not touched. A new version or sha256 is an in-place update that uploads the new boot resource; " +
    "the previous version's is deleted then if no MAAS machine is deployed with it, else kept (machines run it). " +
    "Do not make deployments depend on the image (no `depends_on`, no reference): the engines would then order a " +
    "version bump after the drain of every node using it, which the disruption budget holds back, a deadlock. The " +
    "provider orders them itself: a deployment waits for the upload of its image by the same apply. Destroy deletes " +
    "the boot resource; while MAAS machines are deployed with it, it waits for them when the same apply tears nodes " +
    "down (a destroy of the rack), else it is refused. Import with `<backend>:<name>/<version>`.",
  attributes: {
    id: attr.string({
      computed: true,
      description: 'The image\'s id and import id, `<backend>:<name>/<version>`, e.g. "maas:ubuntu-gpu/2026.06.2".',
    }),
    backend: attr.string({
      required: true,
      description:
        'Where the image must be: "maas" (uploaded) or "ironic" (URL checked). Changing it replaces the image.',
      validators: [stringOneOf("maas", "ironic")],
      planModifiers: [requiresReplace()],
    }),
    name: attr.string({
      required: true,
      description: 'Image name, e.g. "ubuntu-gpu" (the deployments\' image.name). Changing it replaces the image.',
      validators: [stringMatches(/^[a-z0-9][a-z0-9._-]{0,62}$/, "a lower-case name such as ubuntu-gpu")],
      planModifiers: [requiresReplace()],
    }),
    version: attr.string({
      required: true,
      description:
        'Image version, e.g. "2026.06.2". A change uploads the new version in place (MAAS: custom/<name>-<version>); ' +
        "the deployments that use it are reimaged by their own change.",
      validators: [stringMatches(IMAGE_VERSION, "a version such as 2026.06.2 (letters, digits, . _ + -)")],
    }),
    sha256: attr.string({
      required: true,
      description: "sha256 of the image's bytes (64 hex digits). MAAS refuses an upload whose bytes differ.",
      validators: [stringMatches(SHA256, "a sha256 digest of 64 hex digits")],
    }),
    url: attr.string({
      optional: true,
      description:
        "Where the image is served, an http or https URL: MAAS uploads stream from it (a GET with Range when " +
        "resuming); Ironic requires it and downloads it at deploy. Credentials in the URL (user:password@) are sent " +
        "as HTTP basic auth and never shown. For MAAS set url or source_file.",
      validators: [imageUrl()],
    }),
    source_file: attr.string({
      optional: true,
      description:
        "MAAS only: a local file to upload instead of url, on the machine running Terraform/OpenTofu (read as a " +
        "stream, from the resume offset).",
      validators: [stringLength({ min: 1 })],
    }),
    architecture: attr.string({
      optional: true,
      computed: true,
      default: "amd64/generic",
      description:
        'MAAS only: the boot resource\'s architecture. Changing it replaces the image. @default "amd64/generic"',
      validators: [stringMatches(/^[a-z0-9_]+\/[a-z0-9_.-]+$/, 'an architecture such as "amd64/generic"')],
      planModifiers: [requiresReplace()],
    }),
    filetype: attr.string({
      optional: true,
      computed: true,
      default: "tgz",
      description:
        'MAAS only: the file type MAAS records for the upload: "tgz" (a root tarball, MAAS\'s default), "ddtgz", ' +
        '"ddgz", "ddraw", "ddxz", "ddbz2", "ddtar", "ddtbz", "ddtxz". Changing it replaces the image. @default "tgz"',
      validators: [stringOneOf("tgz", "ddtgz", "ddgz", "ddraw", "ddxz", "ddbz2", "ddtar", "ddtbz", "ddtxz")],
      planModifiers: [requiresReplace()],
    }),
    backend_image: attr.string({
      computed: true,
      description:
        'How the backend names the image: MAAS "custom/<name>-<version>" (rackform_deployment\'s osystem/distro_series ' +
        "default), Ironic the url without credentials.",
    }),
    size_bytes: attr.number({
      computed: true,
      description: "The image's size in bytes, as its source announced it and the backend holds it.",
    }),
    verified_sha256: attr.string({
      computed: true,
      description:
        "The sha256 found where the backend needs the image: MAAS the complete boot resource's, Ironic this sha256 " +
        "once url answered (and matched, when the server announces a checksum); empty when the image is missing or " +
        "incomplete. When it differs from sha256 the plan re-uploads (re-checks) the image in place.",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update", "delete"]) },
} as const;

/** The recorded image. */
export type ImageState = ModelOf<typeof imageSchema>;
/** The planned image at apply: computed attributes may be unknown. */
export type ImagePlan = ModelOf<typeof imageSchema, "plan">;
/** The image at plan time and validation: any attribute may be unknown. */
export type ImageConfigModel = ModelOf<typeof imageSchema, "config">;

/** Cross-attribute checks: MAAS needs url or source_file (not both); Ironic needs url and takes no source_file. */
export function checkImageConfig(
  c: Pick<ImageConfigModel, "backend" | "url" | "source_file">,
  diags: Diagnostics,
): void {
  const { backend, url, source_file: file } = c;
  if (isUnknownValue(backend) || isUnknownValue(url) || isUnknownValue(file)) return;
  if (backend === "ironic") {
    if (url === null) {
      diags.error(
        "Ironic needs url",
        "Ironic downloads the image from its URL at deploy: set url to where the image is served.",
        path("url"),
      );
    }
    if (file !== null) {
      diags.error(
        "source_file is for MAAS",
        "Ironic downloads the image from url; a local file cannot be checked or served. Remove source_file.",
        path("source_file"),
      );
    }
  } else if (backend === "maas") {
    if ((url === null) === (file === null)) {
      diags.error(
        url === null ? "Where is the image?" : "Set url or source_file, not both",
        "MAAS is sent the image's bytes: set url (an http(s) URL rackform streams it from) or source_file (a local " +
          "file), one of the two.",
        path(url === null ? "url" : "source_file"),
      );
    }
  }
}
