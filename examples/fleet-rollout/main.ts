/**
 * Three racks rolled out in two waves: one stack per rack, the first rack a canary the others wait for, and every
 * stack's state in its own schema of one PostgreSQL database (RACKFORM_PG_CONN_STR, without a password: the engine
 * reads PGPASSWORD). When a canary node fails its acceptance gate, `cdktf deploy '*'` stops before wave 2.
 * Endpoints come from the lab file (RACKFORM_LAB_FILE); secrets from TF_VAR_redfish_password, TF_VAR_maas_api_key and
 * TF_VAR_slurm_token.
 */

import { AcceptancePolicy, Flavor, Fleet, Image, MaasBackend, SlurmCluster } from "@rackform/constructs";
import { App } from "cdktf";
import { imageUrl, rackLayout, rackNames, readLabFile } from "../lab-file.js";

const lab = readLabFile(["maas", "slurm"]);
const app = new App();

// Shared by every rack; they create no resources themselves, so they live beside the stacks.
const image = new Image(app, "ubuntu-gpu", {
  version: "2026.06.2",
  url: imageUrl(lab, "ubuntu-gpu-2026.06.2.qcow2"),
  sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
});
const flavor = new Flavor(app, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 });
const acceptance = new AcceptancePolicy(app, "standard", { dcgmLevel: 3, burnIn: "72h" });

const racks = rackNames(lab).map((name) => ({ name, ...rackLayout(lab, name) }));

// Stacks fleet-<rack>: wave 1 is the canary (the first rack), wave 2 the rest, each depending on wave 1.
new Fleet(app, "fleet", {
  racks,
  flavor,
  image,
  acceptance,
  backend: new MaasBackend(app, "maas", { url: lab.maas!.url }),
  // At most one node of the partition out of service at once, whichever rack's stack (or runner) drains it; with it
  // an image bump is each node's rolling reimage, carried out by its cluster member.
  cluster: new SlurmCluster(app, "slurm", { url: lab.slurm!.url, user: lab.slurm!.user, maxUnavailable: 1 }),
  redfish: { username: lab.nodes[0].bmc.username, caFile: lab.ca },
  canary: 1,
  stateBackend: { kind: "pg" }, // connection string from RACKFORM_PG_CONN_STR
});

app.synth();
