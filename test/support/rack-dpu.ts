/**
 * A rack with BlueField-3 DPUs built by the Rack construct, for the e2e test and the recorded golden plans: a lab whose
 * nodes carry one DPU each (NicMode, factory BFB, outlets off) and the stack's cdk.tf.json synthesized in process, the
 * engine run on it directly (the cdktf CLI adds nothing here). Nodes and DPU BMC addresses come from the lab file as
 * the examples read it (`rackLayout(lab, rack, { dpus: true })`).
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Testing } from "cdktf";
import {
  AcceptancePolicy,
  Flavor,
  Image,
  MaasBackend,
  Rack,
  RackformStack,
  SlurmCluster,
} from "../../constructs/lib/index.js";
import { rackLayout } from "../../examples/lab-file.js";
import { defaultSpec, type Lab, startLab } from "../../src/lab/index.js";

/** The BFB the DPUs are pinned to first, and the one a day-2 change rolls. */
export const BFB_V1 = "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod";
export const BFB_V2 = "DOCA_2.10.0_BSP_4.10.0_Ubuntu_24.04-6.25-01.prod";
const IMAGE_SHA = "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39";

/** A lab of `nodes` nodes in racks of 4, one BlueField-3 each in NicMode, instant profile; and its state dir. */
export async function dpuLab(nodes: number): Promise<{ lab: Lab; stateDir: string }> {
  const stateDir = await mkdtemp(join(tmpdir(), "rf-lab-rack-dpu-"));
  const spec = defaultSpec({ nodes, nodesPerRack: 4, dpus: 1, dpuMode: "NicMode" });
  return { lab: await startLab({ spec, profile: "instant", stateDir }), stateDir };
}

/** The secrets a DPU rack stack reads, as TF_VAR_*. */
export const dpuRackEnv = (lab: Lab): Record<string, string> => ({
  TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
  TF_VAR_maas_api_key: lab.info.maas!.apiKey,
  TF_VAR_slurm_token: lab.info.slurm!.token,
});

/** The cdk.tf.json of rack `rack` of the lab, its flavor's DPUs on BFB `version` in `mode`. */
export function dpuRackJson(lab: Lab, rack: string, version = BFB_V1, mode: "DpuMode" | "NicMode" = "DpuMode"): string {
  const app = Testing.app();
  const stack = new RackformStack(app, rack);
  const image = new Image(stack, "ubuntu-gpu", {
    version: "2026.06.2",
    url: `${lab.images.url}ubuntu-gpu-2026.06.2.qcow2`,
    sha256: IMAGE_SHA,
  });
  const flavor = new Flavor(stack, "hgx-h100-bf3", {
    gpus: { model: "H100", count: 8 },
    minMemoryGiB: 1024,
    dpus: { count: 1, mode, bfb: { version, url: `${lab.images.url}${version}.bfb`, sha256: "b".repeat(64) } },
  });
  new Rack(stack, rack, {
    ...rackLayout(lab.info, rack, { dpus: true }),
    flavor,
    image,
    acceptance: new AcceptancePolicy(stack, "standard", { dcgmLevel: 3, burnIn: "72h" }),
    backend: new MaasBackend(stack, "maas", { url: lab.info.maas!.url }),
    cluster: new SlurmCluster(stack, "slurm", { url: lab.info.slurm!.url, user: lab.info.slurm!.user }),
    redfish: { username: lab.info.nodes[0].bmc.username, caFile: lab.info.ca },
  });
  const json = Testing.synth(stack, true);
  rmSync(app.outdir, { recursive: true, force: true }); // Testing.app() makes a temp outdir
  return json;
}
