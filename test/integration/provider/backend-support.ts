/** Ground shared by the backend adapters' tests against the lab (BCM, Warewulf). */
import type { Lab } from "../../../src/lab/index.js";
import type { EnrollSpec } from "../../../src/provider/backends/index.js";

/** What rackform_machine hands a backend to enroll the lab's `i`-th node: its first MAC and its BMC, trusted by CA. */
export function enrollSpecOf(lab: Lab, i: number): EnrollSpec {
  const n = lab.info.nodes[i];
  const w = lab.world.node(n.name);
  if (!w) throw new Error(`no node ${n.name}`);
  return {
    name: n.name,
    macs: [w.ports[0].mac.toLowerCase()],
    bmcAddress: n.bmc.url,
    bmcUsername: n.bmc.username,
    bmcPassword: n.bmc.password,
    bmcInsecure: false,
    architecture: "amd64/generic",
  };
}
