/**
 * What resources say about each backend, as data rather than branches: its label, what it needs from a machine,
 * and the words for its quarantine and release. A new backend adds a row here; no resource file changes.
 */
import type { BackendName } from "./backend.js";

/** Per-backend facts the resources show or check. */
export interface BackendTraits {
  /** How users name it ("MAAS"). */
  readonly label: string;
  /** An example machine id for messages ("maas:4y3h7n"). */
  readonly exampleId: string;
  /** Enrollment needs at least one MAC (the boot NIC). */
  readonly needsMac: boolean;
  /** Takes resource_class (Ironic). */
  readonly usesResourceClass: boolean;
  /** Deploys from image.url, which is probed before the deploy (Ironic). */
  readonly deploysFromUrl: boolean;
  /** Where a failing node is put ("marked Broken in MAAS"). */
  readonly quarantined: string;
  /** The name of its release ("Release", "Undeploy"). */
  readonly release: string;
  /** What it keeps images as ("boot resources"), and the verb that puts one back ("Upload"). */
  readonly images: string;
  readonly restoreImage: string;
}

/** Every backend's traits. */
export const BACKEND_TRAITS: Record<BackendName, BackendTraits> = {
  maas: {
    label: "MAAS",
    exampleId: '"maas:4y3h7n" (MAAS system_id)',
    needsMac: true,
    usesResourceClass: false,
    deploysFromUrl: false,
    quarantined: "marked Broken in MAAS",
    release: "Release",
    images: "boot resources",
    restoreImage: "Upload",
  },
  ironic: {
    label: "Ironic",
    exampleId: '"ironic:<node uuid>"',
    needsMac: false,
    usesResourceClass: true,
    deploysFromUrl: true,
    quarantined: "put in maintenance in Ironic",
    release: "Undeploy",
    images: "images",
    restoreImage: "Serve",
  },
  warewulf: {
    label: "Warewulf",
    exampleId: '"warewulf:<node name>"',
    needsMac: true,
    usesResourceClass: false,
    deploysFromUrl: false,
    quarantined: "tagged rackform_quarantine in Warewulf (scheduler joins skip it)",
    release: "Release",
    images: "images",
    restoreImage: "Import",
  },
  bcm: {
    label: "BCM",
    exampleId: '"bcm:<device uuid>"',
    needsMac: true,
    usesResourceClass: false,
    deploysFromUrl: false,
    quarantined: "closed in BCM",
    release: "Release",
    images: "software images",
    restoreImage: "Create",
  },
};
