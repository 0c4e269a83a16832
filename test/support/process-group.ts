/** Stopping a counterpart started detached (its own process group): SIGTERM to the group, SIGKILL after a grace. */
import type { ChildProcess } from "node:child_process";

/** Stops `p`'s process group and resolves once `p` exited; a process already gone resolves at once. */
export async function stopGroup(p: ChildProcess, graceMs = 5_000): Promise<void> {
  if (p.pid === undefined || p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise((r) => p.once("exit", r));
  try {
    process.kill(-p.pid, "SIGTERM");
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      if (p.pid !== undefined) process.kill(-p.pid, "SIGKILL");
    } catch {}
  }, graceMs);
  await gone;
  clearTimeout(t);
}
