/**
 * What makes the lab one datacenter: a machine deployed by MAAS (Deployed) or Ironic (active) boots its OS, and after
 * the simulated boot its slurmd / kubelet register with the lab's Slurm and Kubernetes — when its cloud-init user data
 * asks for it (`rackform-join: slurm,kubernetes`). Released or torn-down machines leave again. Backend faults injected
 * into the world (commission-failure, deploy-failure, erase-failure) become failures of the backend operation.
 */

import type { BcmApi } from "../bcm/index.js";
import type { IronicApi, NodeRecord } from "../ironic/index.js";
import { type MaasApi, type MachineRecord, NodeStatus } from "../maas/index.js";
import type { KubernetesApi, SlurmApi } from "../scheduler/index.js";
import type { Clock } from "../time.js";
import type { WarewulfApi } from "../warewulf/index.js";
import { fallenGpus, osHung, unhealthyGpus } from "../world/health-faults.js";
import type { LabNode, World } from "../world/model.js";
import { nodeByBmcAddress, nodeByMac } from "./adapters.js";
import { kubeletRegistration, slurmRegistration } from "./registration.js";
import { ironicImageNames, maasImageNames, refusesImage } from "./secure-boot.js";
import { configDriveText, type JoinTarget, joinTargets, slurmdDynamic } from "./user-data.js";

export { type JoinTarget, joinTargets, slurmdDynamic } from "./user-data.js";

/** How often the lab looks at a joined node's host for its heartbeats (at least). */
const HEARTBEAT_TICK_MS = 50;
/** The shortest silence slurmctld or Kubernetes notice, whatever the profile. */
const MIN_SILENCE_MS = 150;

/**
 * When deployed nodes join: "marker" = only what the user data asks for with a `rackform-join:` line (the default, as
 * cloud-init is what configures slurmd or kubelet on a real node); "always" = both; "never" = none.
 */
export type JoinMode = "marker" | "always" | "never";

/** What the glue needs. */
export interface JoinDeps {
  readonly world: World;
  readonly clock: Clock;
  readonly maas?: MaasApi;
  readonly ironic?: IronicApi;
  readonly warewulf?: WarewulfApi;
  readonly slurm?: SlurmApi;
  readonly kubernetes?: KubernetesApi;
  readonly bcm?: BcmApi;
  readonly mode?: JoinMode;
}

interface Member {
  readonly name: string;
  readonly targets: JoinTarget[];
  readonly node: LabNode;
  readonly dynamic: boolean;
  registered: boolean;
  gone: boolean;
  /** The host power-on the running OS booted from (the world replaces it at every power-on, and at every cut). */
  bootedFrom?: LabNode["power"];
  /** Heartbeat state: since when the host is silent (off, or its OS hung), what the schedulers were told, when back. */
  silentSince?: number;
  slurmDown?: boolean;
  notReady?: boolean;
  backAt?: number;
  /** The GPU count slurmctld was last told when it fell short of slurm.conf (an XID 79), to drain only once per change. */
  gresLow?: number;
}

/** Wires status listeners of MAAS and Ironic to the world's faults and to the schedulers. */
export function wireJoins(deps: JoinDeps): void {
  const joins = new Joins(deps);
  wireMaas(deps, joins);
  wireIronic(deps, joins);
  wireWarewulf(deps, joins);
  wireBcm(deps, joins);
}

/** The nodes joined to the schedulers, keyed by backend and machine id; it boots, watches and removes them. */
class Joins {
  private readonly deps: JoinDeps;
  private readonly mode: JoinMode;
  private readonly members = new Map<string, Member>();
  /**
   * What slurmctld and the node lifecycle controller see of a joined node whose host stops running (powered off
   * through its BMC, or its outlet off): after SlurmdTimeout the node is DOWN "Not responding"; after the node monitor
   * grace period its Node's Ready condition is Unknown. A host whose OS hangs (an os-hang fault) stays On and is as
   * silent. Every power-on boots the OS again, however short the outage (a ForceRestart is never seen off): slurmd
   * registers at every start, as a real one does — the node stays DOWN until RESUMEd (ReturnToService=0), and a valid
   * registration clears INVALID_REG — and the kubelet posts Ready again; so does an OS whose hang ends without one.
   * One ticker looks at every joined node (no timer per node: a 1,000-node lab would otherwise wake thousands of times
   * a second); it runs while any node is joined.
   */
  private readonly beating = new Set<Member>();
  private ticking = false;

  constructor(deps: JoinDeps) {
    this.deps = deps;
    this.mode = deps.mode ?? "marker";
  }

  /** Whether a machine (by its key) has joined. */
  has(key: string): boolean {
    return this.members.has(key);
  }

  /** A machine's OS came up with this user data: it replaces what ran on the host and boots towards its schedulers. */
  join(key: string, name: string, node: LabNode, userData: string | undefined): void {
    this.leave(key);
    // One host runs one OS: a machine enrolled anew (another backend id) replaces what ran there before.
    for (const [k, m] of this.members) if (m.node === node) this.leave(k);
    const targets = this.targetsOf(userData);
    if (targets.length === 0) return;
    const m: Member = { name, targets, node, dynamic: slurmdDynamic(userData), registered: false, gone: false };
    this.members.set(key, m);
    void this.boot(m);
  }

  /** A machine's OS is gone: the schedulers lose the node if it had registered. */
  leave(key: string): void {
    const m = this.members.get(key);
    if (!m) return;
    this.members.delete(key);
    m.gone = true;
    if (!m.registered) return;
    if (m.targets.includes("slurm")) this.deps.slurm?.hooks.nodeLost(m.name);
    if (m.targets.includes("kubernetes")) this.deps.kubernetes?.hooks.deleteNode(m.name);
  }

  /** Which schedulers user data joins under the mode. */
  private targetsOf(userData: string | undefined): JoinTarget[] {
    return this.mode === "always" ? ["slurm", "kubernetes"] : this.mode === "never" ? [] : joinTargets(userData);
  }

  /** How long the OS takes to boot: a few host power-on times (the instant profile: none). */
  private bootMs(): number {
    return this.deps.world.time.duration("powerOnMs") * 5;
  }

  /** What the node's kubelet posts: its registration with the GPUs the host shows now. */
  private kubeletOf(m: Member) {
    return kubeletRegistration(m.node, this.configuredGpus(m));
  }

  /**
   * GPUs slurm.conf and the device plugin count on the node: those the host shows, and those fallen off the bus (the
   * configuration still lists them; slurmd and the device plugin report them missing or unhealthy).
   */
  private configuredGpus(m: Member): number {
    const { world } = this.deps;
    return world.visibleGpus(m.node).length + fallenGpus(world.faults.list(), m.node.spec.name).size;
  }

  /**
   * What slurmd and the NVIDIA device plugin make of the node's GPUs on each look: with a GPU fallen off the bus,
   * slurmd reports fewer GPUs than slurm.conf configures and slurmctld drains the node itself, worded as
   * gres_node_config_validate() words it; the device plugin's healthy count becomes the Node's allocatable GPUs.
   */
  private gpuHealth(m: Member): void {
    const { world, slurm, kubernetes } = this.deps;
    const faults = world.faults.list();
    const name = m.node.spec.name;
    const configured = this.configuredGpus(m);
    const reported = world.visibleGpus(m.node).length;
    if (m.targets.includes("slurm")) {
      if (reported < configured && m.gresLow !== reported) {
        slurm?.hooks.invalidRegistration(
          m.name,
          `gres/gpu count reported lower than configured (${reported} < ${configured})`,
        );
      }
      m.gresLow = reported < configured ? reported : undefined;
    }
    if (m.targets.includes("kubernetes") && m.node.spec.hardware.gpus) {
      const healthy = Math.max(0, configured - unhealthyGpus(faults, name).size);
      kubernetes?.hooks.devicesHealthy(m.name, "nvidia.com/gpu", healthy);
    }
  }

  /** Boots the OS once the host runs, then registers slurmd and kubelet and starts the heartbeat. */
  private async boot(m: Member): Promise<void> {
    const { clock } = this.deps;
    await clock.sleep(this.bootMs());
    // The backend powered the host on in the background; slurmd and kubelet start whenever it runs, however late (a
    // loaded host may take long: giving up would leave a deployed node that never joins). Timers are unref'd.
    for (let wait = 25; !m.gone && !this.running(m); wait = Math.min(wait * 2, 500)) {
      await clock.sleep(wait);
    }
    if (m.gone) return;
    m.registered = true;
    m.bootedFrom = m.node.power;
    const visible = this.configuredGpus(m);
    if (m.targets.includes("slurm"))
      this.deps.slurm?.hooks.registerNode(m.name, slurmRegistration(m.node, visible, m.dynamic));
    if (m.targets.includes("kubernetes"))
      this.deps.kubernetes?.hooks.registerNode(m.name, kubeletRegistration(m.node, visible));
    this.heartbeat(m);
  }

  /** Puts a node under the ticker's watch, starting the ticker if it is not running. */
  private heartbeat(m: Member): void {
    this.beating.add(m);
    if (!this.ticking) void this.ticker();
  }

  /** Looks at every watched node each tick while any is watched, dropping the ones that left. */
  private async ticker(): Promise<void> {
    const { world, clock } = this.deps;
    this.ticking = true;
    try {
      // Short outages (a reboot) go unnoticed, as a real timeout outlasts them; the lab's instant profile has none.
      const slurmTimeout = Math.max(world.time.duration("slurmdTimeoutMs"), MIN_SILENCE_MS);
      const grace = Math.max(world.time.duration("nodeMonitorGraceMs"), MIN_SILENCE_MS);
      const tick = Math.max(Math.min(slurmTimeout, grace) / 4, HEARTBEAT_TICK_MS);
      while (this.beating.size > 0) {
        await clock.sleep(tick);
        for (const m of this.beating) {
          if (m.gone) this.beating.delete(m);
          else this.beat(m, slurmTimeout, grace);
        }
      }
    } finally {
      this.ticking = false;
    }
  }

  /** Whether the node's OS runs: its host is On and the OS does not hang (a hung one answers nothing). */
  private running(m: Member): boolean {
    const { world } = this.deps;
    return world.powerState(m.node) === "On" && !osHung(world.faults.list(), m.node.spec.name);
  }

  /** One look at a node: a running host posts status or comes back after its boot; a silent one is noticed in time. */
  private beat(m: Member, slurmTimeout: number, grace: number): void {
    const now = this.deps.clock.now();
    if (this.running(m)) {
      this.beatRunning(m, now);
      return;
    }
    // Off again while booting: the boot starts over when power returns (a hung OS goes on booting once it resumes).
    if (this.deps.world.powerState(m.node) !== "On") m.backAt = undefined;
    m.silentSince ??= now;
    const silent = now - m.silentSince;
    if (!m.slurmDown && m.targets.includes("slurm") && silent >= slurmTimeout) {
      this.deps.slurm?.hooks.nodeLost(m.name);
      m.slurmDown = true;
    }
    if (!m.notReady && m.targets.includes("kubernetes") && silent >= grace) {
      this.deps.kubernetes?.hooks.kubeletPosting(m.name, false);
      m.notReady = true;
    }
  }

  /**
   * A look at a node whose host runs: the OS boots again after any power-on, else the kubelet posts its status. A
   * noticed OS hang that ends without a power-on (its fault removed by hand): slurmd answers again, which clears
   * NOT_RESPONDING ("Node … now responding"; the lab's slurmd registers, the node stays DOWN); the kubelet posts Ready.
   */
  private beatRunning(m: Member, now: number): void {
    const resumed = m.silentSince !== undefined && (m.slurmDown || m.notReady);
    m.silentSince = undefined;
    if (m.node.power !== m.bootedFrom) {
      m.bootedFrom = m.node.power; // powered on again since the OS booted (a cycle, a reset): it boots anew
      m.backAt = now + this.bootMs();
    } else if (resumed) m.backAt ??= now;
    if (m.backAt !== undefined) {
      if (now < m.backAt) return;
      m.backAt = undefined;
      this.registerAgain(m);
      return;
    }
    this.gpuHealth(m);
    // The kubelet's node status update: a Node deleted by hand stays gone (a running kubelet does not register
    // again); one an admin created again by that name gets its status.
    if (m.targets.includes("kubernetes")) this.deps.kubernetes?.hooks.kubeletStatusUpdate(m.name, this.kubeletOf(m));
  }

  /**
   * slurmd registers at every start: slurmctld keeps what it knew (scontrol's features too; a deleted dynamic node
   * comes back) and judges it afresh — INVALID_REG again only if GPUs still fall short. The kubelet posts Ready again.
   */
  private registerAgain(m: Member): void {
    const { slurm, kubernetes } = this.deps;
    if (m.targets.includes("slurm") && slurm) {
      const configured = this.configuredGpus(m);
      const known = slurm.hooks.node(m.name) !== undefined;
      const full = slurmRegistration(m.node, configured, m.dynamic);
      slurm.hooks.registerNode(m.name, known ? { gres: full.gres } : full);
      m.gresLow = undefined;
    }
    if (m.notReady) kubernetes?.hooks.kubeletPosting(m.name, true);
    m.slurmDown = m.notReady = false;
    this.gpuHealth(m);
  }
}

/** Takes a pending backend fault of this kind for the node, if it has one. */
function takeFault(
  world: World,
  kind: "commission-failure" | "deploy-failure" | "erase-failure",
  node: LabNode | undefined,
): boolean {
  return node !== undefined && world.faults.take(kind, { node: node.spec.name }) !== undefined;
}

// MAAS keeps the OS running while a deployed machine is tested or marked broken; anything else means it is gone.
const MAAS_UP = new Set<number>([
  NodeStatus.DEPLOYED,
  NodeStatus.TESTING,
  NodeStatus.FAILED_TESTING,
  NodeStatus.BROKEN,
]);

/** MAAS: faults fail commissioning, deploying and erasing; a Deployed machine joins, one no longer up leaves. */
function wireMaas(deps: JoinDeps, joins: Joins): void {
  const { world } = deps;
  deps.maas?.onStatusChange((m: Readonly<MachineRecord>, _from, to) => {
    const node = nodeByBmcAddress(world, m.powerParams.power_address);
    const key = `maas/${m.systemId}`;
    if (to === NodeStatus.COMMISSIONING && takeFault(world, "commission-failure", node))
      deps.maas?.failNext(m.systemId, "commission");
    const refused = (): boolean => refusesImage(world, node, maasImageNames(m));
    if (to === NodeStatus.DEPLOYING && (takeFault(world, "deploy-failure", node) || refused()))
      deps.maas?.failNext(m.systemId, "deploy");
    if (to === NodeStatus.DISK_ERASING && takeFault(world, "erase-failure", node))
      deps.maas?.failNext(m.systemId, "erase");
    if (to === NodeStatus.DEPLOYED && !joins.has(key) && node) {
      world.cure(node, "reimage");
      joins.join(key, m.hostname, node, m.userData?.toString("utf8"));
    } else if (!MAAS_UP.has(to)) joins.leave(key);
  });
}

/** Ironic: faults fail inspection, deployment and cleaning; a node deployed to active joins, one torn down leaves. */
function wireIronic(deps: JoinDeps, joins: Joins): void {
  const { world } = deps;
  deps.ironic?.onProvisionState((n: Readonly<NodeRecord>, from, to) => {
    const node = nodeByBmcAddress(world, String(n.driver_info.redfish_address ?? ""));
    const key = `ironic/${n.uuid}`;
    if (to === "inspecting" && takeFault(world, "commission-failure", node)) deps.ironic?.failNext(n.uuid, "inspect");
    const refused = (): boolean => refusesImage(world, node, ironicImageNames(n));
    if (to === "deploying" && (takeFault(world, "deploy-failure", node) || refused()))
      deps.ironic?.failNext(n.uuid, "deploy");
    // Automated cleaning (provide, tear-down) is where Ironic erases disks.
    if (to === "cleaning" && n.target_provision_state === "available" && takeFault(world, "erase-failure", node)) {
      deps.ironic?.failNext(n.uuid, "clean");
    }
    if (to === "active" && from === "deploying" && node) {
      world.cure(node, "reimage");
      joins.join(key, n.name ?? node.spec.name, node, configDriveText(n.instance_info.configdrive));
    } else if (to === "deleting" || to === "deploying") joins.leave(key);
  });
}

/**
 * Warewulf: a stateless node boots its image on every power-on; the runtime overlay (rendered from the node's tags,
 * where rackform keeps the cloud-init-style user data) is what starts slurmd or kubelet.
 */
function wireWarewulf(deps: JoinDeps, joins: Joins): void {
  const { world } = deps;
  deps.warewulf?.onRuntime((id, fields) => {
    const devs = (fields["network devices"] ?? {}) as Record<string, { hwaddr?: unknown }>;
    const node = nodeByMac(
      world,
      Object.values(devs).map((d) => String(d?.hwaddr ?? "")),
    );
    const tags = (fields.tags ?? {}) as Record<string, unknown>;
    const ud = typeof tags[WAREWULF_USER_DATA_TAG] === "string" ? (tags[WAREWULF_USER_DATA_TAG] as string) : "";
    // A quarantined node (rackform's tag) boots, but the site's overlay keeps slurmd and kubelet from starting.
    if (tags.rackform_quarantine) return joins.leave(`warewulf/${id}`);
    if (node) joins.join(`warewulf/${id}`, id, node, ud ? Buffer.from(ud, "base64").toString("utf8") : undefined);
  });
}

/**
 * BCM: the node-installer ran the finalize script (rackform's user data) and the node booted its image: UP. A new
 * install, a changed image or script, or a removed device means the OS that joined is gone.
 */
function wireBcm(deps: JoinDeps, joins: Joins): void {
  const { world } = deps;
  deps.bcm?.onStatus((d, _from, to) => {
    const node = nodeByBmcAddress(world, d.interfaces.find((i) => i.childType === "NetworkBmcInterface")?.ip);
    const key = `bcm/${d.uuid}`;
    if (to === "UP" && !joins.has(key) && node) {
      world.cure(node, "reimage");
      joins.join(key, d.hostname, node, d.finalizeScript);
    } else if (to === "INSTALLING" || to === "REMOVED" || to === "REDEFINED") joins.leave(key);
  });
}

/** The node tag holding base64 user data that the lab's runtime overlay reads (rackform's Warewulf adapter writes it). */
export const WAREWULF_USER_DATA_TAG = "rackform_user_data";
