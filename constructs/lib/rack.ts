/**
 * A rack: PDUs and nodes by U position and outlet. For every node it creates the chain a node walks, each resource
 * taking the previous one's id so the engine orders a node's steps and runs nodes in parallel:
 * rackform_pdu_outlet → rackform_bmc → rackform_firmware (when the flavor has firmware images or BIOS settings, see
 * private/rack-firmware.ts) → rackform_dpu (one per DPU of the flavor, see private/rack-dpus.ts) → rackform_machine →
 * rackform_deployment (after the image's rackform_image, see Image.resourceFor) → rackform_acceptance →
 * rackform_cluster_member (gate_id = the acceptance id, so a new gate drains and rejoins the node); the gate follows
 * the BMC's gpu_count (bmc_gpu_count) and health (bmc_health), so a GPU lost, or a component newly not OK, on a
 * running node re-runs it (a Critical one quarantines the node); with a
 * rackform_firmware, the gate and the member follow its `ref` (firmware_ref), so a baseline change is the node's
 * rolling update inside the disruption budget. With a HealthPolicy (a rolling rack only), the deployment follows the
 * BMC's health too and plans the node's remediation step, which the gate and the member follow (see health-policy.ts).
 * Logical ids are `<node>_outlet`, `<node>_bmc`, `<node>_machine`, `<node>_deployment`, `<node>_acceptance` and
 * `<node>_member` (and `<node>_firmware`, `<node>_dpu0`, `<node>_dpu1`, … when the flavor has them), with the node
 * name's characters outside [A-Za-z0-9_] as "_" (see constructs/README.md).
 */
import { Annotations, Fn, type IResolvable, type TerraformResource, TerraformStack, Token } from "cdktf";
import { Construct } from "constructs";
import { Acceptance, type AcceptanceConfig } from "../gen/providers/rackform/acceptance/index.js";
import { Bmc } from "../gen/providers/rackform/bmc/index.js";
import { ClusterMember } from "../gen/providers/rackform/cluster-member/index.js";
import { DataRackformSchedulerHealth } from "../gen/providers/rackform/data-rackform-scheduler-health/index.js";
import { Deployment, type DeploymentImage } from "../gen/providers/rackform/deployment/index.js";
import type { Dpu } from "../gen/providers/rackform/dpu/index.js";
import type { Firmware } from "../gen/providers/rackform/firmware/index.js";
import { Machine } from "../gen/providers/rackform/machine/index.js";
import { PduOutlet } from "../gen/providers/rackform/pdu-outlet/index.js";
import type { RackformProvider } from "../gen/providers/rackform/provider/index.js";
import type { AcceptancePolicy } from "./acceptance-policy.js";
import type { AttestationPolicy } from "./attestation-policy.js";
import type { IBackend } from "./backend.js";
import type { ICluster, MemberSettings } from "./cluster.js";
import type { Flavor } from "./flavor.js";
import type { HealthPolicy, HealthSettings } from "./health-policy.js";
import type { Image } from "./image.js";
import type { FirmwareSettings } from "./private/firmware-spec.js";
import { bmcUrl } from "./private/formats.js";
import { throwInvalid } from "./private/invalid.js";
import { type ChainSuffix, logicalId, sanitize } from "./private/names.js";
import { dpuChain } from "./private/rack-dpus.js";
import { firmwareStep } from "./private/rack-firmware.js";
import { rackRuleProblems } from "./private/rack-rules.js";
import { RACK_SCHEMA } from "./private/rack-schema.js";
import { withoutTokenStacks } from "./private/token-stacks.js";
import { validateProps } from "./private/validate.js";
import { addRackformProvider, type RedfishSettings } from "./provider.js";

/** A rack PDU, reached over Redfish. */
export interface RackPdu {
  /** The PDU's name, which nodes refer to. */
  readonly name: string;
  /** Its Redfish service, e.g. "https://10.20.0.9". */
  readonly endpoint: string;
  /** How many outlets it has (numbered 1..outlets). @default 48 */
  readonly outlets?: number;
  /** Its RackPDU id under /redfish/v1/PowerEquipment/RackPDUs. @default the name */
  readonly redfishId?: string;
}

/** A node of the rack: where it sits, what feeds it, where its BMC answers. */
export interface RackNode {
  /** Host name, also the machine's and the scheduler's node name, e.g. "r12-u07". */
  readonly name: string;
  /** Lowest U position, 1..52 (1 at the bottom). */
  readonly u: number;
  /** Name of the PDU feeding it. */
  readonly pdu: string;
  /** The outlet feeding it: a number in 1..outlets, or the PDU's outlet id such as "A7". */
  readonly outlet: number | string;
  /** BMC address: an IPv4 address (https is used) or a URL such as "https://10.20.1.7:8443". */
  readonly bmc: string;
  /** The node's MAC addresses: checked by the BMC and enrolled with the machine. @default the first MAC the BMC reports */
  readonly macs?: readonly string[];
  /** ComputerSystem id under /redfish/v1/Systems. @default the BMC's only system */
  readonly systemId?: string;
  /**
   * Addresses of the node's DPU BMCs (IPv4 or URL, as `bmc`), one per DPU of the flavor, reached with the rack's
   * Redfish account. @default none (required when the flavor declares dpus)
   */
  readonly dpus?: readonly string[];
}

/** Properties of a Rack. */
export interface RackProps {
  /** The rack's PDUs. */
  readonly pdus: readonly RackPdu[];
  /** The rack's nodes (at least one). */
  readonly nodes: readonly RackNode[];
  /** What every node must be before it is enrolled. */
  readonly flavor: Flavor;
  /** What every node is deployed with. */
  readonly image: Image;
  /** What every node must pass before it joins. */
  readonly acceptance: AcceptancePolicy;
  /** Where machines are enrolled: a MaasBackend or an IronicBackend. */
  readonly backend: IBackend;
  /** Which scheduler nodes join: a SlurmCluster or a KubernetesCluster. */
  readonly cluster: ICluster;
  /** How rackform reaches BMCs and PDUs (the stack's provider is built from it, the backend and the cluster). */
  readonly redfish: RedfishSettings;
  /** cloud-init user data of every deployment. @default "#cloud-config\nrackform-join: <scheduler>\n" */
  readonly userData?: string;
  /**
   * The health remediation ladder of every node: a Critical component on its BMC walks it through the policy's steps,
   * then quarantine for repair. Needs a disruption budget (the cluster's maxUnavailable), within which the members
   * carry the steps out. @default no ladder: a Critical component fails the node's re-run gate (quarantine)
   */
  readonly health?: HealthPolicy;
}

/** One node's chain of resources. */
export interface NodeChain {
  /** The node's name. */
  readonly name: string;
  /** Its PDU outlet, powered on. */
  readonly outlet: PduOutlet;
  /** Its BMC, checked against the flavor. */
  readonly bmc: Bmc;
  /** Its firmware baseline and BIOS settings, converged before the machine is enrolled (undefined without them). */
  readonly firmware: Firmware | undefined;
  /** Its DPUs, converged to the flavor's mode and BFB before the machine is enrolled (empty without DPUs). */
  readonly dpus: readonly Dpu[];
  /** Its machine in the backend. */
  readonly machine: Machine;
  /** The image deployed on it. */
  readonly deployment: Deployment;
  /** Its acceptance gate. */
  readonly acceptance: Acceptance;
  /** Its membership in the scheduler. */
  readonly member: ClusterMember;
}

/** What every node's chain of a rack shares. */
interface ChainSettings {
  readonly flavor: Flavor;
  /** What each node's rackform_firmware converges (undefined: no rackform_firmware). */
  readonly firmware: FirmwareSettings | undefined;
  readonly backend: IBackend;
  readonly cluster: ICluster;
  readonly userData: string;
  readonly member: MemberSettings;
  readonly image: DeploymentImage;
  /** The rackform_image in this stack that deployments wait for (undefined when another stack holds it). */
  readonly imageResource: TerraformResource | undefined;
  readonly gate: Omit<AcceptanceConfig, "machineId">;
  readonly pdus: ReadonlyMap<string, RackPdu>;
  /** The remediation ladder's settings (undefined: no ladder). */
  readonly health: HealthSettings | undefined;
  /** The scheduler's findings of the rack's nodes, when the health policy counts them. */
  readonly schedulerHealth: DataRackformSchedulerHealth | undefined;
  /** The attestation each gate runs (undefined: none). */
  readonly attestation: AttestationPolicy | undefined;
}

const nodesOfStack = new WeakMap<TerraformStack, Map<string, string>>();

/** Node names must be unique across a stack's racks too: they are logical ids, MAAS hostnames and scheduler names. */
function claimNames(rack: Construct, nodes: readonly RackNode[]): void {
  const stack = TerraformStack.of(rack);
  let owners = nodesOfStack.get(stack);
  if (!owners) nodesOfStack.set(stack, (owners = new Map()));
  const problems = nodes.flatMap((n, i) => {
    const owner = owners.get(sanitize(n.name));
    return owner === undefined
      ? []
      : [
          {
            path: `${rack.node.path}/nodes[${i}].name`,
            problem: `${JSON.stringify(n.name)} is already a node of rack ${owner} in stack ${stack.node.id}`,
            fix: "give every node of a stack its own host name",
          },
        ];
  });
  if (problems.length > 0) throwInvalid(rack.node.path, problems);
  for (const n of nodes) owners.set(sanitize(n.name), rack.node.path);
}

/** A rack of nodes, each converged from outlet-off to joined and accepted; props are validated at synth. */
export class Rack extends Construct {
  /** Every node's chain, in the order of the props. */
  readonly nodes: readonly NodeChain[];
  /** The stack's rackform provider. */
  readonly provider: RackformProvider;

  /** Validates the props and creates every node's chain; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: RackProps) {
    super(scope, id);
    const { flavor, image, acceptance, backend, cluster, redfish, health, ...data } = props;
    validateProps(this, RACK_SCHEMA, data, (base) => rackRuleProblems(base, props));
    claimNames(this, props.nodes);
    // Props of the policy and the cluster that only a rack can check fail at those constructs, not at the rack.
    acceptance.validateFor(flavor);
    cluster.addMembers(this, props.nodes.length);
    const healthWarning = health?.warningFor(this, props.nodes.length);
    if (healthWarning !== undefined) Annotations.of(this).addWarning(healthWarning);
    this.provider = addRackformProvider(this, { redfish, backend, cluster });
    const settings: ChainSettings = {
      flavor,
      firmware: flavor.toFirmwareSettings(),
      backend,
      cluster,
      userData: props.userData ?? `#cloud-config\nrackform-join: ${cluster.scheduler}\n`,
      member: cluster.memberSettings(flavor),
      image: image.toDeploymentImage(),
      imageResource: image.resourceFor(this, backend),
      gate: acceptance.toAcceptanceConfig(flavor),
      pdus: new Map(props.pdus.map((p) => [p.name, p])),
      health: health?.toHealthSettings(),
      schedulerHealth: health?.signals.includes("scheduler")
        ? new DataRackformSchedulerHealth(this, "scheduler-health", {
            scheduler: cluster.scheduler,
            nodes: props.nodes.map((n) => n.name),
          })
        : undefined,
      attestation: acceptance.attestation,
    };
    // Each node adds ~10 cdktf tokens; see token-stacks.ts for why their creation traces are skipped.
    this.nodes = withoutTokenStacks(() => props.nodes.map((n) => this.chain(n, settings)));
  }

  private chain(n: RackNode, c: ChainSettings): NodeChain {
    const id = (suffix: ChainSuffix) => logicalId(n.name, suffix);
    // The logical id is the construct id; cdktf allows renaming only before anything references the resource.
    const named = <T extends TerraformResource>(r: T): T => {
      r.overrideLogicalId(r.node.id);
      return r;
    };
    const pdu = c.pdus.get(n.pdu)!;
    const outlet = named(
      new PduOutlet(this, id("outlet"), {
        endpoint: pdu.endpoint,
        pduId: pdu.redfishId ?? pdu.name,
        outletId: String(n.outlet),
        powerState: "On",
      }),
    );
    const bmc = named(
      new Bmc(this, id("bmc"), {
        endpoint: bmcUrl(n.bmc),
        expected: c.flavor.toBmcExpected(n.macs),
        ...(n.systemId !== undefined ? { systemId: n.systemId } : {}),
        dependsOn: [outlet],
      }),
    );
    const firmware = firmwareStep(this, n, c.firmware, bmc);
    const dpus = dpuChain(this, n, c.flavor, bmc, firmware);
    // The host is enrolled only on its baseline firmware and once its DPUs run their mode and BFB.
    const before = [...(firmware ? [firmware] : []), ...dpus];
    const firstMac = Token.asString(bmc.interpolationForAttribute("macs[0]"));
    const machine = named(
      new Machine(this, id("machine"), {
        name: n.name,
        backend: c.backend.kind,
        bmcEndpoint: bmc.endpoint,
        macs: n.macs && n.macs.length > 0 ? [...n.macs] : [firstMac],
        ...c.backend.machineFields(),
        ...(before.length > 0 ? { dependsOn: before } : {}),
      }),
    );
    const rolling = c.member.maxUnavailable !== undefined;
    // A baseline change re-runs the gate inside the node's rolling update, which its member carries out.
    const firmwareRef = firmware ? { firmwareRef: firmware.ref } : {};
    const ladder = c.health;
    const deployment = named(
      new Deployment(this, id("deployment"), {
        machineId: machine.id,
        image: c.image,
        userData: c.userData,
        ...c.backend.deploymentFields(),
        // With a disruption budget, an image change is each node's rolling reimage, carried out by its member.
        ...(rolling ? { rolling: true } : {}),
        // With a health policy a Critical component on the BMC plans the node's next step on the ladder.
        ...(ladder ? { bmcHealth: ladderFindings(n, ladder, bmc, c), remediationSteps: ladder.remediationSteps } : {}),
        // No dependency on the image resource: the engines would order an image version bump after every node's
        // drain, which the disruption budget holds back — a deadlock. The provider orders the two itself: a deploy
        // waits for its image's upload in the same apply, an image's destroy for the nodes being torn down.
      }),
    );
    const acceptance = named(
      new Acceptance(this, id("acceptance"), {
        machineId: deployment.id,
        bmcGpuCount: bmc.gpuCount,
        // A component the BMC reports newly not OK re-runs the gate; one Critical fails it (quarantine).
        bmcHealth: bmc.health,
        ...c.gate,
        ...(rolling ? { imageRef: deployment.imageRef } : {}),
        // The gate runs again inside the step, and leaves Critical findings to the ladder.
        ...(ladder ? { remediation: deployment.remediation } : {}),
        ...(ladder?.evidenceMaxAge !== undefined ? { evidenceMaxAge: ladder.evidenceMaxAge } : {}),
        // The node's components attest through its BMC before it joins.
        ...(c.attestation ? { attestation: c.attestation.toAttestation(bmc.endpoint) } : {}),
        ...firmwareRef,
      }),
    );
    const member = named(
      new ClusterMember(this, id("member"), {
        scheduler: c.cluster.scheduler,
        nodeAttribute: n.name,
        gateId: acceptance.id,
        maxUnavailable: c.member.maxUnavailable,
        ...c.member.config,
        ...(rolling ? { imageRef: deployment.imageRef } : {}),
        // The member carries the step out within the budget: drain, the step, the gate, rejoin.
        ...(ladder ? { remediation: deployment.remediation } : {}),
        ...(ladder?.maxUnhealthy !== undefined ? { maxUnhealthy: ladder.maxUnhealthy } : {}),
        // Expired evidence: the gate's recheck, carried out on an idle node within the budget.
        ...(ladder?.evidenceMaxAge !== undefined ? { recheck: acceptance.recheck } : {}),
        ...firmwareRef,
      }),
    );
    return { name: n.name, outlet, bmc, firmware, dpus, machine, deployment, acceptance, member };
  }

  /** The chain of the node named `name`; throws when the rack has no such node. */
  chainOf(name: string): NodeChain {
    const chain = this.nodes.find((c) => c.name === name);
    if (!chain) throw new Error(`rack ${this.node.path} has no node ${JSON.stringify(name)}`);
    return chain;
  }
}

/** What walks a node down its ladder: its BMC's findings, the scheduler's, or both (HealthPolicy signals). */
function ladderFindings(n: RackNode, ladder: HealthSettings, bmc: Bmc, c: ChainSettings): IResolvable {
  const scheduler = c.schedulerHealth ? Fn.lookupNested(c.schedulerHealth.findings, [n.name]) : undefined;
  if (scheduler === undefined) return bmc.health;
  return Token.asAny(ladder.bmcSignal ? Fn.concat([bmc.health, scheduler]) : scheduler) as IResolvable;
}
