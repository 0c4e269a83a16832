/**
 * Secure Boot at deploy time: a host that will boot with Secure Boot enforced refuses an image whose signer is not in
 * its db (or whose boot loader is in dbx). The deploy's reboot applies a pending SecureBootEnable, so the check uses the
 * state the host boots the image with. The backend's deployment then fails (MAAS Failed deployment, Ironic deploy
 * failed) and the BMC logs the violation. Warewulf and BCM deploys are not checked.
 */
import type { NodeRecord } from "../ironic/index.js";
import type { MachineRecord } from "../maas/index.js";
import type { LabNode, World } from "../world/model.js";
import { logSecureBootViolation } from "../world/secure-boot-log.js";

/** The names a MAAS deployment's image goes by: its distro_series and `osystem/distro_series`. */
export function maasImageNames(m: Readonly<MachineRecord>): string[] {
  return [m.distroSeries, `${m.osystem}/${m.distroSeries}`];
}

/** The names an Ironic deployment's image goes by: the file name without and with its extension, and the URL. */
export function ironicImageNames(n: Readonly<NodeRecord>): string[] {
  const src = String(n.instance_info?.image_source ?? "");
  const base = src.split(/[?#]/)[0].split("/").at(-1) ?? "";
  return [base.replace(/\.(qcow2|img|raw|iso)(\.[a-z0-9]+)?$/i, ""), base, src].filter(Boolean);
}

/** Whether the host refuses the image it is about to boot; logs the violation in its BMC log when it does. */
export function refusesImage(world: World, node: LabNode | undefined, names: readonly string[]): boolean {
  if (!node || !world.secureBoot.enforcedAtNextBoot(node)) return false;
  const refusal = world.secureBoot.refusal(node, world.secureBoot.imageNamed(names));
  if (!refusal) return false;
  node.generation++;
  logSecureBootViolation(world.logs, node, refusal, world.now());
  return true;
}
