/**
 * The acceptance gate through BCM: a burn run (cmsh `device burn start`) whose burn configuration names the gate and
 * its parameters (`rackform-acceptance dcgm_level=3 burn_in=72h nccl_min_busbw_gbps=370`); its log is the
 * acceptance JSON, measured from the node's signals.
 */
import type { BcmApi } from "../bcm/index.js";
import type { LabNode, World } from "../world/model.js";
import { measureAcceptance, paramsFrom } from "./signals.js";

/** The burn configuration name of the gate. */
export const BCM_ACCEPTANCE_BURN = "rackform-acceptance";

/** Parses `rackform-acceptance k=v …` into parameters; undefined for another burn configuration. */
export function burnParams(config: string): Record<string, string> | undefined {
  const [name, ...rest] = config.trim().split(/\s+/);
  if (name !== BCM_ACCEPTANCE_BURN) return undefined;
  return Object.fromEntries(rest.map((kv) => kv.split("=", 2) as [string, string]));
}

/** Answers burn runs of the gate from the node's signals. */
export function installBcmAcceptance(
  bcm: BcmApi,
  world: World,
  resolve: (ip: string | undefined) => LabNode | undefined,
): void {
  bcm.setBurnRunner((d, config) => {
    const p = burnParams(config);
    if (!p) return { passed: false, log: `unknown burn configuration "${config}"\n` };
    const node = resolve(d.interfaces.find((i) => i.childType === "NetworkBmcInterface")?.ip);
    if (!node) return { passed: false, log: "rackform-acceptance: no GPU node behind this device's BMC\n" };
    try {
      const report = measureAcceptance(world, node, paramsFrom(p));
      return { passed: report.passed, log: `${JSON.stringify(report, null, 2)}\n` };
    } catch (e) {
      return { passed: false, log: `rackform-acceptance: ${(e as Error).message}\n` };
    }
  });
}
