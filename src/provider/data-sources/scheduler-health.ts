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
import { reasonBySlurmctld } from "../resources/cluster-member-scheduler.js";
import { SCHEDULER_KIND_PREFIX } from "../shared/remediation.js";
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

/** What slurmctld holds against a node by itself; nothing for a node that never registered or a person's drain. */
export function slurmFindings(n: SlurmNode): SchedulerFinding[] {
  // A node slurm.conf lists whose slurmd never started is UNKNOWN/FUTURE: not joined yet, the member's to wait for.
  if (n.baseState === "UNKNOWN" || n.baseState === "FUTURE") return [];
  const at = { health: "Critical" as const, uri: `slurm:${n.name}`, since: iso(n.reasonChangedAt) };
  const own = n.reason !== "" && reasonBySlurmctld(n);
  const said = (fallback: string) => (own ? n.reason : fallback);
  const out: SchedulerFinding[] = [];
  if (n.state.includes("NOT_RESPONDING"))
    out.push({ ...at, kind: `${SCHEDULER_KIND_PREFIX}not_responding`, component: `slurmd: ${said("Not responding")}` });
  if (n.state.includes("INVALID_REG")) {
    const component = `slurmd: ${said("invalid registration")}`;
    out.push({ ...at, kind: `${SCHEDULER_KIND_PREFIX}invalid_registration`, component });
  }
  if (out.length > 0) return out;
  // Without a flag, only a DOWN or a drain whose reason slurmctld wrote (user "slurm") is the scheduler's own — but
  // not "Not responding" once the flag is gone: slurmd has registered since, and the node waits for a RESUME (with
  // ReturnToService=0), which its cluster member gives when it joins it.
  if (!own || n.reasonSetByUser !== "slurm" || /^Not responding/i.test(n.reason)) return [];
  const component = `slurmctld: ${n.reason}`;
  if (n.down) return [{ ...at, kind: `${SCHEDULER_KIND_PREFIX}down`, component }];
  if (n.drain) return [{ ...at, kind: `${SCHEDULER_KIND_PREFIX}drain`, component }];
  return [];
}

/** A Kubernetes Node whose Ready condition is not True: its kubelet stopped posting status, or reports NotReady. */
export function kubernetesFindings(n: KubernetesNode): SchedulerFinding[] {
  if (n.ready) return [];
  return [
    {
      component: `kubelet: ${n.readyReason ?? "NotReady"}`,
      kind: `${SCHEDULER_KIND_PREFIX}not_ready`,
      health: "Critical",
      uri: `kubernetes:${n.name}`,
      since: iso(n.readySince),
    },
  ];
}

/** Findings per node named, from one list; a node the scheduler does not know has none. */
export function findingsByNode<N extends { readonly name: string }>(
  names: readonly string[],
  listed: readonly N[],
  of: (n: N) => SchedulerFinding[],
): Record<string, SchedulerFinding[]> {
  const byName = new Map(listed.map((n) => [n.name, n]));
  return Object.fromEntries(
    names.map((name) => {
      const n = byName.get(name);
      return [name, n ? of(n) : []];
    }),
  );
}

/** Reads the scheduler's node list and returns the findings of the nodes named. */
export async function readSchedulerHealth(
  r: TypedRequest & { config: SchedulerHealthModel },
  deps: SchedulerHealthDeps,
): Promise<SchedulerHealthModel | undefined> {
  const { scheduler, nodes } = r.config;
  const label = scheduler === "slurm" ? "Slurm" : "Kubernetes";
  const list = <N>(fn: (signal: AbortSignal) => Promise<N>) =>
    bounded(r.context, READ_MS, "read", `${label}'s nodes`, fn);
  try {
    const findings =
      scheduler === "slurm"
        ? findingsByNode(nodes, await list(deps.slurmNodes), slurmFindings)
        : findingsByNode(nodes, await list(deps.kubernetesNodes), kubernetesFindings);
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
