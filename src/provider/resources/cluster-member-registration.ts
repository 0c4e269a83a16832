/**
 * rackform_cluster_member's wait for a node's daemon to register, and slurmctld's refusal of a registration: the wait
 * says what it waits for and what the scheduler shows (at its start, at every change, and now and then while nothing
 * changes); a node whose last registration slurmctld refused (INVALID_REG) fails at once with the scheduler's reason,
 * since only the daemon's next start can change that verdict and nothing the member does brings one.
 */
import { abortableSleep } from "../../clients/http/retry.js";
import { type Context, type Diagnostics, path } from "../../framework/index.js";
import type { Observed, SchedulerOps } from "./cluster-member-scheduler.js";

/** How often a wait that sees no change says it is still waiting. */
const STILL_WAITING_MS = 30_000;

/** slurmctld refused the node's last registration: `state` and `reason` as it shows them. */
export class InvalidRegistrationError extends Error {
  override readonly name = "InvalidRegistrationError";
  constructor(
    readonly node: string,
    readonly state: string,
    readonly reason: string,
  ) {
    super(`slurmctld holds node ${node} ${state} (reason: ${reason || "none"})`);
  }
}

/** Throws InvalidRegistrationError when the scheduler shows the node's last registration refused. */
export function refuseInvalid(node: string, o: Observed | undefined): void {
  if (o?.invalidRegistration) throw new InvalidRegistrationError(node, o.state, o.reason ?? "");
}

/** A reboot of the node: when it began (ms since the epoch), and when its daemon had last started before it. */
export interface Reboot {
  readonly at: number;
  readonly startedBefore?: number;
}

/** What a wait for registration needs: the scheduler, its pace, and the reboot whose registration it waits for. */
export interface RegistrationWait {
  readonly ops: SchedulerOps;
  readonly node: string;
  readonly pollMs: number;
  readonly ctx: Context;
  /**
   * The node was rebooted (power cycle, reimage): only a registration of a daemon started since counts, where the
   * scheduler reports start times — the registration from before the reboot says nothing of the node now.
   */
  readonly reboot?: Reboot;
}

/**
 * Whether `o` is a registration the wait accepts: after a reboot, a daemon start other than the one before it (which
 * holds when the scheduler's clock and ours disagree), or one no earlier than the reboot's second (slurmd_start_time
 * is whole seconds).
 */
export function registeredSince(o: Observed | undefined, reboot: Reboot | undefined): boolean {
  if (!o?.registered) return false;
  if (reboot === undefined || o.startedAt === undefined) return true;
  if (reboot.startedBefore !== undefined && o.startedAt !== reboot.startedBefore) return true;
  return o.startedAt >= Math.floor(reboot.at / 1000) * 1000;
}

/** What the scheduler shows of the node, as a log field. */
export const shown = (o: Observed | undefined): string =>
  o ? `${o.state}${o.reason ? ` (reason: ${o.reason})` : ""}` : "not known to the scheduler";

/** Polls until the node registers (as `registeredSince` accepts it); returns what the scheduler shows then. */
export async function waitForRegistration(w: RegistrationWait, signal: AbortSignal): Promise<Observed> {
  const { ops, node, ctx } = w;
  const daemon = ops.kind === "slurm" ? "slurmd" : "the kubelet";
  const waitingFor = w.reboot === undefined ? `${daemon} to register` : `${daemon} to register after the reboot`;
  let last: string | undefined;
  let saidAt = 0;
  for (;;) {
    const o = await ops.lookup(node, true);
    if (registeredSince(o, w.reboot)) return o as Observed;
    const now = shown(o);
    if (now !== last || Date.now() - saidAt >= STILL_WAITING_MS) {
      ctx.log.info(`waiting for ${waitingFor}`, { scheduler: ops.kind, node, scheduler_shows: now });
      last = now;
      saidAt = Date.now();
    }
    await abortableSleep(w.pollMs, signal);
  }
}

/** The diagnostic of a node whose registration slurmctld refused. */
export function reportInvalidRegistration(diags: Diagnostics, e: InvalidRegistrationError): void {
  diags.error(
    `Slurm refuses node ${e.node}: its registration is invalid`,
    `${e.message}: slurmd's last registration reported less than slurm.conf configures for the node (INVALID_REG), ` +
      "and slurmctld admits it only after a valid one, which comes only when slurmd starts again. rackform did not " +
      "resume it. Repair what the reason names (a GPU fallen off the bus, a DIMM: the health remediation ladder's " +
      "power cycle or reimage cures what a reset cures), or correct slurm.conf or gres.conf if they overstate the " +
      "node; then restart slurmd or reboot the node so it registers again, and apply again. Nothing was changed.",
    path("node"),
  );
}
