/**
 * The backend seam (after metal3's Provisioner): one interface that MAAS, Ironic and Warewulf implement, and that BCM
 * or xCAT adapters can implement next. Rules every adapter keeps:
 * - every method is safe to repeat: `find` before `enroll` is what makes a re-apply after a crash idempotent, and
 *   `commission` and `remove` drive the machine from whatever state they find it in;
 * - a long operation returns an Outcome (complete, or failed with the backend's own words) apart from transient errors,
 *   which are thrown as typed client errors (the resource maps them to diagnostics);
 * - secrets (BMC password, API key) never reach a message, log line or fact.
 */
import type { PollSpec } from "../../clients/http/poll.js";
import type { Logger } from "../../framework/index.js";

/** The backends rackform knows, as the user names them in `backend = "…"`. */
export const BACKEND_NAMES = ["maas", "ironic", "warewulf", "bcm"] as const;

/** A backend name. */
export type BackendName = (typeof BACKEND_NAMES)[number];

/**
 * A machine's lifecycle state, the same words for every backend (the adapters' tables map their own states):
 * enrolled = known but not commissioned; enrolling = the backend is checking its power credentials;
 * commissioning = commissioning, inspection, testing or cleaning; ready = commissioned and free;
 * allocated/deploying/deployed = taken by a deployment; releasing = on its way back to ready;
 * failed = the last operation failed; broken = taken out of service by hand; other = anything else (rescue, missing).
 */
export type MachineState =
  | "enrolled"
  | "enrolling"
  | "commissioning"
  | "ready"
  | "allocated"
  | "deploying"
  | "deployed"
  | "releasing"
  | "failed"
  | "broken"
  | "other";

/**
 * A host's power as a backend reports it; "denied" when the BMC answered but refused the backend's credentials (its
 * password was rotated, the backend not told yet): a fact about the credentials, not about the host's power.
 */
export type HostPower = "on" | "off" | "unknown" | "denied";

/** What identifies a node before it has a backend id: any match means "this machine is already enrolled". */
export interface NodeIdentity {
  /** Hostname (MAAS) or node name (Ironic). */
  readonly name: string;
  /** MAC addresses, lower case. */
  readonly macs: readonly string[];
  /** The BMC's Redfish address, e.g. https://10.0.0.5 (compared by origin). */
  readonly bmcAddress: string;
}

/** How the backend reaches the node's BMC: its address and the credentials it powers the node with. */
export interface PowerCredentials {
  /** The BMC's Redfish address, e.g. https://10.0.0.5. */
  readonly bmcAddress: string;
  readonly bmcUsername: string;
  readonly bmcPassword: string;
  /** Skip TLS verification of the BMC in the backend (the provider's redfish.insecure). */
  readonly bmcInsecure: boolean;
}

/** Everything enroll needs. The BMC password is passed here and in setPowerCredentials only. */
export interface EnrollSpec extends NodeIdentity, PowerCredentials {
  /** MAAS architecture, e.g. "amd64/generic". */
  readonly architecture: string;
  /** Ironic resource class (ignored by MAAS). */
  readonly resourceClass?: string;
}

/** Facts about one machine as the backend reports them now. */
export interface MachineFacts {
  /** MAAS system_id or Ironic node uuid. */
  readonly id: string;
  readonly name: string;
  readonly state: MachineState;
  /** The backend's own status name, e.g. "Failed commissioning" or "inspect failed". */
  readonly status: string;
  /** The backend's latest message about the status (MAAS status_message, Ironic last_error); "" when none. */
  readonly message: string;
  /** MAC addresses known to the backend, lower case, sorted. */
  readonly macs: readonly string[];
  /** "on", "off" or "unknown". */
  readonly power: string;
  /**
   * The deployed image as the backend reports it (see `imageLabel`): MAAS `osystem/distro_series`, Ironic
   * `<image_source> sha256:<hash>`; "" when nothing is deployed; undefined when the adapter did not read it.
   */
  readonly image?: string;
  /** Ironic: the deploy (IPA) kernel and ramdisk the node's driver_info names, when it names both. */
  readonly deployImages?: { readonly kernel: string; readonly ramdisk: string };
  /**
   * A mark of the machine's test results that changes whenever they may have (MAAS: the current testing script set
   * and its settled status); undefined when the backend has none or a test is still running. An unchanged mark lets
   * a refresh keep the gate's evidence it read before instead of reading the results again.
   */
  readonly testsMark?: string;
}

/** The golden image to deploy, and how each backend names it. */
export interface ImageSpec {
  readonly name: string;
  readonly version: string;
  /** Where the image is served (Ironic's image_source; MAAS deploys an uploaded boot resource instead). */
  readonly url?: string;
  /** sha256 of the image, 64 lower-case hex digits. */
  readonly sha256: string;
  /** MAAS osystem. @default "custom" */
  readonly osystem?: string;
  /** MAAS distro_series. @default `${name}-${version}` (the uploaded custom image) */
  readonly distroSeries?: string;
  /** Ironic deploy (IPA) kernel and ramdisk, written to driver_info when given. */
  readonly deployKernel?: string;
  readonly deployRamdisk?: string;
}

/** Options of deploy. */
export interface DeployOptions extends OperationOptions {
  readonly image: ImageSpec;
  /** Cloud-init user data (MAAS user_data, Ironic configdrive user_data). */
  readonly userData?: string;
}

/** Options of release. */
export interface ReleaseOptions extends OperationOptions {
  /** Erase the disks (MAAS release with erase); Ironic always undeploys through its automated cleaning. */
  readonly erase: boolean;
}

/** Thresholds the backend's own gate runs with (the provider checks the rest against the evidence). */
export interface AcceptanceParams {
  /** dcgmi diag level, 1–4. */
  readonly dcgmLevel: number;
  /** Burn-in duration as the gate reads it, e.g. "72h" or "1h30m". */
  readonly burnIn: string;
  /** Minimum NCCL all_reduce bus bandwidth; the gate's default (92 % of line rate rounded to 10 GB/s) when undefined. */
  readonly ncclMinBusbwGBps?: number;
}

/** Options of runAcceptance. */
export interface AcceptanceOptions extends OperationOptions {
  readonly params: AcceptanceParams;
}

/** The `rackform-acceptance/v1` document a gate run reports (parsed JSON; fields as the format names them). */
export type AcceptanceEvidence = Readonly<Record<string, unknown>>;

/** One run of the gate: the backend's outcome and the evidence it reported (undefined when it reported none). */
export interface AcceptanceRun {
  readonly outcome: Outcome;
  readonly evidence?: AcceptanceEvidence;
}

/** Prefix of the comment (MAAS) or maintenance reason (Ironic) rackform writes when it quarantines a machine. */
export const QUARANTINE_PREFIX = "rackform acceptance failed";

/** What the backend reports for `image` once deployed; comparing it with `facts.image` shows an out-of-band reimage. */
export function imageLabel(backend: BackendName, image: ImageSpec): string {
  if (backend === "maas") {
    return `${image.osystem ?? "custom"}/${image.distroSeries ?? `${image.name}-${image.version}`}`;
  }
  // Warewulf: the image of that name in Warewulf (imported from the image's docker:// url when missing).
  if (backend === "warewulf") return `${image.name}-${image.version}`.replace(/[^\w\-.:]/g, "_");
  // BCM names software images; rackform's is `<name>-<version>` (created on the head node before the deploy).
  if (backend === "bcm") return `${image.name}-${image.version}`;
  return `${withoutUserinfo(image.url ?? "")} sha256:${image.sha256.toLowerCase()}`;
}

/** A URL without its `user:password@` part (otherwise unchanged): what may be shown, e.g. in deployed_image. */
export function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, "$1");
}

/** An enrolled machine found by identity, and which parts of the identity matched. */
export interface FoundMachine {
  readonly facts: MachineFacts;
  readonly matchedBy: readonly ("name" | "mac" | "bmc")[];
}

/** The result of a long operation: it completed, or the backend reports that it failed (with its own words). */
export type Outcome =
  | {
      readonly kind: "complete";
      readonly facts: MachineFacts;
      /** A deploy found its own deployment already there (a re-apply after a crash): nothing booted the host now. */
      readonly found?: boolean;
    }
  | {
      readonly kind: "failed";
      readonly facts: MachineFacts;
      readonly message: string;
      /** What brings the machine back, when the backend knows better than "fix it, then apply again". */
      readonly fix?: string;
    };

/** How a long operation reports progress and learns that it must stop. */
export interface OperationOptions {
  readonly log: Logger;
  /** Aborted on timeout or StopProvider; the operation rejects soon after. */
  readonly signal: AbortSignal;
  /** Poll interval of status waits. @default the backend's (ProviderTimings.backendPollMs) */
  readonly pollMs?: PollSpec;
}

/** Several enrolled machines match one identity: rackform will not guess which one is meant. */
export class AmbiguousMachineError extends Error {
  override readonly name = "AmbiguousMachineError";
  readonly code = "RACKFORM_ERR_BACKEND_AMBIGUOUS";
  constructor(
    readonly backend: BackendName,
    readonly ids: readonly string[],
  ) {
    super(
      `${ids.length} ${backend} machines match this node's name, MACs or BMC address (${ids.join(", ")}); ` +
        "remove the duplicates in the backend or import the right one",
    );
  }
}

/** One bare-metal backend. Every method is safe to repeat. */
export interface Backend {
  readonly name: BackendName;
  /** The enrolled machine matching any of name, MACs or BMC address; undefined when none (throws when several). */
  find(identity: NodeIdentity, signal?: AbortSignal): Promise<FoundMachine | undefined>;
  /** Enrolls the machine with redfish power and returns its id; it does not commission. */
  enroll(spec: EnrollSpec, signal?: AbortSignal): Promise<string>;
  /** Drives the machine from any state to commissioned and free (MAAS Ready, Ironic available). */
  commission(id: string, o: OperationOptions): Promise<Outcome>;
  /** The machine's facts now; undefined when the backend no longer has it. */
  read(id: string, signal?: AbortSignal): Promise<MachineFacts | undefined>;
  /** Releases or undeploys the machine if needed, then deletes it; an absent machine counts as removed. */
  remove(id: string, o: OperationOptions): Promise<void>;
  /**
   * Deploys the image onto a commissioned machine and waits until it is deployed (MAAS Deployed, Ironic active).
   * A machine already deployed with the same image completes at once; one deploying is waited for.
   */
  deploy(id: string, o: DeployOptions): Promise<Outcome>;
  /**
   * Releases (MAAS, erasing disks when asked) or undeploys (Ironic, with cleaning) a deployed machine and waits until
   * it is free again; a free machine completes at once; undefined when the backend no longer has the machine.
   */
  release(id: string, o: ReleaseOptions): Promise<Outcome | undefined>;
  /**
   * Runs the acceptance gate (MAAS testing script `rackform-acceptance`, Ironic service step
   * `deploy.rackform_acceptance`) and waits for it. A machine rackform quarantined earlier is returned to service
   * first (a re-run is the way back), and so is one taken out of service by hand (MAAS Broken, Ironic
   * maintenance): the configuration says the node serves, and the gate decides; a failing node is quarantined again.
   */
  runAcceptance(id: string, o: AcceptanceOptions): Promise<AcceptanceRun>;
  /** The evidence of the latest gate run, read without running anything; undefined when there is none. */
  lastAcceptance(id: string, signal?: AbortSignal): Promise<AcceptanceEvidence | undefined>;
  /**
   * The host's power as the backend can tell it now: MAAS asks the BMC (op=query_power_state), Ironic reports the
   * power_state its conductor keeps in sync. "unknown" when the backend cannot tell (BMC unreachable or unpowered).
   */
  powerState(id: string, signal?: AbortSignal): Promise<HostPower>;
  /** Powers the host of a machine on through the backend and waits until the backend reports it on; repeat-safe. */
  powerOn(id: string, o: OperationOptions): Promise<void>;
  /**
   * Power cycles the host through the backend (off, then on; the remediation ladder's first step) and waits until
   * the backend reports it on again: MAAS op=power_off then op=power_on, Ironic's "rebooting" target, BCM's power
   * reset, Warewulf through the node's BMC. A host found off is powered on.
   */
  powerCycle(id: string, o: OperationOptions): Promise<void>;
  /**
   * Gives the backend the BMC's address and credentials for the machine's power calls (MAAS power parameters,
   * Ironic driver_info, BCM's rf0 interface and bmcSettings, Warewulf's ipmi block), e.g. after the BMC's password
   * was rotated or the BMC re-addressed; nothing else of the machine changes; repeat-safe.
   */
  setPowerCredentials(id: string, creds: PowerCredentials, signal?: AbortSignal): Promise<void>;
  /**
   * Ironic only: writes the provider's deploy (IPA) kernel and ramdisk into the node's driver_info when it names
   * others; nothing when the provider names none. The node must not be in a transition; repeat-safe.
   */
  setDeployImages?(id: string, signal?: AbortSignal): Promise<void>;
  /**
   * Marks the machine with `mark` (the offer of a health remedy, once carried out), where a later process reads it
   * with lastRemedy: MAAS owner data, Ironic extra, a Warewulf tag, a line of BCM's notes (remedy-marks.ts); repeat-safe.
   */
  noteRemedy(id: string, mark: string, signal?: AbortSignal): Promise<void>;
  /** The mark noteRemedy left last on the machine; undefined when none (or MAAS released it since). */
  lastRemedy(id: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Takes the machine out of service with `reason` (MAAS mark_broken, Ironic maintenance); repeat-safe. */
  quarantine(id: string, reason: string, signal?: AbortSignal): Promise<void>;
  /**
   * Ends rackform's own quarantine (reason starting with QUARANTINE_PREFIX: MAAS mark_fixed from Broken and its
   * description note cleared, Ironic maintenance off) when its gate is destroyed; a machine taken out of service by
   * hand, or held by the backend itself (MAAS Failed testing, Ironic's power-failure maintenance), is left alone. False when there was none to lift
   * (or the machine is gone); repeat-safe.
   */
  liftQuarantine(id: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * Whether the backend still holds the image a deployment runs, for a warning at plan time (MAAS: a complete
   * boot resource of that name, from one boot-resource list shared by every read of a plan). Absent on a backend
   * that deploys from a URL (Ironic): the deployment asks the image server itself.
   */
  imageAvailable?(image: ImageSpec, signal?: AbortSignal): Promise<boolean>;
}

/** Parses a gate document (JSON text or object); undefined unless it is a `rackform-acceptance/v1` document. */
export function parseEvidence(v: unknown): AcceptanceEvidence | undefined {
  let o = v;
  if (typeof v === "string") {
    try {
      o = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (o === null || typeof o !== "object" || Array.isArray(o)) return undefined;
  return (o as Record<string, unknown>).format === "rackform-acceptance/v1" ? (o as AcceptanceEvidence) : undefined;
}

/** Lower-case, colon-separated MAC ("AA-BB-…" → "aa:bb:…"). */
export function normalMac(mac: string): string {
  return mac.trim().toLowerCase().replaceAll("-", ":");
}

/** The origin of a BMC address ("10.0.0.5" → "https://10.0.0.5"), for comparing addresses written differently. */
export function bmcOrigin(address: string): string {
  const a = address.trim();
  try {
    return new URL(/^https?:\/\//i.test(a) ? a : `https://${a}`).origin;
  } catch {
    return a.toLowerCase();
  }
}

/** Picks the one machine among candidates (by id), throwing when several distinct machines match. */
export function pickOne(
  backend: BackendName,
  candidates: readonly { readonly facts: MachineFacts; readonly matchedBy: FoundMachine["matchedBy"] }[],
): FoundMachine | undefined {
  const byId = new Map<string, FoundMachine>();
  for (const c of candidates) {
    const prior = byId.get(c.facts.id);
    byId.set(c.facts.id, prior ? { facts: c.facts, matchedBy: [...prior.matchedBy, ...c.matchedBy] } : c);
  }
  if (byId.size > 1) throw new AmbiguousMachineError(backend, [...byId.keys()]);
  return byId.values().next().value;
}
