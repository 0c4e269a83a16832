/**
 * One GPU rack from outlets off to joined in Slurm, through MAAS: the default app of the repository's cdktf.json and
 * what `npm run demo` deploys. Endpoints, BMC addresses and the CA come from the lab file (RACKFORM_LAB_FILE, written
 * by `rackform lab up --out lab.json`); secrets come from TF_VAR_redfish_password, TF_VAR_maas_api_key and
 * TF_VAR_slurm_token, so they are never in this file or in cdk.tf.json.
 */
import { readFileSync } from "node:fs";
import { App } from "cdktf";
import {
  AcceptancePolicy,
  Flavor,
  Image,
  MaasBackend,
  Rack,
  RackformStack,
  SlurmCluster,
} from "../../constructs/lib/index.js";

/** The part of the lab file this example reads (the lab's CA, PDUs, nodes, MAAS and Slurm). */
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
  readonly maas?: { url: string };
  readonly slurm?: { url: string; user: string };
}

function labFile(): LabFile {
  const path = process.env.RACKFORM_LAB_FILE;
  if (!path) throw new Error("set RACKFORM_LAB_FILE to the file `rackform lab up --out lab.json` wrote");
  const lab = JSON.parse(readFileSync(path, "utf8")) as LabFile;
  if (!lab.maas || !lab.slurm) throw new Error(`${path} has no MAAS or Slurm: start the lab with its backends`);
  return lab;
}

const lab = labFile();
const app = new App();
const stack = new RackformStack(app, "gpu-rack");

const image = new Image(stack, "ubuntu-gpu", {
  version: "2026.06.2",
  url: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2",
  sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
});
const flavor = new Flavor(stack, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 });
// NCCL threshold left to its default: 92 % of the flavor's fabric (8 × 400 Gb/s) = 370 GB/s.
const acceptance = new AcceptancePolicy(stack, "standard", { dcgmLevel: 3, burnIn: "72h" });

// The lab's first rack: its PDUs, and its nodes by U position, PDU outlet and BMC address.
const rack = lab.nodes[0].rack;
new Rack(stack, rack, {
  pdus: lab.pdus.filter((p) => p.rack === rack).map((p) => ({ name: p.id, endpoint: p.url })),
  nodes: lab.nodes
    .filter((n) => n.rack === rack)
    .map((n) => ({ name: n.name, u: n.u, pdu: n.pdu, outlet: n.outlet, bmc: n.bmc.url })),
  flavor,
  image,
  acceptance,
  backend: new MaasBackend(stack, "maas", { url: lab.maas!.url }),
  cluster: new SlurmCluster(stack, "slurm", { url: lab.slurm!.url, user: lab.slurm!.user }),
  redfish: { username: lab.nodes[0].bmc.username, caFile: lab.ca },
});

app.synth();
