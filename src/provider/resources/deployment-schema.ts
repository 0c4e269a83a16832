/** rackform_deployment's schema, its config checks (all before any backend call) and the image spec it deploys. */
import {
  attr,
  type Diagnostics,
  isUnknownValue,
  type ModelOf,
  path,
  stringMatches,
  timeoutsBlock,
  type Unknowable,
  useStateForUnknown,
} from "../../framework/index.js";
import { BACKEND_NAMES, type BackendName, type ImageSpec } from "../backends/backend.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import { imageUrl } from "./image-url.js";
import { deploymentRemediationAttributes } from "./remediation-schema.js";

/** A machine id as rackform_machine records it: `<backend>:<id>`. */
export const MACHINE_ID = new RegExp(`^(${BACKEND_NAMES.join("|")}):(\\S+)$`);
/** A sha256 digest: 64 hex digits. */
export const SHA256 = /^[0-9a-fA-F]{64}$/;
/** An image version: starts with a letter or digit, then letters, digits and . _ + - (e.g. 2026.06.2). */
export const IMAGE_VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** Where Ironic (or IPA) fetches the deploy kernel and ramdisk from: http, https or file. */
export const IMAGE_URL = /^(https?|file):\/\/\S+$/;

/** The image attributes whose change means a reimage (signature alone is recorded in place). */
export const IMAGE_IDENTITY = ["name", "version", "url", "sha256"] as const;
/** Top-level attributes whose change means a reimage. */
export const REPLACE_ATTRIBUTES = [
  "machine_id",
  "user_data",
  "osystem",
  "distro_series",
  "deploy_kernel",
  "deploy_ramdisk",
] as const;

/** The rackform_deployment schema. */
export const deploymentSchema = {
  version: 0,
  description:
    "The golden image deployed on a commissioned rackform_machine: MAAS deploy (osystem/distro_series, cloud-init " +
    "user_data) or Ironic deploy (instance_info image_source + sha256, config drive user_data). A new image name, " +
    'version, url or sha256, or new user data, replaces the deployment: the plan reads "must be replaced" (a ' +
    "reimage). If the deploy fails the machine keeps the backend's evidence and the deployment is recorded as " +
    "tainted. With rolling = true (once recorded) an image change is instead recorded in place and carried out by " +
    "the node's rackform_cluster_member in one step within its disruption budget (see rolling). Refresh shows a machine released by hand as gone (the plan deploys it again) and an image changed " +
    "out of band as a replacement (deployed_image forces it); a host found powered off (by hand, or by its PDU " +
    "outlet) plans an in-place power-on (power_state), never a reimage; a create that finds its own deployment " +
    "already there (its apply was killed) powers on a host found off. An image gone from its backend since the " +
    "deploy (its MAAS boot resource deleted, its Ironic image.url no longer answering) changes nothing for the running " +
    "node: refresh warns per node, naming the image and the fix, because the next redeploy would fail. Destroy releases with disk erase (MAAS) or undeploys " +
    "with cleaning (Ironic) and waits until the machine is free; an Ironic node a failed gate left in `service " +
    "failed` is returned to active first. When the BMC does not answer (Ironic's power sync holds the node in its " +
    "power-failure maintenance) the destroy fails at once naming the node and the fix, changing nothing, and the next " +
    "apply after the BMC is back goes on. Joining a scheduler is the user data's business: " +
    "a `rackform-join: slurm` (or `kubernetes`) line asks the node to register with it. Import with the machine id.",
  attributes: {
    id: attr.string({
      computed: true,
      description: 'The deployed machine\'s id, the same as machine_id, e.g. "maas:4y3h7n".',
      planModifiers: [useStateForUnknown()],
    }),
    machine_id: attr.string({
      required: true,
      description:
        'The rackform_machine id, e.g. "maas:4y3h7n" or "ironic:<uuid>". Changing it replaces the deployment.',
      validators: [stringMatches(MACHINE_ID, 'a rackform_machine id such as "maas:4y3h7n" or "ironic:<uuid>"')],
    }),
    image: attr.single(
      {
        name: attr.string({
          required: true,
          description: 'Image name, e.g. "ubuntu-gpu".',
          validators: [stringMatches(/^[a-z0-9][a-z0-9._-]{0,62}$/, "a lower-case name such as ubuntu-gpu")],
        }),
        version: attr.string({
          required: true,
          description: 'Image version, e.g. "2026.06.2". Changing it reimages the machine.',
          validators: [stringMatches(IMAGE_VERSION, "a version such as 2026.06.2 (letters, digits, . _ + -)")],
        }),
        url: attr.string({
          optional: true,
          description:
            "Where the image is served, an http or https URL; required by Ironic (instance_info.image_source), " +
            "unused by MAAS (which deploys the boot resource uploaded under distro_series). Credentials in the URL " +
            "(user:password@) are sent as HTTP basic auth and never shown. For Ironic, apply first checks that the " +
            "URL answers (see check_url).",
          validators: [imageUrl()],
        }),
        check_url: attr.bool({
          optional: true,
          description:
            "Before an Ironic deploy, ask the image server whether image.url answers (a HEAD, or a one-byte ranged " +
            "GET when the server refuses HEAD), trusting the CA bundle the provider trusts (redfish.ca_file) and " +
            "its insecure setting; a 404, a refused connection or a timeout fails the apply with a diagnostic on " +
            "image.url, and nothing is sent to Ironic. Set false when only the backend's provisioning network " +
            "reaches the URL. Unset means true, so existing deployments plan no change; a change is recorded in place. " +
            "@default true",
        }),
        sha256: attr.string({
          required: true,
          description:
            "sha256 of the image (64 hex digits); Ironic checks it when it writes the image. Changing it reimages.",
          validators: [stringMatches(SHA256, "a sha256 digest of 64 hex digits")],
        }),
        signature: attr.string({
          optional: true,
          description: "Detached signature of the image, recorded with the deployment (a change does not reimage).",
        }),
      },
      {
        required: true,
        description: "The golden image: name, version, url, sha256, signature, and whether apply checks the url.",
      },
    ),
    user_data: attr.string({
      optional: true,
      description:
        "cloud-init user data. A line `rackform-join: slurm` (or `kubernetes`, or both comma-separated) asks the " +
        "booted node to register with the scheduler; rackform_cluster_member then admits it. Changing it reimages.",
    }),
    osystem: attr.string({
      optional: true,
      description: 'MAAS osystem (MAAS only). @default "custom" (an uploaded custom image)',
      validators: [stringMatches(/^[a-z0-9_-]{1,40}$/, "an osystem name such as custom or ubuntu")],
    }),
    distro_series: attr.string({
      optional: true,
      description:
        'MAAS distro_series (MAAS only), e.g. "noble". @default "<image.name>-<image.version>" (the custom image ' +
        "uploaded under that name)",
      validators: [stringMatches(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,80}$/, "a series name such as noble")],
    }),
    deploy_kernel: attr.string({
      optional: true,
      description:
        "Ironic only: URL of the deploy (IPA) kernel for this deployment, written to the node's driver_info before " +
        "the deploy, overriding the provider's ironic.deploy_kernel (which every node gets at enrollment, so " +
        "provide's cleaning can boot the ramdisk: set the images there). It stays in driver_info, so the tear-down's " +
        "cleaning boots it too. Set it together with deploy_ramdisk: Ironic takes the conductor's " +
        "`[conductor]deploy_kernel` defaults only when driver_info names neither. @default not written (the " +
        "provider's images, else the conductor's defaults)",
      validators: [stringMatches(IMAGE_URL, "an http(s):// or file:// URL")],
    }),
    deploy_ramdisk: attr.string({
      optional: true,
      description:
        "Ironic only: URL of the deploy (IPA) ramdisk for this deployment, overriding the provider's " +
        "ironic.deploy_ramdisk; set it together with deploy_kernel (see there). @default not written (the " +
        "provider's images, else the conductor's defaults)",
      validators: [stringMatches(IMAGE_URL, "an http(s):// or file:// URL")],
    }),
    erase_on_destroy: attr.bool({
      optional: true,
      computed: true,
      default: true,
      description:
        "Erase the disks when the deployment is destroyed (MAAS release with erase). Ironic always undeploys " +
        "through its automated cleaning. @default true",
    }),
    rolling: attr.bool({
      optional: true,
      description:
        "Reimage in place, one node at a time, through the node's rackform_cluster_member: a new image name, " +
        'version, url or sha256 is recorded here in place (the plan reads "update in-place", not "must be ' +
        "replaced\"), and the member whose image_ref references this deployment's carries the reimage out in one " +
        "step within its disruption budget (drain, release and deploy, the gate of the rackform_acceptance whose " +
        "image_ref references it too, rejoin). Until the backend reports the new image, deployed_image shows the old " +
        "one and each plan offers the reimage again. It takes effect from the change after the one that records it (a " +
        "rack switched to rolling in the same change as its image still reimages by replacement, since its members " +
        "have no image_ref recorded yet). The Rack construct sets it with a disruption budget; without a member " +
        "referencing image_ref nothing would carry the reimage out. User data and backend settings still replace. " +
        "@default false",
    }),
    image_ref: attr.string({
      computed: true,
      description:
        'The configured image as one value, "<name>@<version> sha256:<digest>", known at plan: what ' +
        "rackform_acceptance and rackform_cluster_member take as image_ref for a rolling reimage.",
    }),
    deployed_image: attr.string({
      computed: true,
      description:
        'The image the backend reports: MAAS "osystem/distro_series", Ironic "<image_source> sha256:<hash>". When ' +
        "it differs from the configured image the plan replaces the deployment.",
    }),
    status: attr.string({
      computed: true,
      description: 'The backend\'s own status name, e.g. "Deployed", "Failed deployment", "active".',
    }),
    power_state: attr.string({
      computed: true,
      description:
        'The host\'s power as the backend last told it: "on", "off", or "unknown" when its BMC did not answer (MAAS ' +
        "asks the BMC through op=query_power_state; Ironic reports the power state its conductor keeps in sync). " +
        "When the same plan has just read the host on through the rackform_bmc its machine names, that reading " +
        "stands and the backend is not asked again; any other reading is checked with the backend. A " +
        'deployed host is meant to run: "off" or "unknown" plans an in-place update that powers it on through the ' +
        "backend and waits until the backend reports it on — a host switched off by hand is drift, not a reimage.",
      planModifiers: [useStateForUnknown()],
    }),
    ...deploymentRemediationAttributes,
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update", "delete"]) },
} as const;

/** The recorded deployment. */
export type DeploymentState = ModelOf<typeof deploymentSchema>;
/** The planned deployment at apply: computed attributes may be unknown. */
export type DeploymentPlan = ModelOf<typeof deploymentSchema, "plan">;
/** The planned deployment at plan time (and its config): any attribute may be unknown. */
export type DeploymentConfig = ModelOf<typeof deploymentSchema, "config">;
/** The image block of a recorded deployment. */
export type DeploymentImage = DeploymentState["image"];

/** The attributes an image spec is made of, all known. */
export interface ImageSource {
  readonly image: Pick<DeploymentImage, "name" | "version" | "url" | "sha256">;
  readonly osystem: string | null;
  readonly distro_series: string | null;
  readonly deploy_kernel: string | null;
  readonly deploy_ramdisk: string | null;
}

/** The backend and its machine id from `<backend>:<id>`; undefined when malformed. */
export function parseMachineId(v: string): { backend: BackendName; id: string } | undefined {
  const m = MACHINE_ID.exec(v.trim());
  return m ? { backend: m[1] as BackendName, id: m[2] } : undefined;
}

/**
 * The image of a recorded deployment, or null right after an import (the schema requires it in config, but an
 * imported state holds only machine_id until the first update records the config).
 */
export function recordedImage(s: DeploymentState): DeploymentImage | null {
  return (s.image as DeploymentImage | null) ?? null;
}

/** image_ref of a known image block: "<name>@<version> sha256:<digest>". */
export function imageRefOf(img: { readonly name: string; readonly version: string; readonly sha256: string }): string {
  return `${img.name}@${img.version} sha256:${img.sha256.toLowerCase()}`;
}

/** The image spec of a wholly known plan or state. */
export function imageSpecOf(v: ImageSource): ImageSpec {
  const { image: img } = v;
  return {
    name: img.name,
    version: img.version,
    url: img.url ?? undefined,
    sha256: img.sha256.toLowerCase(),
    osystem: v.osystem ?? undefined,
    distroSeries: v.distro_series ?? undefined,
    deployKernel: v.deploy_kernel ?? undefined,
    deployRamdisk: v.deploy_ramdisk ?? undefined,
  };
}

const known = <T>(v: Unknowable<T>): T | undefined => (isUnknownValue(v) ? undefined : v);

/**
 * The image source of a plan whose image identity and MAAS naming attributes are known and set (so an image label
 * can be computed); undefined otherwise. The deploy kernel and ramdisk, which no label uses, count as unset while
 * unknown.
 */
export function knownImageSource(v: DeploymentConfig): ImageSource | undefined {
  const img = known(v.image);
  if (img === undefined || img === null) return undefined;
  const [name, version, url, sha256] = [known(img.name), known(img.version), known(img.url), known(img.sha256)];
  const [osystem, distro_series] = [known(v.osystem), known(v.distro_series)];
  if (name === undefined || version === undefined || url === undefined || sha256 === undefined) return undefined;
  if (osystem === undefined || distro_series === undefined) return undefined;
  const image = { name, version, url, sha256 };
  const [deploy_kernel, deploy_ramdisk] = [known(v.deploy_kernel) ?? null, known(v.deploy_ramdisk) ?? null];
  return { image, osystem, distro_series, deploy_kernel, deploy_ramdisk };
}

/** Cross-attribute checks: Ironic needs image.url; MAAS and Ironic settings are flagged on the other backend. */
export function checkDeploymentConfig(c: DeploymentConfig, diags: Diagnostics): void {
  const machineId = known(c.machine_id);
  if (machineId === undefined || machineId === null) return;
  const m = parseMachineId(String(machineId));
  if (!m) return;
  const img = known(c.image);
  if (BACKEND_TRAITS[m.backend]?.deploysFromUrl) {
    if (img !== undefined && img !== null && img.url === null) {
      diags.error(
        "Ironic needs image.url",
        "Ironic deploys from instance_info.image_source: set image.url to where the image is served.",
        path("image", "url"),
      );
    }
    const [k, r] = [c.deploy_kernel, c.deploy_ramdisk];
    if (!isUnknownValue(k) && !isUnknownValue(r) && (k === null) !== (r === null)) {
      const missing = k === null ? "deploy_kernel" : "deploy_ramdisk";
      diags.error(
        "Set deploy_kernel and deploy_ramdisk together",
        `Ironic takes the conductor's [conductor]deploy_kernel/deploy_ramdisk only when the node's driver_info names neither, so with one set it would refuse the deploy for want of ${missing}. Set ${missing} too, or remove both to use the conductor's defaults.`,
        path(missing),
      );
    }
    for (const a of ["osystem", "distro_series"] as const) {
      if (isSet(c[a])) diags.warning(`${a} is ignored by Ironic`, `${a} is a MAAS setting; remove it.`, path(a));
    }
  } else {
    const label = BACKEND_TRAITS[m.backend]?.label ?? m.backend;
    for (const a of ["deploy_kernel", "deploy_ramdisk"] as const) {
      if (isSet(c[a])) diags.warning(`${a} is ignored by ${label}`, `${a} is an Ironic setting; remove it.`, path(a));
    }
  }
}

/** A config value that is known and not null. */
function isSet<T>(v: Unknowable<T | null>): boolean {
  return v !== null && !isUnknownValue(v);
}
