/**
 * One GPU rack through OpenStack Ironic (redfish hardware type, IPA deploy ramdisk) and joined in Slurm. Endpoints,
 * BMC addresses and the CA come from the lab file (RACKFORM_LAB_FILE); secrets from TF_VAR_redfish_password and
 * TF_VAR_slurm_token (the lab's Ironic runs with noauth).
 */
import { readFileSync } from "node:fs";
import { App } from "cdktf";
import {
  AcceptancePolicy,
  Flavor,
  Image,
  IronicBackend,
  Rack,
  RackformStack,
  SlurmCluster,
} from "../../constructs/lib/index.js";

/** The part of the lab file this example reads (the lab's CA, PDUs, nodes, Ironic and Slurm). */
interface LabFile {
  readonly ca: string;
  readonly pdus: readonly { id: string; rack: string; url: string }[];
  readonly nodes: readonly {
    name: string;
    rack: string;
    u: number;
    pdu: string;
    outlet: number;
    bmc: { url: string; username: string };
  }[];
  readonly ironic?: { url: string };
  readonly slurm?: { url: string; user: string };
}

function labFile(): LabFile {
  const path = process.env.RACKFORM_LAB_FILE;
  if (!path) throw new Error("set RACKFORM_LAB_FILE to the file `rackform lab up --out lab.json` wrote");
  const lab = JSON.parse(readFileSync(path, "utf8")) as LabFile;
  if (!lab.ironic || !lab.slurm) throw new Error(`${path} has no Ironic or Slurm: start the lab with its backends`);
  return lab;
}

const lab = labFile();
const app = new App();
const stack = new RackformStack(app, "ironic-rack");

// Ironic writes the image from its URL and checks the sha256; nothing is uploaded beforehand.
const image = new Image(stack, "ubuntu-gpu", {
  version: "2026.06.2",
  url: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2",
  sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
});
const flavor = new Flavor(stack, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 });
const acceptance = new AcceptancePolicy(stack, "standard", { dcgmLevel: 3, burnIn: "72h" });

const rack = lab.nodes[0].rack;
new Rack(stack, rack, {
  pdus: lab.pdus.filter((p) => p.rack === rack).map((p) => ({ name: p.id, endpoint: p.url })),
  nodes: lab.nodes
    .filter((n) => n.rack === rack)
    .map((n) => ({ name: n.name, u: n.u, pdu: n.pdu, outlet: n.outlet, bmc: n.bmc.url })),
  flavor,
  image,
  acceptance,
  backend: new IronicBackend(stack, "ironic", {
    url: lab.ironic!.url,
    deployKernel: "http://images.lab/ipa.kernel",
    deployRamdisk: "http://images.lab/ipa.initramfs",
  }),
  cluster: new SlurmCluster(stack, "slurm", { url: lab.slurm!.url, user: lab.slurm!.user }),
  redfish: { username: lab.nodes[0].bmc.username, caFile: lab.ca },
});

app.synth();
