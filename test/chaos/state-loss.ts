/**
 * A SIGKILL can land while the engine writes its local state file: Terraform and OpenTofu truncate the file, then write
 * it, so a kill between the two leaves it empty, and the next apply sees no state at all. It then plans to create every
 * resource; rackform's creates adopt what exists, but a deployment that finds its machine running the older image
 * refuses to reimage it (drift is never destruction), so that re-apply fails. That is the engine's loss, not the
 * provider's: an operator restores the backup the engine wrote when that apply began (`terraform.tfstate.backup`),
 * and the re-apply heals from there. The harness does the same, and says so. (Remote backends such as PostgreSQL
 * write state in one transaction and cannot lose it this way.) Seen in the engines' source: statemgr.Filesystem's
 * WriteState seeks to 0, truncates, then writes, with a TODO to write a temp file and rename it instead.
 */
import { copyFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** Restores the working directory's state from its backup when a kill left it empty; true when it did. */
export async function restoreEmptiedState(dir: string): Promise<boolean> {
  const state = join(dir, "terraform.tfstate");
  const backup = join(dir, "terraform.tfstate.backup");
  const size = await stat(state).then(
    (s) => s.size,
    () => undefined,
  );
  const hasBackup = await stat(backup).then(
    (s) => s.size > 0,
    () => false,
  );
  if (size !== 0 || !hasBackup) return false;
  await copyFile(backup, state);
  return true;
}
