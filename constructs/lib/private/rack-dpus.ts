/**
 * A Rack's DPUs: the rules tying each node's DPU BMC addresses to its flavor's `dpus`, and the rackform_dpu resources
 * of a node's chain — one per DPU, after the node's BMC (so after its outlet) and its rackform_firmware when it has
 * one (a mode change power-cycles the host through that BMC: never in the middle of a flash); the node's
 * rackform_machine then depends on them, so the host is enrolled only once every DPU runs its mode and pinned BFB.
 * The DPU BMCs are reached with the rack's Redfish account (the provider's).
 */
import type { Construct } from "constructs";
import type { Bmc } from "../../gen/providers/rackform/bmc/index.js";
import { Dpu } from "../../gen/providers/rackform/dpu/index.js";
import type { Firmware } from "../../gen/providers/rackform/firmware/index.js";
import type { ValidationProblem } from "../errors.js";
import type { Flavor } from "../flavor.js";
import type { RackNode, RackProps } from "../rack.js";
import { bmcUrl, isToken } from "./formats.js";
import { sanitize } from "./names.js";
import { show } from "./validate.js";

/** The logical id of a node's k-th DPU: `<sanitized node>_dpu<k>`, e.g. `r12_u07_dpu0`. */
export const dpuLogicalId = (node: string, k: number): string => `${sanitize(node)}_dpu${k}`;

const key = (address: string) => bmcUrl(address).replace(/\/+$/, "").toLowerCase();

/** Each node gives as many DPU BMC addresses as its flavor has DPUs, none when it has none, all distinct. */
export function dpuProblems(base: string, p: RackProps): ValidationProblem[] {
  const flavor = p.flavor as Flavor | undefined;
  const want = flavor?.dpus?.count ?? 0;
  const flavorName = flavor?.node?.id === undefined ? "the flavor" : `flavor ${show(flavor.node.id)}`;
  const problems: ValidationProblem[] = [];
  const seen = new Map<string, string>(p.nodes.map((n, i) => [key(n.bmc), `the BMC of nodes[${i}] ${show(n.name)}`]));
  p.nodes.forEach((n, i) => {
    const given = n.dpus ?? [];
    if (given.length !== want) {
      problems.push(
        want === 0
          ? {
              path: `${base}/nodes[${i}].dpus`,
              problem: `lists ${given.length} DPU BMC address(es), but ${flavorName} declares no DPUs`,
              fix: "declare them in the flavor's dpus ({ count, bfb }), or leave the node's dpus out",
            }
          : {
              path: `${base}/nodes[${i}].dpus`,
              problem: `${given.length === 0 ? "is missing" : `lists ${given.length} DPU BMC address(es)`}: ${flavorName} has ${want} DPU(s) per node`,
              fix: `list the address of each DPU's BMC, ${want} in all (the lab file's nodes[].dpus[].url)`,
            },
      );
      return;
    }
    given.forEach((a, k) => {
      if (isToken(a)) return;
      const owner = seen.get(key(a));
      if (owner !== undefined) {
        problems.push({
          path: `${base}/nodes[${i}].dpus[${k}]`,
          problem: `${show(a)} is already ${owner}`,
          fix: "give each DPU the address of its own BMC",
        });
      } else seen.set(key(a), `DPU ${k} of nodes[${i}] ${show(n.name)}`);
    });
  });
  return problems;
}

/** The rackform_dpu resources of node `n`, after its BMC and firmware (empty when the flavor has no DPUs). */
export function dpuChain(scope: Construct, n: RackNode, flavor: Flavor, bmc: Bmc, firmware?: Firmware): Dpu[] {
  const spec = flavor.dpus;
  if (!spec) return [];
  return (n.dpus ?? []).map((address, k) => {
    const d = new Dpu(scope, dpuLogicalId(n.name, k), {
      endpoint: bmcUrl(address),
      hostEndpoint: bmc.endpoint,
      mode: spec.mode,
      bfb: { ...spec.bfb },
      rshim: spec.rshim,
      dependsOn: firmware ? [bmc, firmware] : [bmc],
    });
    d.overrideLogicalId(d.node.id);
    return d;
  });
}
