/**
 * rackform_firmware's checks before any write: every component names an inventory item of the node, every BIOS
 * setting is one the registry allows, and every image to push answers at its URL and hashes to its sha256 (streamed).
 * Each failure is a diagnostic naming the attribute, the node and what would be accepted; nothing is sent when any
 * check fails.
 */
import { isClientError } from "../../clients/errors.js";
import type { ImageSourceInfo } from "../../clients/images/source.js";
import {
  type AttributeRegistry,
  type BiosValue,
  checkBiosSettings,
  ImageDigestError,
  verifyImage,
} from "../../clients/redfish/index.js";
import { type Diagnostics, path } from "../../framework/index.js";
import type { FirmwareMove } from "../shared/firmware-plan.js";
import type { FirmwareDeps } from "./firmware-deps.js";
import type { NodeFacts } from "./firmware-model.js";

/** Baseline keys no inventory item of the node answers to: one error each, with the names the node has. */
export function checkComponents(unknown: readonly string[], facts: NodeFacts, node: string, diags: Diagnostics) {
  if (unknown.length === 0) return;
  const names = facts.inventory.map((i) => (i.name && i.name !== i.id ? `${i.id} ("${i.name}")` : i.id)).join(", ");
  for (const c of unknown) {
    diags.error(
      "Unknown firmware component",
      `The BMC at ${node} lists no FirmwareInventory item with the Id or Name ${JSON.stringify(c)}. ` +
        `Its inventory has: ${names || "nothing"}. Name the component as the inventory does, or leave it out ` +
        "of this node's baseline.",
      path("components", { key: c }),
    );
  }
}

/** The wanted settings the registry refuses: one error each, naming the node and what it would accept. */
export function checkSettings(
  reg: AttributeRegistry | undefined,
  current: Readonly<Record<string, BiosValue>>,
  wanted: Readonly<Record<string, BiosValue>>,
  node: string,
  diags: Diagnostics,
): void {
  if (!reg) {
    // No published registry: a setting the BIOS does not have is still known to be wrong.
    for (const name of Object.keys(wanted).filter((n) => !(n in current))) {
      diags.error(
        "Unknown BIOS attribute",
        `The BIOS of ${node} has no attribute ${JSON.stringify(name)} (it publishes no AttributeRegistry; its ` +
          `Attributes list the names it takes).`,
        path("bios", { key: name }),
      );
    }
    return;
  }
  for (const p of checkBiosSettings(reg, current, wanted)) {
    const allowed = p.allowed ? ` Allowed values: ${p.allowed.join(", ")}.` : "";
    const titles = {
      unknown: "Unknown BIOS attribute",
      type: "BIOS attribute of the wrong type",
      value: "BIOS value not allowed",
      "read-only": "Read-only BIOS attribute",
      dependency: "BIOS attribute locked by another setting",
    } as const;
    diags.error(
      titles[p.kind],
      `${p.attribute} on ${node}: ${p.detail} (AttributeRegistry ${reg.id}).${allowed} Fix bios[${JSON.stringify(p.attribute)}]; nothing was written to the BIOS.`,
      path("bios", { key: p.attribute }),
    );
  }
}

/**
 * Opens and hashes the image of every move (one streamed pass each); the sources in move order, or undefined after
 * a diagnostic per image that does not answer or hashes to another digest.
 */
export async function checkImages(
  moves: readonly FirmwareMove[],
  deps: FirmwareDeps,
  diags: Diagnostics,
  signal: AbortSignal,
): Promise<ImageSourceInfo[] | undefined> {
  const sources: ImageSourceInfo[] = [];
  for (const m of moves) {
    try {
      const src = await deps.image(m.target.url, signal);
      await verifyImage(src, m.target.sha256, signal);
      sources.push(src);
    } catch (e) {
      if (e instanceof ImageDigestError) {
        diags.error(
          "Firmware image digest mismatch",
          `The image for ${m.component} hashes to sha256 ${e.actual}, not the ${e.expected} components[${JSON.stringify(m.component)}].sha256 gives. Nothing was sent to the BMC: pin the digest of the image you mean to install.`,
          path("components", { key: m.component }, "sha256"),
        );
      } else {
        const msg = isClientError(e) || e instanceof Error ? e.message : String(e);
        diags.error(
          "Firmware image not available",
          `The image for ${m.component} could not be read: ${msg}. Nothing was sent to the BMC: check components[${JSON.stringify(m.component)}].url.`,
          path("components", { key: m.component }, "url"),
        );
      }
    }
  }
  return diags.hasError() ? undefined : sources;
}
