/**
 * The drain of `kubectl drain --ignore-daemonsets`: cordon, then evict through the Eviction API every pod that is not
 * a DaemonSet or mirror pod. A 429 means a PodDisruptionBudget refuses for now: retried until the deadline. Then, as
 * kubectl does, wait until the evicted pods are gone from the node: an accepted eviction only starts a graceful
 * deletion (the kubelet stops the containers within the pod's grace period), and the node must not be reimaged or
 * reset under pods still stopping.
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
    if (pending.length === 0) {
      await waitGone(client, node, pods, evicted, { ...opts, deadline, pollMs }, clock);
      return { evicted, skipped };
    }
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

/** Waits until no pod evicted from the node is still there (same uid); a drain timeout names those left. */
async function waitGone(
  client: KubernetesClient,
  node: string,
  pods: readonly KubernetesPod[],
  evicted: readonly string[],
  opts: DrainOptions & { readonly deadline: number; readonly pollMs: number },
  clock: DrainClock,
): Promise<void> {
  const evictedIds = new Set(evicted);
  const uids = new Map(pods.filter((p) => evictedIds.has(id(p))).map((p) => [id(p), p.uid]));
  const pollMs = Math.min(opts.pollMs, 1_000);
  for (;;) {
    const left = (await client.podsOn(node)).filter((p) => uids.has(id(p)) && uids.get(id(p)) === p.uid);
    if (left.length === 0) return;
    if (clock.now() + pollMs > opts.deadline) {
      const names = left.map(id).join(", ");
      throw client.fail(
        "RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT",
        `drain of node ${node} timed out after ${opts.timeoutMs} ms; evicted pods still terminating: ${names}. Check the node's kubelet, or raise the timeout`,
        {},
        undefined,
        { pending: left.map(id), evicted: [...evicted], refused: "" },
      );
    }
    try {
      await clock.sleep(pollMs, opts.signal);
    } catch {
      throw new HttpAbortedError(`drain of node ${node}: interrupted`, {});
    }
  }
}
