/**
 * What the live reads of `rackform watch` mean for a node's stage: the backend's own status (MAAS, Ironic, BCM,
 * Warewulf) and the scheduler's view (Slurm drain flags, a Kubernetes cordon), combined with what state records.
 * State lags (an apply writes it as resources complete, the pg backend only every 20 s or so), so a backend that
 * reports a machine in motion is believed over state, and a scheduler that reports a node drained is believed over a
 * member state still records as joined.
 */
import { PATH, type Stage, type StageReading } from "./stages.js";

/** What a backend reports about one machine now. */
export interface BackendReading {
  readonly backend: "maas" | "ironic" | "bcm" | "warewulf";
  /** MAAS status name ("Commissioning"), Ironic provision state ("clean wait"), BCM device status ("INSTALLING"), Warewulf's rackform_state tag. */
  readonly status: string;
  /** Ironic maintenance, a closed BCM device, a Warewulf node rackform quarantined. */
  readonly maintenance?: boolean;
  /** MAAS: the machine has an owner (allocated or deployed): its "Testing" is a deployed machine's gate, not commissioning. */
  readonly owned?: boolean;
  /** MAAS status message, Ironic last_error or maintenance reason, BCM user message. */
  readonly message?: string;
}

/** What the scheduler reports about one node now. */
export interface SchedulerReading {
  readonly scheduler: "slurm" | "kubernetes";
  /** Slurm's state words ("IDLE+DRAIN"), or "cordoned", "NotReady" for Kubernetes. */
  readonly state: string;
  /** Slurm DRAIN flag (draining or drained), Kubernetes cordon (spec.unschedulable). */
  readonly drain: boolean;
  /** Takes no work for another reason: Slurm DOWN or FAIL, a Kubernetes node not Ready. */
  readonly down: boolean;
}

const MAAS_STAGE: Readonly<Record<string, Stage>> = {
  New: "enrolled",
  Commissioning: "commissioning",
  Testing: "commissioning",
  Ready: "ready",
  Allocated: "deploying",
  Deploying: "deploying",
  Deployed: "deployed",
  Releasing: "releasing",
  "Disk erasing": "releasing",
  "Failed commissioning": "failed",
  "Failed testing": "failed",
  "Failed deployment": "failed",
  "Failed releasing": "failed",
  "Failed disk erasing": "failed",
  Broken: "quarantined",
};

const IRONIC_STAGE: Readonly<Record<string, Stage>> = {
  enroll: "enrolled",
  verifying: "enrolled",
  manageable: "enrolled",
  inspecting: "commissioning",
  "inspect wait": "commissioning",
  cleaning: "commissioning",
  "clean wait": "commissioning",
  available: "ready",
  deploying: "deploying",
  "wait call-back": "deploying",
  "deploy wait": "deploying",
  active: "deployed",
  servicing: "testing",
  "service wait": "testing",
  deleting: "releasing",
  undeploying: "releasing",
  "deploy failed": "failed",
  "clean failed": "failed",
  "inspect failed": "failed",
  "service failed": "failed",
  error: "failed",
};

/** BCM device statuses (cmdaemon's words); the node-installer's are INSTALLING and INSTALLER_*. */
const BCM_STAGE: Readonly<Record<string, Stage>> = {
  UP: "deployed",
  INSTALLING: "deploying",
  INSTALLER_REBOOTING: "deploying",
  INSTALLER_CALLINGINIT: "deploying",
  INSTALLER_UNREACHABLE: "deploying",
  INSTALLER_BURNING: "testing",
  INSTALLER_FAILED: "failed",
  CLOSED: "quarantined",
};

/** rackform's own state tag on a Warewulf node (Warewulf keeps no lifecycle of its own). */
const WAREWULF_STAGE: Readonly<Record<string, Stage>> = {
  "": "ready",
  deploying: "deploying",
  deployed: "deployed",
  failed: "failed",
};

const TABLES = { maas: MAAS_STAGE, ironic: IRONIC_STAGE, bcm: BCM_STAGE, warewulf: WAREWULF_STAGE } as const;

const rank = (s: Stage) => PATH.indexOf(s);
const trouble = (s: Stage) => s === "failed" || s === "quarantined";
/** Stages in which the backend is working on the machine: nothing state recorded is more current. */
const IN_MOTION = new Set<Stage>(["commissioning", "deploying", "testing", "releasing"]);

/**
 * The stage a backend's status means, or undefined for a status that says nothing of the node's progress. `recorded`
 * (what state holds) tells apart the words a backend uses twice: MAAS "Testing" of an owned (deployed) machine is its
 * acceptance gate; Ironic cleaning of a machine state already holds (enrolled and commissioned) is the disk erase of
 * a release.
 */
export function liveStage(r: BackendReading, recorded?: Stage): StageReading | undefined {
  if (r.maintenance && r.backend !== "maas") return { stage: "quarantined", detail: r.message || "maintenance" };
  let stage = TABLES[r.backend][r.status];
  if (!stage) return undefined;
  if (r.backend === "maas" && r.status === "Testing" && r.owned) stage = "testing";
  if (r.backend === "ironic" && stage === "commissioning" && r.status.startsWith("clean") && recorded) {
    if (rank(recorded) >= rank("ready") || recorded === "draining") stage = "releasing";
  }
  if (trouble(stage)) return { stage, detail: r.message || r.status };
  return stage === "releasing" ? { stage, detail: r.status } : { stage };
}

/** The scheduler's word when it takes the node out of service (drained, cordoned, down), else undefined. */
export function stageFromScheduler(r: SchedulerReading): StageReading | undefined {
  if (r.drain || r.down) return { stage: "draining", detail: `${r.scheduler} reports ${r.state}` };
  return undefined;
}

/**
 * Backends whose status shows a deployed machine's gate tests running (MAAS Testing of an owned machine, Ironic
 * servicing): their "deployed" during a gate means the tests are over. BCM and Warewulf run the gate without a
 * status of its own.
 */
const GATE_SHOWN = new Set<BackendReading["backend"]>(["maas", "ironic"]);

/** State and the backend together (see nodeStage); `gateShown`: the backend's status shows the gate's tests. */
function withBackend(recorded: StageReading, live: StageReading | undefined, gateShown: boolean): StageReading {
  if (!live) return recorded;
  // The backend cannot see past "deployed": the gate, the scheduler and an outlet switched off are state's to tell.
  if (live.stage === "deployed") {
    // A gate that attests runs its tests first, then asks the node's BMC for its components' signed measurements:
    // where the backend shows the tests (gateShown), the machine deployed and idle while state has not recorded the
    // gate is that step.
    if (recorded.attests && gateShown) return { stage: "attesting" };
    const before = rank(recorded.stage) >= 0 && rank(recorded.stage) < rank("deployed") && recorded.stage !== "off";
    return before ? live : recorded;
  }
  // State's own failure carries the evidence (a failed gate's measurements) the backend's word for it lacks.
  if (trouble(live.stage)) return trouble(recorded.stage) ? recorded : live;
  // A machine the backend is working on, or has released (Ready) or never finished enrolling: that is where it is,
  // whatever state last recorded (a joined node being reimaged shows releasing, then deploying, then testing).
  if (IN_MOTION.has(live.stage)) return live;
  // Enrolled or Ready: news unless state holds a failure or an outlet switched off that explains it better.
  return trouble(recorded.stage) || recorded.stage === "off" ? recorded : live;
}

/**
 * A node's stage from what state recorded, what its backend reports and what its scheduler reports: a backend
 * working on the machine wins (state lags); a backend's trouble wins unless state holds the failure with its evidence;
 * a machine the backend reports deployed and idle while its gate, which attests, runs is attesting;
 * a node state calls joined (or unhealthy) is draining when its scheduler has it drained, draining, cordoned or down.
 */
export function nodeStage(
  recorded: StageReading,
  backend?: BackendReading,
  scheduler?: SchedulerReading,
): StageReading {
  const live = backend ? liveStage(backend, recorded.stage) : undefined;
  const now = withBackend(recorded, live, backend !== undefined && GATE_SHOWN.has(backend.backend));
  if ((now.stage === "joined" || now.stage === "unhealthy") && scheduler) return stageFromScheduler(scheduler) ?? now;
  return now;
}
