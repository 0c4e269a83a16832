/** What a fresh lab region holds: synced Ubuntu images and MAAS's built-in commissioning and testing scripts. */
import { createHash } from "node:crypto";
import { COMMISSIONING_SCRIPTS } from "./lifecycle-types.js";
import type { MaasStore } from "./store.js";

const SERIES: Array<[string, string]> = [
  ["focal", "20.04"],
  ["jammy", "22.04"],
  ["noble", "24.04"],
];

const TESTING: Array<{ name: string; title: string; hardware: number; tags: string[]; destructive: boolean }> = [
  {
    name: "smartctl-validate",
    title: "Storage status",
    hardware: 3,
    tags: ["commissioning", "storage"],
    destructive: false,
  },
  { name: "memtester", title: "Memory integrity", hardware: 2, tags: ["memory"], destructive: false },
  { name: "stress-ng-cpu-short", title: "CPU validation", hardware: 1, tags: ["cpu"], destructive: false },
  {
    name: "badblocks-destructive",
    title: "Storage integrity",
    hardware: 3,
    tags: ["storage", "destructive"],
    destructive: true,
  },
];

/** Fills an empty store with the region's defaults. */
export function seedRegion(store: MaasStore): void {
  for (const [series, release] of SERIES) {
    const id = store.nextId("bootresource");
    store.bootResources.set(id, {
      id,
      type: "Synced",
      name: `ubuntu/${series}`,
      architecture: `amd64/ga-${release}`,
      title: "",
      subarches: `generic,ga-${release}`,
      baseImage: "",
      version: "20260101",
      files: [
        {
          filename: "squashfs",
          filetype: "squashfs",
          sha256: createHash("sha256").update(`ubuntu/${series}`).digest("hex"),
          size: 1_000_000_000,
          complete: true,
        },
      ],
      held: 1_000_000_000,
      hasher: null,
    });
  }
  for (const name of COMMISSIONING_SCRIPTS) {
    store.scripts.set(name, {
      id: store.nextId("script"),
      name,
      title: "",
      description: "Built-in commissioning script.",
      type: 0,
      hardwareType: 0,
      tags: [],
      timeoutSeconds: 600,
      destructive: false,
      isDefault: true,
      content: Buffer.from("#!/bin/bash\n"),
    });
  }
  for (const t of TESTING) {
    store.scripts.set(t.name, {
      id: store.nextId("script"),
      name: t.name,
      title: t.title,
      description: "Built-in testing script.",
      type: 2,
      hardwareType: t.hardware,
      tags: t.tags,
      timeoutSeconds: 1800,
      destructive: t.destructive,
      isDefault: true,
      content: Buffer.from("#!/bin/bash\n"),
    });
  }
}
