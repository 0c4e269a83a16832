/**
 * One GPU rack from outlets off to joined in Slurm, through MAAS: the default app of the repository's cdktf.json and
 * what `npm run demo` deploys. Endpoints, BMC addresses and the CA come from the lab file (RACKFORM_LAB_FILE, written
 * by `rackform lab up --out lab.json`); secrets come from TF_VAR_redfish_password, TF_VAR_maas_api_key and
 * TF_VAR_slurm_token, so they are never in this file or in cdk.tf.json.
 */

import { AcceptancePolicy, Flavor, Image, MaasBackend, Rack, RackformStack, SlurmCluster } from "@rackform/constructs";
import { App } from "cdktf";
import { imageUrl, rackLayout, rackNames, readLabFile } from "../lab-file.js";

const lab = readLabFile(["maas", "slurm"]);
const app = new App();
const stack = new RackformStack(app, "gpu-rack");

const image = new Image(stack, "ubuntu-gpu", {
  version: "2026.06.2",
  url: imageUrl(lab, "ubuntu-gpu-2026.06.2.qcow2"),
  sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
});
const flavor = new Flavor(stack, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 });
// NCCL threshold left to its default: 92 % of the flavor's fabric (8 × 400 Gb/s) = 370 GB/s.
const acceptance = new AcceptancePolicy(stack, "standard", { dcgmLevel: 3, burnIn: "72h" });

// The lab's first rack: its PDUs, and its nodes by U position, PDU outlet and BMC address.
const rack = rackNames(lab)[0];
new Rack(stack, rack, {
  ...rackLayout(lab, rack),
  flavor,
  image,
  acceptance,
  backend: new MaasBackend(stack, "maas", { url: lab.maas!.url }),
  cluster: new SlurmCluster(stack, "slurm", { url: lab.slurm!.url, user: lab.slurm!.user }),
  redfish: { username: lab.nodes[0].bmc.username, caFile: lab.ca },
});

app.synth();
