/** rackform_firmware's schema: one node's firmware baseline and BIOS settings, converged through its BMC. */
import { attr, type ModelOf, stringMatches, timeoutsBlock, useStateForUnknown } from "../../framework/index.js";
import { endpointSpelling, redfishEndpoint } from "../shared/endpoint.js";
import { SHA256 } from "./deployment-schema.js";
import { secureBootAttributes } from "./firmware-secure-boot-schema.js";

/** A firmware version as inventories report it (letters, digits and . _ + - :). */
export const FIRMWARE_VERSION = /^[A-Za-z0-9][A-Za-z0-9._+:-]{0,127}$/;

/** The schema of rackform_firmware. */
export const firmwareSchema = {
  version: 0,
  description:
    "One node's firmware baseline, BIOS settings and UEFI Secure Boot, converged through its BMC (Redfish UpdateService and the Bios " +
    "settings object), the step after its rackform_bmc. Read compares the BMC's FirmwareInventory with `components` " +
    "and its Bios `Attributes` with `bios`: the plan shows exactly which components move from which version to " +
    "which (`versions`) and which settings change (`bios_settings`), in place. Apply checks everything before it " +
    "writes anything — every component names an inventory item of the node, every setting is allowed by the BIOS's " +
    "AttributeRegistry (name, type, allowed values, read-only, its dependencies), every image answers at its URL " +
    "and hashes to its sha256 (streamed, never held whole) — then pushes each image for the next reset " +
    "(MultipartHttpPushUri with OperationApplyTime OnReset where the BMC offers it, else SimpleUpdate) in the " +
    "order vendors require (BMC, then BIOS/UEFI, then devices; `update_order`), stages the BIOS settings in the " +
    "settings object named by `@Redfish.Settings`, and resets the host once for all of them, then reads the " +
    "versions and settings back. Secure Boot (`secure_boot`) is staged the same way — certificates enrolled, the " +
    "enable flag set — and activated by that same reset. A node in service is never reset here: with `rolling = true` and the host " +
    "powered on, apply stages only and offers the reset to the node's rackform_cluster_member (`firmware_ref` = " +
    "this `ref`), which carries it out inside the disruption budget — drain, reset (shared with a reimage's boot " +
    "in the same apply), versions checked, the gate re-run (rackform_acceptance `firmware_ref`), rejoin — and " +
    "quarantines the node with the task's messages when an update fails, while the other nodes go on. An update " +
    "task still running (a re-apply after a crash) is followed, never started twice. Destroy only forgets the " +
    "baseline: firmware is not rolled back. Import with the BMC's address.",
  attributes: {
    id: attr.string({
      computed: true,
      description: "The BMC's address (its origin), e.g. https://10.0.0.5; also the import id.",
      planModifiers: [useStateForUnknown()],
    }),
    endpoint: attr.string({
      required: true,
      description:
        "Address of the node's BMC, usually rackform_bmc.x.endpoint (which also orders this after the BMC). " +
        "Another spelling of the same address plans nothing; a new address is followed in place.",
      validators: [redfishEndpoint],
      planModifiers: [endpointSpelling()],
    }),
    components: attr.mapNested(
      {
        version: attr.string({
          required: true,
          description: 'The version the inventory item reports once the image runs, e.g. "2.3.1".',
          validators: [stringMatches(FIRMWARE_VERSION, "a firmware version (letters, digits, . _ + - :)")],
        }),
        url: attr.string({
          required: true,
          description: "Where rackform reads the image from (http or https); it is streamed to the BMC.",
          validators: [stringMatches(/^https?:\/\/[^\s/]+\/\S*$/, "an http(s) URL of the firmware image")],
        }),
        sha256: attr.string({
          required: true,
          description:
            "sha256 of the image (64 hex digits), checked in one streamed pass before anything is sent to the BMC.",
          validators: [stringMatches(SHA256, "a sha256 digest of 64 hex digits")],
        }),
      },
      {
        optional: true,
        description:
          "The firmware baseline by component, named as the BMC's FirmwareInventory names it (an item's Id or " +
          'Name, e.g. "BIOS", "iDRAC firmware", "GPU firmware"): each entry is the version the node must run and ' +
          "its image. A component the node does not have fails the apply before anything is sent.",
      },
    ),
    bios: attr.map("string", {
      optional: true,
      description:
        'BIOS settings by AttributeRegistry name, e.g. { SriovGlobalEnable = "Enabled", ProcVirtualization = ' +
        '"Enabled" }; values are written as the registry types them (Integer and Boolean attributes from their ' +
        "text). Settings not named here are left as they are. A setting changed by hand plans an in-place fix of " +
        "that setting only.",
    }),
    ...secureBootAttributes,
    rolling: attr.bool({
      optional: true,
      computed: true,
      default: false,
      description:
        "The node is (or may be) in service: when its host is powered on, apply stages the updates and settings " +
        "and leaves the reset to the node's rackform_cluster_member (its `firmware_ref` = this `ref`), which runs " +
        "it inside the disruption budget. A powered-off host (a node not yet enrolled) is converged here at once. " +
        "The Rack construct sets it when the rack has a cluster. @default false",
    }),
    versions: attr.map("string", {
      computed: true,
      description:
        "The version each baseline component runs, as the inventory reports it (an update's plan shows it moving " +
        "to the baseline's).",
    }),
    bios_settings: attr.map("string", {
      computed: true,
      description: "The current value of each setting named in `bios`, as text.",
    }),
    bios_pending: attr.map("string", {
      computed: true,
      description:
        "Settings staged in the BIOS's settings object and not applied yet that differ from the current ones — " +
        "staged by someone else they apply at the next reset, so a plan warns about them rather than overwrite " +
        "them silently.",
    }),
    ref: attr.string({
      computed: true,
      description:
        "The baseline as the node must run it, `<BMC address>#<digest of components and bios>/<n>`, where n counts " +
        "the applies that had to change the node: it moves exactly when an apply must reset the node (a baseline it " +
        "does not run yet, a version or setting changed by hand) and stays when the node already runs it. Give it " +
        "to the node's rackform_cluster_member and rackform_acceptance as `firmware_ref`, so that reset is a " +
        "rolling update inside the disruption budget and the gate runs again.",
    }),
    update_order: attr.list("string", {
      computed: true,
      description:
        "The order in which this baseline's components are updated: the BMC first (it runs the other updates), " +
        "then BIOS/UEFI, then devices, each class by name.",
    }),
    last_update_messages: attr.list("string", {
      computed: true,
      description:
        "Evidence of the last update that failed (the task's messages, a version not reached after the reset, " +
        "settings the BIOS refused at the reset); empty after an apply that converged.",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update"]) },
} as const;

/** The recorded baseline. */
export type FirmwareState = ModelOf<typeof firmwareSchema>;
/** The planned baseline at apply: computed attributes may be unknown. */
export type FirmwarePlan = ModelOf<typeof firmwareSchema, "plan">;
/** The configured baseline at plan: any attribute may be unknown. */
export type FirmwareConfig = ModelOf<typeof firmwareSchema, "config">;

/** Default timeouts: pushes and a reset with POST and BMC self-updates take long on real hardware. */
export const DEFAULT_TIMEOUT_MS = { create: 120 * 60_000, read: 2 * 60_000, update: 120 * 60_000 };
