/**
 * data rackform_scheduler_health: the health signal a node's scheduler gives by itself — a Slurm node slurmctld marked
 * NOT_RESPONDING or INVALID_REG, or set DOWN or drained with a reason of its own; a Kubernetes Node not Ready — as
 * findings in rackform_bmc.health's shape, so a rack concatenates them into each deployment's bmc_health and the
 * remediation ladder follows them as it follows the BMC (an OS hang is invisible to the BMC; slurmd and the kubelet
 * going silent is how it shows). One node list per read. A drain a person set with a reason is theirs, never a
 * finding (rackform_cluster_member shows it and leaves the node alone); rackform's own drains and cordons are not
 * findings either, while a flag the scheduler keeps under them (NOT_RESPONDING, INVALID_REG, NotReady) still is.
 */
import type { KubernetesNode } from "../../clients/kubernetes/index.js";
import type { SlurmNode } from "../../clients/slurm/index.js";
import { type DataSource, defineDataSource, path, type TypedRequest } from "../../framework/index.js";
import type { ProviderData } from "../config/config.js";
import { SchedulerNotConfiguredError } from "../config/scheduler-config.js";
import { addClientError } from "../errors/client-errors.js";
import { bounded } from "../shared/timeouts.js";
import { type SchedulerHealthModel, schedulerHealthSchema } from "./scheduler-health-schema.js";

/** How long the node list may take. */
const READ_MS = 60_000;

/** One finding, as the schema's FINDING object. */
export interface SchedulerFinding {
  readonly component: string;
  readonly kind: string;
  readonly health: "Critical";
  readonly uri: string;
  readonly since: string | null;
}

/** What the read uses: the node lists of the configured schedulers. */
export interface SchedulerHealthDeps {
  slurmNodes(signal: AbortSignal): Promise<readonly SlurmNode[]>;
  kubernetesNodes(signal: AbortSignal): Promise<readonly KubernetesNode[]>;
}

/** The deps of the configured provider (a fresh list: a plan's read must see the scheduler as it is now). */
export function schedulerHealthDeps(providerData: unknown): SchedulerHealthDeps {
  const data = providerData as ProviderData;
  return {
    slurmNodes: () => data.schedulers.slurm().listNodes(),
    kubernetesNodes: () => data.schedulers.kubernetes().listNodes(),
  };
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** Whether a reason is rackform's own (cluster-member's drains and removals). */
const rackformReason = (reason: string): boolean => /^rackform\b/i.test(reason);

/** What slurmctld holds against a node by itself; nothing for a node that never registered or a person's drain. */
export function slurmFindings(n: SlurmNode): SchedulerFinding[] {
  // A node slurm.conf lists whose slurmd never started is UNKNOWN/FUTURE: not joined yet, the member's to wait for.
  if (n.baseState === "UNKNOWN" || n.baseState === "FUTURE") return [];
  const at = { health: "Critical" as const, uri: `slurm:${n.name}`, since: iso(n.reasonChangedAt) };
  const own = n.reasonSetByUser === "slurm" || n.reasonSetByUser === "";
  const said = (fallback: string) => (own && n.reason !== "" && !rackformReason(n.reason) ? n.reason : fallback);
  const out: SchedulerFinding[] = [];
  if (n.state.includes("NOT_RESPONDING"))
    out.push({ ...at, kind: "scheduler:not_responding", component: `slurmd: ${said("Not responding")}` });
  if (n.state.includes("INVALID_REG"))
    out.push({ ...at, kind: "scheduler:invalid_registration", component: `slurmd: ${said("invalid registration")}` });
  if (out.length > 0) return out;
  // Without a flag, only a DOWN or a drain whose reason slurmctld wrote (user "slurm") is the scheduler's own — but
  // not "Not responding" once the flag is gone: slurmd has registered since, and the node waits for a RESUME (with
  // ReturnToService=0), which its cluster member gives when it joins it.
  if (n.reasonSetByUser !== "slurm" || n.reason === "" || rackformReason(n.reason)) return [];
  if (/^Not responding/i.test(n.reason)) return [];
  if (n.down) return [{ ...at, kind: "scheduler:down", component: `slurmctld: ${n.reason}` }];
  if (n.drain) return [{ ...at, kind: "scheduler:drain", component: `slurmctld: ${n.reason}` }];
  return [];
}

/** A Kubernetes Node whose Ready condition is not True: its kubelet stopped posting status, or reports NotReady. */
export function kubernetesFindings(n: KubernetesNode): SchedulerFinding[] {
  if (n.ready) return [];
  return [
    {
      component: `kubelet: ${n.readyReason ?? "NotReady"}`,
      kind: "scheduler:not_ready",
      health: "Critical",
      uri: `kubernetes:${n.name}`,
      since: iso(n.readySince),
    },
  ];
}

/** Findings per node named, from one list; a node the scheduler does not know has none. */
export function findingsByNode(
  names: readonly string[],
  listed: readonly (SlurmNode | KubernetesNode)[],
  of: (n: never) => SchedulerFinding[],
): Record<string, SchedulerFinding[]> {
  const byName = new Map(listed.map((n) => [n.name, n]));
  const out: Record<string, SchedulerFinding[]> = {};
  for (const name of names) {
    const n = byName.get(name);
    out[name] = n ? of(n as never) : [];
  }
  return out;
}

/** Reads the scheduler's node list and returns the findings of the nodes named. */
export async function readSchedulerHealth(
  r: TypedRequest & { config: SchedulerHealthModel },
  deps: SchedulerHealthDeps,
): Promise<SchedulerHealthModel | undefined> {
  const { scheduler, nodes } = r.config;
  const label = scheduler === "slurm" ? "Slurm" : "Kubernetes";
  try {
    const findings =
      scheduler === "slurm"
        ? findingsByNode(
            nodes,
            await bounded(r.context, READ_MS, "read", "Slurm's nodes", deps.slurmNodes),
            slurmFindings,
          )
        : findingsByNode(
            nodes,
            await bounded(r.context, READ_MS, "read", "Kubernetes' nodes", deps.kubernetesNodes),
            kubernetesFindings,
          );
    return { ...r.config, findings };
  } catch (e) {
    if (e instanceof SchedulerNotConfiguredError) {
      r.diagnostics.error(`${label} is not configured`, `rackform_scheduler_health: ${e.message}.`, path("scheduler"));
    } else {
      addClientError(r.diagnostics, e, `read the nodes' health from ${label}`, { what: `${label}'s node list` });
    }
    return undefined;
  }
}

/** The rackform_scheduler_health data source; `deps` replaces the configured provider's (tests hand fakes). */
export function schedulerHealthDataSource(
  deps: (providerData: unknown) => SchedulerHealthDeps = schedulerHealthDeps,
): DataSource {
  return defineDataSource({
    typeName: "rackform_scheduler_health",
    schema: schedulerHealthSchema,
    deps,
    read: readSchedulerHealth,
  });
}
