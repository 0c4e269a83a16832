/** Drives rackform_deployment (on top of rackform_machine) through the provider server against the lab. */
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { uploadImages } from "../../../src/cli/demo.js";
import type { ObjectValue, Value } from "../../../src/framework/index.js";
import { deploymentSchema } from "../../../src/provider/resources/deployment-schema.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { resourceDriver } from "../../support/provider-rpc.js";
import { apply as applyMachine, lines, type MachineLab, machineConfig } from "./machine-support.js";

/** The resource type under test. */
export const D = "rackform_deployment";

/** Plan, apply, destroy and refresh of it, as the engine would (test/support/provider-rpc.ts). */
export const { apply, plan, destroy, read } = resourceDriver(D, deploymentSchema);

/** The sha256 of an image version's (fake) content. */
export const shaOf = (version: string) => createHash("sha256").update(`ubuntu-gpu-${version}`).digest("hex");

/** Uploads custom image `ubuntu-gpu-<version>` to the lab MAAS from the lab image server, as an operator does. */
export async function uploadMaasImage(ml: MachineLab, version: string): Promise<void> {
  await uploadImages(ml.lab.info, [{ name: "ubuntu-gpu", version, sha256: shaOf(version) }]);
}

/** Enrolls and commissions `node` as a rackform_machine and returns its id ("maas:…" / "ironic:…"). */
export async function readyMachine(
  srv: ProviderServer,
  ml: MachineLab,
  node: string,
  backend: "maas" | "ironic",
): Promise<string> {
  const a = await applyMachine(srv, machineConfig(ml, node, backend));
  expect(lines(a.diagnostics)).toBe("");
  return (a.newState as ObjectValue).id as string;
}

/** Where the lab's image server serves image version `version` (content whose sha256 is `shaOf(version)`). */
export const imageUrlOf = (ml: MachineLab, version: string): string =>
  `${ml.lab.images.url}ubuntu-gpu-${version}.qcow2`;

/** A deployment config of image version `version` on `machineId`. */
export function deploymentConfig(
  ml: MachineLab,
  machineId: string,
  version: string,
  set: Record<string, Value> = {},
): ObjectValue {
  const ironic = machineId.startsWith("ironic:");
  const images = ml.lab.images.url;
  return configOf(deploymentSchema, {
    machine_id: machineId,
    image: {
      name: "ubuntu-gpu",
      version,
      url: ironic ? imageUrlOf(ml, version) : null,
      check_url: null,
      sha256: shaOf(version),
      signature: null,
    },
    user_data: "#cloud-config\n# rackform-join: none\n",
    ...(ironic ? { deploy_kernel: `${images}ipa.kernel`, deploy_ramdisk: `${images}ipa.initramfs` } : {}),
    ...set,
  });
}

/** "attr.sub" paths of a plan's requiresReplace, for readable assertions. */
export function replacePaths(p: { requiresReplace: readonly (readonly ({ attr: string } | object)[])[] }): string[] {
  return p.requiresReplace.map((steps) =>
    steps.map((s) => ("attr" in s ? (s as { attr: string }).attr : "?")).join("."),
  );
}
