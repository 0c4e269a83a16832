/**
 * The lab head node's entities as cmdaemon serves them over its JSON-RPC: PhysicalNode devices, categories and
 * software images (field names from the public clients named in README.md; entity uuids, not names, link them).
 */
import { randomUUID } from "node:crypto";

/** A network interface of a device (the provisioning NIC, or the BMC's `rf0`). */
export interface InterfaceEntity {
  baseType: "NetworkInterface";
  childType: "NetworkPhysicalInterface" | "NetworkBmcInterface";
  uuid: string;
  name: string;
  mac: string;
  ip: string;
}

/** A device's BMC credentials (bmcSettings). */
export interface BmcSettingsEntity {
  baseType: "BMCSettings";
  userName: string;
  password: string;
}

/** A PhysicalNode device. */
export interface DeviceEntity {
  baseType: "Device";
  childType: "PhysicalNode";
  uuid: string;
  hostname: string;
  mac: string;
  category: string;
  /** How cmdaemon powers the node: "rf0" = Redfish through the interface named rf0; "none" = no power control. */
  powerControl: string;
  bmcSettings: BmcSettingsEntity;
  interfaces: InterfaceEntity[];
  /** Node-level software image (overrides the category's); null = the category's. */
  softwareImageProxy: { baseType: "SoftwareImageProxy"; parentSoftwareImage: string } | null;
  /** Run by the node-installer before the node boots its image (rackform puts its user data here). */
  finalizeScript: string;
  notes: string;
  revision: string;
}

/** A category (the group of nodes sharing an image and roles). */
export interface CategoryEntity {
  baseType: "Category";
  uuid: string;
  name: string;
  softwareImageProxy: { baseType: "SoftwareImageProxy"; parentSoftwareImage: string };
}

/** A software image on the head node. */
export interface SoftwareImageEntity {
  baseType: "SoftwareImage";
  uuid: string;
  name: string;
  path: string;
  kernelVersion: string;
}

/** The runtime state cmdaemon keeps about a device (not part of the entity). */
export interface DeviceRuntime {
  closed: boolean;
  userMessage: string;
  /** The status last computed (for status listeners). */
  lastStatus?: string;
  /** The boot being followed: when the host came up, what it installs, and how that install ends. */
  boot?: { at: number; image: string; outcome: "ok" | "fail" | "hang" };
  /** The burn (acceptance) run: started, how long, its document and verdict. */
  burn?: { startedAt: number; durationMs: number; passed: boolean; log: string };
}

/** The entity store. */
export class BcmStore {
  readonly devices = new Map<string, DeviceEntity>();
  readonly runtime = new Map<string, DeviceRuntime>();
  readonly categories = new Map<string, CategoryEntity>();
  readonly images = new Map<string, SoftwareImageEntity>();
  /** The index of the latest power operation (cmdaemon numbers them). */
  powerIndex = 0;

  constructor() {
    const img = this.addImage("default-image");
    const cat: CategoryEntity = {
      baseType: "Category",
      uuid: randomUUID(),
      name: "default",
      softwareImageProxy: { baseType: "SoftwareImageProxy", parentSoftwareImage: img.uuid },
    };
    this.categories.set(cat.uuid, cat);
  }

  /** Adds a software image (as cm-create-image or a clone does on a real head node). */
  addImage(name: string): SoftwareImageEntity {
    const existing = [...this.images.values()].find((i) => i.name === name);
    if (existing) return existing;
    const img: SoftwareImageEntity = {
      baseType: "SoftwareImage",
      uuid: randomUUID(),
      name,
      path: `/cm/images/${name}`,
      kernelVersion: "6.8.0-rackform",
    };
    this.images.set(img.uuid, img);
    return img;
  }

  /** The image a device installs: its own, else its category's. */
  effectiveImage(d: DeviceEntity): SoftwareImageEntity | undefined {
    const id =
      d.softwareImageProxy?.parentSoftwareImage ??
      this.categories.get(d.category)?.softwareImageProxy.parentSoftwareImage;
    return id ? this.images.get(id) : undefined;
  }

  /** A device by uuid or hostname. */
  device(key: string): DeviceEntity | undefined {
    return this.devices.get(key) ?? [...this.devices.values()].find((d) => d.hostname === key);
  }

  runtimeOf(uuid: string): DeviceRuntime {
    let r = this.runtime.get(uuid);
    if (!r) {
      r = { closed: false, userMessage: "" };
      this.runtime.set(uuid, r);
    }
    return r;
  }

  defaultCategory(): CategoryEntity {
    return [...this.categories.values()].find((c) => c.name === "default") as CategoryEntity;
  }
}
