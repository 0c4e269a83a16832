/**
 * The acceptance gate through Warewulf, node side (rackform's convention, not a Warewulf feature): the site imported
 * rackform's runtime overlay `rackform-acceptance`; a node at runtime whose runtime overlays include it and whose tags
 * carry `rackform_acceptance_request` (base64 JSON: run id and parameters) runs the gate once per run id — for the
 * profile's burnInMs from when it first saw the request — and writes `rackform_acceptance_result` (base64 JSON: run,
 * passed, evidence) back as a node tag, as the overlay's script does through warewulfd's API with its own API user.
 */
import type { WarewulfApi } from "../warewulf/index.js";
import type { LabNode, World } from "../world/model.js";
import { measureAcceptance, paramsFrom } from "./signals.js";

/** The overlay and node tags of the gate. */
export const WAREWULF_GATE = {
  overlay: "rackform-acceptance",
  request: "rackform_acceptance_request",
  result: "rackform_acceptance_result",
} as const;

const enc = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64");

function dec(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== "string" || v === "") return undefined;
  try {
    const o: unknown = JSON.parse(Buffer.from(v, "base64").toString("utf8"));
    return o !== null && typeof o === "object" && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Installs rackform's overlay in the lab warewulfd and runs the gate on nodes that are asked to. */
export function installWarewulfAcceptance(
  ww: WarewulfApi,
  world: World,
  now: () => number,
  resolve: (macs: readonly string[]) => LabNode | undefined,
): void {
  ww.store.overlays.add(WAREWULF_GATE.overlay);
  /** Run id → when the node first saw it (ms, lab clock). */
  const started = new Map<string, number>();
  ww.addNodeAgent((id, node) => {
    const overlays = Array.isArray(node["runtime overlay"]) ? (node["runtime overlay"] as string[]) : [];
    if (!overlays.includes(WAREWULF_GATE.overlay)) return undefined;
    const tags = (node.tags ?? {}) as Record<string, unknown>;
    const req = dec(tags[WAREWULF_GATE.request]);
    if (!req || typeof req.run !== "string") return undefined;
    const key = `${id}/${req.run}`;
    if (dec(tags[WAREWULF_GATE.result])?.run === req.run) {
      started.delete(key);
      return undefined;
    }
    const t = now();
    const since = started.get(key) ?? t;
    started.set(key, since);
    if (t - since < world.time.duration("burnInMs")) return undefined;
    started.delete(key);
    const devs = (node["network devices"] ?? {}) as Record<string, { hwaddr?: unknown }>;
    const host = resolve(Object.values(devs).map((d) => String(d?.hwaddr ?? "")));
    let result: Record<string, unknown>;
    if (!host) result = { run: req.run, passed: false, error: "no GPU node behind this node's MACs" };
    else {
      try {
        const report = measureAcceptance(
          world,
          host,
          paramsFrom({
            dcgm_level: req.dcgm_level,
            burn_in: req.burn_in,
            nccl_min_busbw_gbps: req.nccl_min_busbw_gbps,
          }),
        );
        result = { run: req.run, passed: report.passed, evidence: report };
      } catch (e) {
        result = { run: req.run, passed: false, error: (e as Error).message };
      }
    }
    return { [WAREWULF_GATE.result]: enc(result) };
  });
}
