/**
 * One GPU rack through OpenStack Ironic (redfish hardware type, IPA deploy ramdisk) and joined in Slurm. Endpoints,
 * BMC addresses and the CA come from the lab file (RACKFORM_LAB_FILE); secrets from TF_VAR_redfish_password and
 * TF_VAR_slurm_token (the lab's Ironic runs with noauth).
 */

import {
  AcceptancePolicy,
  Flavor,
  Image,
  IronicBackend,
  Rack,
  RackformStack,
  SlurmCluster,
} from "@rackform/constructs";
import { App } from "cdktf";
import { imageUrl, rackLayout, rackNames, readLabFile } from "../lab-file.js";

const lab = readLabFile(["ironic", "slurm"]);
const app = new App();
const stack = new RackformStack(app, "ironic-rack");

// Ironic writes the image from its URL and checks the sha256; nothing is uploaded beforehand.
const image = new Image(stack, "ubuntu-gpu", {
  version: "2026.06.2",
  url: imageUrl(lab, "ubuntu-gpu-2026.06.2.qcow2"),
  sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
});
const flavor = new Flavor(stack, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 });
const acceptance = new AcceptancePolicy(stack, "standard", { dcgmLevel: 3, burnIn: "72h" });

const rack = rackNames(lab)[0];
new Rack(stack, rack, {
  ...rackLayout(lab, rack),
  flavor,
  image,
  acceptance,
  backend: new IronicBackend(stack, "ironic", {
    url: lab.ironic!.url,
    deployKernel: imageUrl(lab, "ipa.kernel"),
    deployRamdisk: imageUrl(lab, "ipa.initramfs"),
  }),
  cluster: new SlurmCluster(stack, "slurm", { url: lab.slurm!.url, user: lab.slurm!.user }),
  redfish: { username: lab.nodes[0].bmc.username, caFile: lab.ca },
});

app.synth();
