/**
 * What a chaos run (run.ts) writes and reads beside its applies: the rack's HCL with the health policy, the bound on an
 * apply, and the lines a violation carries about what the engine was doing.
 */
import type { Lab } from "../../src/lab/index.js";
import { CHAIN, rackConfig, resourceName, type ShownResource } from "../support/rack.js";
import { healthPolicy } from "./health-watch.js";
import { parseStream } from "./observe.js";

/**
 * An apply still running this long is blocked: killed and reported with the resources it was waiting on, rather than
 * holding the run (and a test) until its own timeout. A 64-node apply on the instant profile ends in about a minute.
 */
export const APPLY_BOUND_MS = 300_000;

/** The resources an engine's `-json` stream shows started and not completed nor errored. */
export function waiting(stdout: string): string {
  const open = [...parseStream(stdout).trail]
    .filter(([, t]) => t.includes("started") && !t.includes("completed") && !t.includes("errored"))
    .map(([addr]) => addr);
  return open.length > 0 ? `still applying ${open.join(", ")}` : "no resource was being applied";
}

/**
 * The demo's rack HCL, with the health ladder unless `health` is off (bmc_health, max_unhealthy, max_unavailable:
 * health-watch.ts healthPolicy), and a BMC wait bounded to what the lab's fast profiles need: a BMC faulted unreachable until
 * the final clear would otherwise hold every apply for rackform_bmc's default 10 minutes.
 */
export function chaosConfig(lab: Lab, backend: "maas" | "ironic", nodes: readonly string[], health = true): string {
  const wait = lab.world.time.profile.name === "instant" ? "30s" : "10m";
  const { maxUnavailable, maxUnhealthy } = healthPolicy(nodes.length);
  const ladder = health ? { maxUnavailable, remediation: { maxUnhealthy } } : {};
  return rackConfig(lab, backend, nodes, ladder).replace(
    /(resource "rackform_bmc" "[^"]+" \{\n)/g,
    `$1  timeouts {\n    create = "${wait}"\n    update = "${wait}"\n    read   = "${wait}"\n  }\n`,
  );
}

/** What the engine did with each of a node's resources in one apply, and what state holds (for a violation's line). */
export function trailOf(
  node: string,
  trail: ReadonlyMap<string, readonly string[]>,
  state: readonly ShownResource[],
): string {
  const rn = resourceName(node);
  return CHAIN.map((type) => {
    const addr = `${type}.${rn}`;
    const held = state.find((s) => s.address === addr);
    const joined = type === "rackform_cluster_member" && held ? ` joined=${String(held.values.joined)}` : "";
    const where = held ? `in state${joined}` : "absent from state";
    return `${type.replace("rackform_", "")}: ${(trail.get(addr) ?? ["no change"]).join(" → ")}, ${where}`;
  }).join("; ");
}
