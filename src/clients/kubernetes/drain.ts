/**
 * The drain of `kubectl drain --ignore-daemonsets`: cordon, then evict through the Eviction API every pod that is not
 * a DaemonSet or mirror pod. A 429 means a PodDisruptionBudget refuses for now: retried until the deadline.
 */
import { HttpAbortedError } from "../errors.js";
import type { KubernetesClient } from "./client.js";
import type { DrainOptions, DrainResult, KubernetesPod } from "./types.js";

/** Time sources of a drain. */
export interface DrainClock {
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
}

const id = (p: KubernetesPod): string => `${p.namespace}/${p.name}`;

/** Runs the drain; safe to repeat (evicting a pod already gone counts as evicted). */
export async function drainNode(
  client: KubernetesClient,
  node: string,
  opts: DrainOptions,
  clock: DrainClock,
): Promise<DrainResult> {
  const deadline = clock.now() + opts.timeoutMs;
  const pollMs = opts.pollMs ?? 5_000;
  const abortIfAsked = (): void => {
    if (opts.signal?.aborted) throw new HttpAbortedError(`drain of node ${node}: aborted by the caller`, {});
  };
  await client.cordon(node);
  const pods = await client.podsOn(node);
  const skipped = pods.filter((p) => p.daemonSet || p.mirror).map(id);
  // Completed pods are evicted too (as kubectl drain does): they still hold the node's name and volumes.
  let pending = pods.filter((p) => !p.daemonSet && !p.mirror);
  const evicted: string[] = [];
  const refusals = new Map<string, string>();
  for (;;) {
    abortIfAsked();
    const still: KubernetesPod[] = [];
    for (const pod of pending) {
      const ans = await client.evict(pod.namespace, pod.name, opts.signal);
      if (ans.status === 429) {
        const cause = ans.k8sStatus?.causes?.find((c) => c.reason === "DisruptionBudget")?.message;
        refusals.set(id(pod), cause ?? ans.k8sStatus?.message ?? "TooManyRequests");
        still.push(pod);
      } else {
        evicted.push(id(pod));
        refusals.delete(id(pod));
      }
    }
    pending = still;
    if (pending.length === 0) return { evicted, skipped };
    if (clock.now() + pollMs > deadline) {
      const why = pending.map((p) => `${id(p)} (${refusals.get(id(p))})`).join(", ");
      throw client.fail(
        "RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT",
        `drain of node ${node} timed out after ${opts.timeoutMs} ms; evictions still refused: ${why}. Relax the PodDisruptionBudget or raise the timeout`,
        {},
        undefined,
        { pending: pending.map(id), evicted: [...evicted], refused: why },
      );
    }
    try {
      await clock.sleep(pollMs, opts.signal);
    } catch {
      abortIfAsked();
      throw new HttpAbortedError(`drain of node ${node}: interrupted`, {});
    }
  }
}
