/**
 * The demo rack as HCL: for every node of the lab file, the whole chain a node walks — PDU outlet on → BMC reachable
 * and conformant to the flavor → enrolled and commissioned in MAAS → golden image deployed → acceptance gate passed →
 * joined to Slurm. Generated from the lab file so it runs against any `rackform lab up`.
 */
import type { LabInfo } from "../lab/index.js";
import { attestationLines, type DemoTrust, secureBootBlock } from "./demo-trust.js";

/** The golden image the demo deploys (uploaded to the lab MAAS as custom/<name>-<version>). */
export interface DemoImage {
  readonly name: string;
  readonly version: string;
  readonly sha256: string;
}

/** Choices beyond the demo's: the backend and which nodes; each left out gives the demo's own output. */
export interface DemoConfigOptions {
  /** Where machines are enrolled. @default "maas" */
  readonly backend?: "maas" | "ironic";
  /** Names of the lab nodes to include. @default every node of the lab file */
  readonly nodes?: readonly string[];
  /** Ironic deploy (IPA) kernel URL. @default the lab image server's ipa.kernel (Ironic only) */
  readonly deployKernel?: string;
  /** Ironic deploy (IPA) ramdisk URL. @default the lab image server's ipa.initramfs (Ironic only) */
  readonly deployRamdisk?: string;
  /** Every member's max_unavailable: a reimage recycles this many nodes at a time. @default no limit (not written) */
  readonly maxUnavailable?: number;
  /** Which scheduler the nodes join. @default "slurm" */
  readonly scheduler?: "slurm" | "kubernetes";
  /**
   * Reimage in place through each node's cluster member (rolling deployments, image_ref on the gate and member).
   * @default true when maxUnavailable is set
   */
  readonly rolling?: boolean;
  /**
   * Firmware baselines and BIOS settings by node name (rackform_firmware between the BMC and the machine, its ref
   * followed by the gate and member so a change rolls the node within the budget). @default none
   */
  readonly firmware?: Readonly<Record<string, NodeFirmware>>;
  /**
   * The health remediation ladder: the deployment follows the BMC's findings and the gate and member its rung (a
   * Critical component is power cycled, then reimaged, then quarantined for repair, within the budget). Takes effect
   * on rolling racks (the member carries the steps in place). @default off
   */
  readonly remediation?: DemoRemediation;
  /**
   * How long each gate's evidence stands (evidence_max_age), for every node or by node name; the member follows the
   * gate's recheck so an expired node is re-checked while idle. @default evidence never expires
   */
  readonly evidenceMaxAge?: string | Readonly<Record<string, string>>;
  /** Secure Boot on every node and attestation in every gate. @default neither */
  readonly trust?: DemoTrust;
}

/** The ladder's policy in the demo configuration. */
export interface DemoRemediation {
  /** The steps before repair. @default the provider's (power_cycle, reimage) */
  readonly steps?: readonly ("power_cycle" | "reimage")[];
  /** At most this many nodes of a budget take a step per apply. @default no limit */
  readonly maxUnhealthy?: number;
  /** What counts as a finding: the BMC's Critical components, the scheduler's own marks, or both. @default ["bmc"] */
  readonly signals?: readonly ("bmc" | "scheduler")[];
}

/** One node's firmware baseline (component → image) and BIOS settings. */
export interface NodeFirmware {
  readonly components?: Readonly<
    Record<string, { readonly version: string; readonly url: string; readonly sha256: string }>
  >;
  readonly bios?: Readonly<Record<string, string>>;
}

const q = JSON.stringify;

/** The node's rackform_firmware and the lines it adds to its machine, gate and member (none without a baseline). */
function firmwareParts(id: string, fw: NodeFirmware | undefined, secureBoot: string) {
  if (!fw && !secureBoot) return { resource: "", machine: "", ref: "" };
  const comps = Object.entries(fw?.components ?? {})
    .map(([k, t]) => `    ${q(k)} = { version = ${q(t.version)}, url = ${q(t.url)}, sha256 = ${q(t.sha256)} }\n`)
    .join("");
  const bios = Object.entries(fw?.bios ?? {})
    .map(([k, v]) => `    ${k} = ${q(v)}\n`)
    .join("");
  const resource = `resource "rackform_firmware" "${id}" {
  endpoint = rackform_bmc.${id}.endpoint
${comps ? `  components = {\n${comps}  }\n` : ""}${bios ? `  bios = {\n${bios}  }\n` : ""}${secureBoot}  rolling  = true # on a running node the member resets it, within max_unavailable
}

`;
  return {
    resource,
    machine: `  depends_on   = [rackform_firmware.${id}] # enrolled on the baseline firmware\n`,
    ref: `  firmware_ref = rackform_firmware.${id}.ref # a firmware change is this node's rolling update\n`,
  };
}

/** Where the lab serves images (its image server; a lab file from before it had one: the old placeholder host). */
export function imagesBase(info: LabInfo): string {
  return info.images?.url ?? "http://images.lab/";
}

/** The URL the demo deploys `image` from: the lab image server serves it with the demo's sha256. */
export function demoImageUrl(info: LabInfo, image: DemoImage): string {
  return `${imagesBase(info)}${image.name}-${image.version}.qcow2`;
}

/** The ironic block's IPA images: every node gets them at enrollment (the lab's Ironic has no [conductor] default). */
function ironicDeployFields(info: LabInfo, opts: DemoConfigOptions): string {
  return `    deploy_kernel  = ${q(opts.deployKernel ?? `${imagesBase(info)}ipa.kernel`)}
    deploy_ramdisk = ${q(opts.deployRamdisk ?? `${imagesBase(info)}ipa.initramfs`)}
`;
}

function maxUnavailableField(opts: DemoConfigOptions): string {
  if (opts.maxUnavailable === undefined) return "";
  return `  max_unavailable = ${opts.maxUnavailable} # rolling: at most this many nodes drained at once\n`;
}

/** The lines a rolling rack adds to a node's deployment, gate or member. */
function rollingLines(id: string, opts: DemoConfigOptions) {
  if (!(opts.rolling ?? opts.maxUnavailable !== undefined)) return { deployment: "", gate: "", member: "" };
  const ref = `  image_ref  = rackform_deployment.${id}.image_ref # an image change is this node's rolling reimage\n`;
  return {
    deployment: "  rolling    = true # the member reimages in place, within max_unavailable\n",
    gate: ref,
    member: ref,
  };
}

/** What walks a node down its ladder: its BMC's findings, the scheduler's (data rackform_scheduler_health), or both. */
function ladderFindings(id: string, name: string, r: DemoRemediation): string {
  const signals = r.signals ?? ["bmc"];
  const bmc = `rackform_bmc.${id}.health`;
  if (!signals.includes("scheduler")) return bmc;
  const scheduler = `data.rackform_scheduler_health.rack.findings[${q(name)}]`;
  return signals.includes("bmc") ? `concat(${bmc}, ${scheduler})` : scheduler;
}

/** The scheduler's health of the rack's nodes, read once per plan, when the ladder counts it. */
function schedulerHealthData(nodes: readonly { name: string }[], opts: DemoConfigOptions): string {
  if (!opts.remediation?.signals?.includes("scheduler")) return "";
  return `# What the scheduler marks by itself (slurmd silent, a refused registration, a Node not Ready): read every plan.
data "rackform_scheduler_health" "rack" {
  scheduler = "${opts.scheduler ?? "slurm"}"
  nodes     = ${q(nodes.map((n) => n.name))}
}

`;
}

/** The lines the remediation ladder adds to a node's deployment, gate or member. */
function remediationLines(id: string, name: string, opts: DemoConfigOptions) {
  const r = opts.remediation;
  if (!r) return { deployment: "", gate: "", member: "" };
  const follow = `  remediation = rackform_deployment.${id}.remediation # the node's step on its health ladder\n`;
  return {
    deployment:
      `  bmc_health = ${ladderFindings(id, name, r)} # a finding walks the node down its remediation ladder\n` +
      (r.steps ? `  remediation_steps = ${q(r.steps)}\n` : ""),
    gate: follow,
    member: follow + (r.maxUnhealthy !== undefined ? `  max_unhealthy = ${r.maxUnhealthy}\n` : ""),
  };
}

/** The lines the evidence age adds to a node's gate and member. */
function recheckLines(id: string, name: string, opts: DemoConfigOptions) {
  const age = typeof opts.evidenceMaxAge === "string" ? opts.evidenceMaxAge : opts.evidenceMaxAge?.[name];
  if (age === undefined) return { gate: "", member: "" };
  return {
    gate: `  evidence_max_age = ${q(age)} # older evidence is re-checked on an idle node\n`,
    member: `  recheck    = rackform_acceptance.${id}.recheck\n`,
  };
}

function node(info: LabInfo, n: LabInfo["nodes"][number], opts: DemoConfigOptions): string {
  const pdu = info.pdus.find((p) => p.id === n.pdu)!;
  const id = n.name.replaceAll("-", "_");
  const rolling = rollingLines(id, opts);
  const ladder = remediationLines(id, n.name, opts);
  const recheck = recheckLines(id, n.name, opts);
  const fw = firmwareParts(id, opts.firmware?.[n.name], secureBootBlock(opts.trust));
  return `# ---- ${n.name} (rack ${n.rack}, U${n.u}) ----
resource "rackform_pdu_outlet" "${id}" {
  endpoint    = ${q(pdu.url)}
  pdu_id      = ${q(n.pdu)}
  outlet_id   = "${n.outlet}"
  power_state = "On"
}

resource "rackform_bmc" "${id}" {
  endpoint = ${q(n.bmc.url)}
  expected = local.flavor
  depends_on = [rackform_pdu_outlet.${id}]
}

${fw.resource}resource "rackform_machine" "${id}" {
  name         = ${q(n.name)}
  backend      = ${q(opts.backend ?? "maas")}
  bmc_endpoint = rackform_bmc.${id}.endpoint
  macs         = [rackform_bmc.${id}.macs[0]]
${fw.machine}}

resource "rackform_deployment" "${id}" {
  machine_id = rackform_machine.${id}.id
  image      = local.image
  user_data  = local.user_data
${rolling.deployment}${ladder.deployment}}

resource "rackform_acceptance" "${id}" {
  machine_id          = rackform_deployment.${id}.id
  dcgm_level          = 3
  nccl_min_busbw_gbps = 370
  burn_in             = "72h"
  expected_gpu_count  = 8
  bmc_gpu_count       = rackform_bmc.${id}.gpu_count # a GPU lost on a running node re-runs the gate
  bmc_health          = rackform_bmc.${id}.health    # so does a component the BMC reports newly not OK
${rolling.gate}${ladder.gate}${recheck.gate}${fw.ref}${attestationLines(id, opts.trust)}}

resource "rackform_cluster_member" "${id}" {
  scheduler  = "${opts.scheduler ?? "slurm"}"
  node       = ${q(n.name)}
${opts.scheduler === "kubernetes" ? `  labels     = { "nvidia.com/gpu.product" = "H100" }` : `  features   = ["h100"]`}
  gate_id    = rackform_acceptance.${id}.id # a new gate (reimage) drains the node first, then rejoins it
${maxUnavailableField(opts)}${rolling.member}${ladder.member}${recheck.member}${fw.ref}}
`;
}

/** The whole configuration; secrets come from variables (TF_VAR_*), never from the file. */
export function demoConfig(info: LabInfo, image: DemoImage, opts: DemoConfigOptions = {}): string {
  const maas = info.maas as { url: string } | undefined;
  const ironic = info.ironic as { url: string } | undefined;
  const slurm = info.slurm as { url: string; user: string } | undefined;
  const kube = info.kubernetes as { url: string } | undefined;
  const ironicRack = opts.backend === "ironic";
  const kubeRack = opts.scheduler === "kubernetes";
  if ((kubeRack ? !kube : !slurm) || (ironicRack ? !ironic : !maas)) {
    const names = `${ironicRack ? "Ironic" : "MAAS"} or ${kubeRack ? "Kubernetes" : "Slurm"}`;
    throw new Error(`the lab file has no ${names} endpoint`);
  }
  const nodes = opts.nodes ? info.nodes.filter((n) => opts.nodes!.includes(n.name)) : info.nodes;
  const missing = (opts.nodes ?? []).filter((name) => !info.nodes.some((n) => n.name === name));
  if (missing.length > 0) throw new Error(`no node ${missing.join(", ")} in the lab file`);
  const backendVariable = ironicRack
    ? ""
    : `variable "maas_api_key" {
  type      = string
  sensitive = true
  ephemeral = true # kept out of saved plans (plan files and their JSON hold every non-ephemeral variable's value)
}
`;
  const backendBlock = ironicRack
    ? `  ironic {
    url = ${q(ironic!.url)}
${ironicDeployFields(info, opts)}  }`
    : `  maas {
    url     = ${q(maas!.url)}
    api_key = var.maas_api_key
  }`;
  const schedulerBlock = kubeRack
    ? `  kubernetes {
    url   = ${q(kube!.url)}
    token = var.kube_token
  }`
    : `  slurm {
    url   = ${q(slurm!.url)}
    user  = ${q(slurm!.user)}
    token = var.slurm_token
  }`;
  return `# Generated by \`rackform demo\` from the lab file: one rack converged from outlet-off to joined in Slurm.
terraform {
  required_providers {
    rackform = { source = "rackform/rackform" }
  }
}

variable "redfish_password" {
  type      = string
  sensitive = true
  ephemeral = true # kept out of saved plans (plan files and their JSON hold every non-ephemeral variable's value)
}
${backendVariable}variable "${kubeRack ? "kube_token" : "slurm_token"}" {
  type      = string
  sensitive = true
  ephemeral = true # kept out of saved plans (plan files and their JSON hold every non-ephemeral variable's value)
}

provider "rackform" {
  redfish {
    username          = ${q(info.nodes[0].bmc.username)}
    password          = var.redfish_password
    ca_file           = ${q(info.ca)}
    power_on_interval = "250ms" # stagger power-ons to limit inrush current
  }
${backendBlock}
${schedulerBlock}
}

locals {
  # The flavor: what every node must be before it is enrolled.
  flavor = { gpu_model = "H100", gpu_count = 8, min_memory_gib = 1024 }
  image = {
    name    = ${q(image.name)}
    version = ${q(image.version)}
    url     = ${q(demoImageUrl(info, image))}
    sha256  = ${q(image.sha256)}
  }
  user_data = "#cloud-config\\nrackform-join: ${opts.scheduler ?? "slurm"}\\n"
}

${schedulerHealthData(nodes, opts)}${nodes.map((n) => node(info, n, opts)).join("\n")}`;
}

/** Nodes per rack in the lab the demo starts (the lab's default spec). */
export const NODES_PER_RACK = 8;

/** Examples whose stacks keep their state in PostgreSQL (RACKFORM_PG_CONN_STR): the demo starts one for them. */
const PG_EXAMPLES: ReadonlySet<string> = new Set(["fleet-rollout"]);

/** What the demo deploys for its options: which example, whether it needs PostgreSQL, and the line saying so. */
export interface DemoChoice {
  readonly example: string;
  readonly postgres: boolean;
  /** Printed before the lab starts: which racks are deployed and how (undefined for the default 8-node demo). */
  readonly note?: string;
}

/**
 * `--nodes N` above one rack (8) builds ceil(N / 8) racks; without `--example` the demo then deploys the
 * fleet-rollout example (one stack per rack, the first rack a canary wave) so every rack converges. gpu-rack, chosen
 * explicitly, deploys the first rack only, and the note says so.
 */
export function chooseExample(nodes: number, example?: string): DemoChoice {
  const racks = Math.max(1, Math.ceil(nodes / NODES_PER_RACK));
  const chosen = example ?? (racks > 1 ? "fleet-rollout" : "gpu-rack");
  const postgres = PG_EXAMPLES.has(chosen);
  const state = postgres ? "; state in a local PostgreSQL the demo starts" : "";
  if (chosen === "fleet-rollout") {
    const why = example ? "" : `--nodes ${nodes} builds ${racks} racks of up to ${NODES_PER_RACK}: `;
    return {
      example: chosen,
      postgres,
      note: `${why}deploying examples/fleet-rollout, one stack per rack in waves (the first rack a canary)${state}`,
    };
  }
  if (chosen === "gpu-rack" && racks > 1) {
    const first = Math.min(nodes, NODES_PER_RACK);
    return {
      example: chosen,
      postgres,
      note: `examples/gpu-rack deploys the lab's first rack only (${first} of ${nodes} nodes); --example fleet-rollout deploys every rack`,
    };
  }
  return { example: chosen, postgres };
}
