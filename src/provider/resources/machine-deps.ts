/**
 * What rackform_machine's handlers use (`MachineDeps`), built from the configured provider by `machineDeps`, and the
 * small pieces the handlers in machine-create.ts and machine-ops.ts share. Tests hand fakes instead.
 */
import { isUnknownValue, path, timeoutMs, type Unknowable } from "../../framework/index.js";
import { type Backend, type BackendName, backendFor, type MachineFacts } from "../backends/index.js";
import type { DisruptionBudget } from "../budget/disruption-budget.js";
import type { DeployImages, ProviderData } from "../config/config.js";
import type { BackendSite } from "../errors/backend-errors.js";
import type { HostSightings } from "../shared/host-sightings.js";
import type { BmcCredentials, Fingerprints } from "./machine-credentials.js";
import type { MachinePlan, MachineState } from "./machine-schema.js";

/** What rackform_machine's handlers use. */
export interface MachineDeps {
  /** redfish.allow_http: plain http:// BMC endpoints are accepted (with a warning). */
  readonly allowHttp: boolean;
  /** The provider's redfish credentials, which the backend is handed to power the node. */
  readonly redfish: BmcCredentials;
  /** The backend `name` of this provider process; throws when the provider block does not configure it. */
  backend(name: BackendName): Backend;
  /** Fingerprints of the provider's BMC credentials (ProviderData.bmcFingerprints). */
  readonly fingerprints: Fingerprints;
  /** The provider's ironic deploy images; undefined when it names none. */
  readonly deployImages: DeployImages | undefined;
  /** Host power sightings: a refreshed machine links its id to its BMC. */
  readonly sightings: Pick<HostSightings, "link">;
  /** The disruption budget: a removed machine frees the drain slot its node held. */
  readonly budget: Pick<DisruptionBudget, "release">;
  /** How long a lost enrolment is given to land before the look-up that decides whether to enroll again. */
  readonly enrollRecheckMs: number;
}

/** How long a lost enrolment is given to land, unless the deps say otherwise. */
const ENROLL_RECHECK_MS = 5_000;

/** The deps of the configured provider. */
export function machineDeps(providerData: unknown): MachineDeps {
  const data = providerData as ProviderData;
  return {
    allowHttp: data.redfish.allowHttp,
    redfish: data.redfish,
    backend: (name) => backendFor(data, name),
    fingerprints: () => data.bmcFingerprints(),
    deployImages: data.backends.ironic?.deployImages,
    sightings: data.sightings,
    budget: data.budget,
    enrollRecheckMs: ENROLL_RECHECK_MS,
  };
}

/** Default bounds of each operation, unless the timeouts block says otherwise. */
export const DEFAULT_TIMEOUT_MS = { create: 60 * 60_000, read: 2 * 60_000, update: 2 * 60_000, delete: 30 * 60_000 };

type Op = keyof typeof DEFAULT_TIMEOUT_MS;

/** The bound of `op` for this machine. */
export function machineMs(m: MachinePlan | MachineState, op: Op): number {
  return timeoutMs({ timeouts: m.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
}

/** A machine selected by its name in the backend the `backend` attribute names. */
export const nameSite = (backend: BackendName, name: string): BackendSite => ({
  backend,
  what: `machine ${JSON.stringify(name)}`,
  selector: path("backend"),
  object: path("name"),
});

/** A value the apply leaves unknown is recorded as null (what the server does with an unknown in a new state). */
export function orNull<T>(v: Unknowable<T | null>): T | null {
  return isUnknownValue(v) ? null : v;
}

/** What a recorded machine holds besides the plan's (or state's) configured attributes. */
export interface Recorded {
  readonly facts: MachineFacts;
  readonly bmc_credentials_fingerprint: string | null;
  readonly deploy_kernel: string | null;
  readonly deploy_ramdisk: string | null;
  /** The name to record; the planned one unless given (read records the backend's). */
  readonly name?: string;
}

/** The state of a machine: the configured attributes of `v` (a plan or a state) with the backend's facts. */
export function machineState(v: MachinePlan | MachineState, backend: BackendName, r: Recorded): MachineState {
  return {
    id: `${backend}:${r.facts.id}`,
    name: r.name ?? v.name,
    backend: v.backend,
    bmc_endpoint: v.bmc_endpoint,
    macs: v.macs,
    architecture: orNull(v.architecture),
    resource_class: v.resource_class,
    machine_id: r.facts.id,
    bmc_credentials_fingerprint: r.bmc_credentials_fingerprint,
    deploy_kernel: r.deploy_kernel,
    deploy_ramdisk: r.deploy_ramdisk,
    status: r.facts.status,
    state: r.facts.state,
    timeouts: v.timeouts,
  };
}
