/**
 * The MAAS adapter of the backend seam: a machine with redfish power, commissioned to Ready.
 * Finding is by hostname and MAC over the one shared machine list (MAAS lists no power addresses; reading them
 * would mean fetching every machine's BMC password, so the BMC address is not compared here).
 */

import { isNotFound, unlessNotFound } from "../../clients/classify.js";
import type { PollSpec } from "../../clients/http/poll.js";
import { SharedList } from "../../clients/http/shared-list.js";
import {
  MAAS_FAILED_STATUSES,
  MAAS_SCRIPT_SETTLED_STATUSES,
  MAAS_STATUS,
  type MaasBootResource,
  type MaasClient,
  MaasError,
  type MaasMachine,
} from "../../clients/maas/index.js";
import { DEFAULT_TIMINGS } from "../config/timings.js";
import {
  type AcceptanceEvidence,
  type AcceptanceOptions,
  type AcceptanceRun,
  type Backend,
  type DeployOptions,
  type EnrollSpec,
  type FoundMachine,
  type HostPower,
  type ImageSpec,
  type MachineFacts,
  type MachineState,
  type NodeIdentity,
  normalMac,
  type OperationOptions,
  type Outcome,
  type PowerCredentials,
  pickOne,
  QUARANTINE_PREFIX,
  type ReleaseOptions,
} from "./backend.js";
import { AFTER_TEST, type MaasAcceptance, TESTABLE } from "./maas-acceptance.js";
import { maasPowerCycle, maasPowerOn, maasPowerState } from "./power.js";
import { maasLastRemedy, maasNoteRemedy } from "./remedy-marks.js";

/** How long one boot-resource list answers whether a deployment's image is still there. */
const BOOT_RESOURCE_LIST_MAX_AGE_MS = 60_000;

/** MAAS status id → normalized state (ids of src/maascommon/enums/node.py NodeStatus). */
export const MAAS_STATE_TABLE: Readonly<Record<number, MachineState>> = {
  [MAAS_STATUS.NEW]: "enrolled",
  [MAAS_STATUS.COMMISSIONING]: "commissioning",
  [MAAS_STATUS.FAILED_COMMISSIONING]: "failed",
  [MAAS_STATUS.MISSING]: "other",
  [MAAS_STATUS.READY]: "ready",
  [MAAS_STATUS.RESERVED]: "allocated",
  [MAAS_STATUS.DEPLOYED]: "deployed",
  [MAAS_STATUS.RETIRED]: "other",
  [MAAS_STATUS.BROKEN]: "broken",
  [MAAS_STATUS.DEPLOYING]: "deploying",
  [MAAS_STATUS.ALLOCATED]: "allocated",
  [MAAS_STATUS.FAILED_DEPLOYMENT]: "failed",
  [MAAS_STATUS.RELEASING]: "releasing",
  [MAAS_STATUS.FAILED_RELEASING]: "failed",
  [MAAS_STATUS.DISK_ERASING]: "releasing",
  [MAAS_STATUS.FAILED_DISK_ERASING]: "failed",
  [MAAS_STATUS.RESCUE_MODE]: "other",
  [MAAS_STATUS.ENTERING_RESCUE_MODE]: "other",
  [MAAS_STATUS.FAILED_ENTERING_RESCUE_MODE]: "failed",
  [MAAS_STATUS.EXITING_RESCUE_MODE]: "other",
  [MAAS_STATUS.FAILED_EXITING_RESCUE_MODE]: "failed",
  [MAAS_STATUS.TESTING]: "commissioning",
  [MAAS_STATUS.FAILED_TESTING]: "failed",
};

/** Statuses from which commissioning again is the repair (MAAS allows commission from them). */
const RECOMMISSION: ReadonlySet<number> = new Set([
  MAAS_STATUS.NEW,
  MAAS_STATUS.FAILED_COMMISSIONING,
  MAAS_STATUS.FAILED_TESTING,
]);
/** Statuses that are past Ready: the machine was commissioned and a deployment took it. */
const PAST_READY: ReadonlySet<number> = new Set([
  MAAS_STATUS.READY,
  MAAS_STATUS.ALLOCATED,
  MAAS_STATUS.RESERVED,
  MAAS_STATUS.DEPLOYING,
  MAAS_STATUS.DEPLOYED,
]);
/** Statuses a machine is released from before it is deleted. */
const RELEASE_FIRST: ReadonlySet<number> = new Set([
  MAAS_STATUS.ALLOCATED,
  MAAS_STATUS.RESERVED,
  MAAS_STATUS.DEPLOYED,
  MAAS_STATUS.FAILED_DEPLOYMENT,
]);
/** Statuses release (with or without erase) starts from; MAAS refuses it elsewhere. */
const RELEASABLE: ReadonlySet<number> = new Set([
  MAAS_STATUS.ALLOCATED,
  MAAS_STATUS.RESERVED,
  MAAS_STATUS.DEPLOYING,
  MAAS_STATUS.DEPLOYED,
  MAAS_STATUS.FAILED_DEPLOYMENT,
  MAAS_STATUS.FAILED_RELEASING,
  MAAS_STATUS.FAILED_DISK_ERASING,
  MAAS_STATUS.BROKEN,
]);
const STOP_WAITING = [...MAAS_FAILED_STATUSES, MAAS_STATUS.BROKEN];
// The resource bounds every operation with its own timeout through the signal; this only keeps the client from
// stopping first with its 30-minute default.
const FOREVER_MS = 30 * 86_400_000;

function facts(m: MaasMachine): MachineFacts {
  return {
    id: m.systemId,
    name: m.hostname,
    state: MAAS_STATE_TABLE[m.status] ?? "other",
    status: m.statusName,
    message: m.statusMessage,
    macs: [...new Set(m.macAddresses.map(normalMac))].sort(),
    power: m.powerState === "on" || m.powerState === "off" ? m.powerState : "unknown",
    image: m.osystem ? `${m.osystem}/${m.distroSeries}` : "",
    testsMark:
      m.testing && MAAS_SCRIPT_SETTLED_STATUSES.has(m.testing.status)
        ? `${m.testing.resultId}:${m.testing.status}`
        : undefined,
  };
}

/** A Backend over one MAAS region. */
export class MaasBackend implements Backend {
  readonly name = "maas" as const;
  /** `acceptance` reaches what MaasClient lacks for the gate (script parameters, result output). */
  private readonly pollMs: PollSpec;

  private readonly bootResources: SharedList<MaasBootResource>;

  constructor(
    private readonly client: MaasClient,
    private readonly acceptance: MaasAcceptance,
    opts: { readonly pollMs?: PollSpec } = {},
  ) {
    this.pollMs = opts.pollMs ?? DEFAULT_TIMINGS.backendPollMs;
    // One boot-resource list serves every deployment read of a plan (a provider process lives one plan or apply).
    this.bootResources = new SharedList(() => this.client.catalog.listBootResources(), {
      maxAgeMs: BOOT_RESOURCE_LIST_MAX_AGE_MS,
    });
  }

  async imageAvailable(image: ImageSpec, signal?: AbortSignal): Promise<boolean> {
    signal?.throwIfAborted();
    const osystem = image.osystem ?? "custom";
    const wanted = `${osystem}/${image.distroSeries ?? `${image.name}-${image.version}`}`;
    // An uploaded image may be listed with or without its "custom/" prefix.
    const named = (n: string) => (n.includes("/") ? n : `custom/${n}`);
    return (await this.bootResources.all()).some((b) => named(b.name) === wanted);
  }

  async find(identity: NodeIdentity): Promise<FoundMachine | undefined> {
    const list = await this.client.machines.all({ fresh: true });
    const macs = new Set(identity.macs.map(normalMac));
    const candidates = [];
    for (const m of list) {
      const matchedBy: FoundMachine["matchedBy"][number][] = [];
      if (m.hostname === identity.name) matchedBy.push("name");
      if (m.macAddresses.some((x) => macs.has(normalMac(x)))) matchedBy.push("mac");
      if (matchedBy.length > 0) candidates.push({ facts: facts(m), matchedBy });
    }
    return pickOne("maas", candidates);
  }

  async enroll(spec: EnrollSpec, signal?: AbortSignal): Promise<string> {
    const m = await this.client.createMachine(
      {
        hostname: spec.name,
        architecture: spec.architecture,
        macAddresses: spec.macs,
        power: { powerAddress: spec.bmcAddress, powerUser: spec.bmcUsername, powerPass: spec.bmcPassword },
        // Commissioning is its own step so that a crash between the two is resumed by commission().
        commission: false,
      },
      signal,
    );
    return m.systemId;
  }

  async setPowerCredentials(id: string, c: PowerCredentials, signal?: AbortSignal): Promise<void> {
    // The whole redfish parameter set, as at enlistment (MAAS validates the set against the power type).
    await this.client.updateMachine(
      id,
      { power: { powerAddress: c.bmcAddress, powerUser: c.bmcUsername, powerPass: c.bmcPassword } },
      signal,
    );
  }

  async commission(id: string, o: OperationOptions): Promise<Outcome> {
    const m = await this.client.getMachine(id, o.signal);
    if (PAST_READY.has(m.status)) return { kind: "complete", facts: facts(m) };
    if (RECOMMISSION.has(m.status)) {
      o.log.info("commissioning the machine in MAAS", {
        backend: "maas",
        id,
        hostname: m.hostname,
        from: m.statusName,
      });
      await this.client.commission(id);
    } else if (m.status !== MAAS_STATUS.COMMISSIONING && m.status !== MAAS_STATUS.TESTING) {
      return {
        kind: "failed",
        facts: facts(m),
        message: `the machine is ${m.statusName}${m.statusMessage ? ` (${m.statusMessage})` : ""}; rackform only commissions machines that are New or failed commissioning or testing`,
      };
    }
    return this.waitReady(id, o);
  }

  async read(id: string, signal?: AbortSignal): Promise<MachineFacts | undefined> {
    // The shared list serves every machine of a plan with one request; a miss is checked directly.
    const listed = await this.client.machines.get(id);
    if (listed) return facts(listed);
    const m = await unlessNotFound(this.client.getMachine(id, signal));
    return m && facts(m);
  }

  async remove(id: string, o: OperationOptions): Promise<void> {
    let m: MaasMachine;
    try {
      m = await this.client.getMachine(id, o.signal);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (RELEASE_FIRST.has(m.status)) {
      o.log.info("releasing the machine before deleting it", { backend: "maas", id, from: m.statusName });
      await this.client.release(id, { comment: "rackform: destroying rackform_machine" });
      const out = await this.waitReady(id, o);
      if (out.kind === "failed") throw new MaasError("RACKFORM_ERR_MAAS_STATUS_FAILED", out.message);
    }
    o.log.info("deleting the machine from MAAS", { backend: "maas", id, hostname: m.hostname });
    await this.client.deleteMachine(id, o.signal);
  }

  async deploy(id: string, o: DeployOptions): Promise<Outcome> {
    const m = await this.client.getMachine(id, o.signal);
    const osystem = o.image.osystem ?? "custom";
    const distroSeries = o.image.distroSeries ?? `${o.image.name}-${o.image.version}`;
    const wanted = `${osystem}/${distroSeries}`;
    const f = facts(m);
    if (m.status === MAAS_STATUS.DEPLOYED || m.status === MAAS_STATUS.DEPLOYING) {
      // A re-apply after a crash finds its own deployment; any other image was put there by someone else.
      if (f.image !== wanted) {
        return { kind: "failed", facts: f, message: `the machine is ${m.statusName} with ${f.image}, not ${wanted}` };
      }
      if (m.status === MAAS_STATUS.DEPLOYED) return { kind: "complete", facts: f, found: true };
    } else if (m.status === MAAS_STATUS.READY || m.status === MAAS_STATUS.ALLOCATED) {
      o.log.info("deploying the machine in MAAS", { backend: "maas", id, hostname: m.hostname, image: wanted });
      await this.client.deploy(id, { osystem, distroSeries, userData: o.userData });
    } else {
      return {
        kind: "failed",
        facts: f,
        message: `the machine is ${m.statusName}${m.statusMessage ? ` (${m.statusMessage})` : ""}; rackform deploys only Ready or Allocated machines`,
      };
    }
    return this.waitFor(id, MAAS_STATUS.DEPLOYED, o);
  }

  async release(id: string, o: ReleaseOptions): Promise<Outcome | undefined> {
    let m = await unlessNotFound(this.client.getMachine(id, o.signal));
    if (!m) return undefined;
    if (m.status === MAAS_STATUS.READY) return { kind: "complete", facts: facts(m) };
    if (m.status === MAAS_STATUS.FAILED_TESTING) {
      // MAAS releases no machine in Failed testing (e.g. one rackform's gate quarantined); Broken it releases.
      o.log.info("marking the machine broken so MAAS can release it", { backend: "maas", id, from: m.statusName });
      m = await this.client.markBroken(id, "rackform: releasing a machine that failed its tests");
    }
    if (RELEASABLE.has(m.status)) {
      o.log.info("releasing the machine", { backend: "maas", id, from: m.statusName, erase: o.erase });
      await this.client.release(id, { erase: o.erase, comment: "rackform: destroying rackform_deployment" });
    } else if (m.status !== MAAS_STATUS.RELEASING && m.status !== MAAS_STATUS.DISK_ERASING) {
      return {
        kind: "failed",
        facts: facts(m),
        message: `the machine is ${m.statusName}; rackform releases only allocated, deployed or failed machines`,
      };
    }
    const out = await this.waitReady(id, o);
    const powerFailed = /^Power (on|off) for the node failed/.test(out.kind === "failed" ? out.facts.message : "");
    if (out.kind === "failed" && powerFailed) {
      // MAAS powers a machine off to release it, on to erase it: a silent BMC ends here, and MAAS releases from here.
      const name = out.facts.name || id;
      return {
        ...out,
        fix: `check ${name}'s BMC (MAAS could not power it ${o.erase ? "on to erase its disks" : "off"}: its PDU outlet on, its network reachable); MAAS releases a machine in ${out.facts.status} again, so apply again once it answers.`,
      };
    }
    return out;
  }

  async runAcceptance(id: string, o: AcceptanceOptions): Promise<AcceptanceRun> {
    const gate = this.gate();
    let m = await this.client.getMachine(id, o.signal);
    if (m.status === MAAS_STATUS.BROKEN) {
      // Re-running the gate is the way back into service, whoever took the machine out: the configuration says the
      // node serves, and the gate decides (a failing node is quarantined again, with the gate's evidence).
      const byHand = !m.statusMessage.startsWith(QUARANTINE_PREFIX);
      const why = byHand ? `marked Broken by hand (${m.statusMessage || "no comment"})` : "quarantined by rackform";
      o.log.warn(`machine ${id} was ${why}: running the acceptance gate to return it to service`, {
        backend: "maas",
        id,
      });
      m = await this.client.markFixed(id, `rackform: ${why}; running the acceptance gate to return it to service`);
    }
    if (m.status !== MAAS_STATUS.TESTING) {
      if (!TESTABLE.has(m.status)) {
        const message = `the machine is ${m.statusName}; the gate runs on Ready or Deployed machines`;
        return { outcome: { kind: "failed", facts: facts(m), message } };
      }
      o.log.info("running the acceptance gate in MAAS", { backend: "maas", id, params: o.params });
      await gate.start(id, o.params, o.signal);
    }
    const outcome = await this.waitFor(id, AFTER_TEST, o);
    if (outcome.kind === "complete" && m.description.startsWith(QUARANTINE_PREFIX)) {
      // The gate passed again: take rackform's quarantine note off the machine.
      await this.client.updateMachine(id, { description: "" }, o.signal);
    }
    return { outcome, evidence: await gate.last(id, o.signal) };
  }

  lastAcceptance(id: string, signal?: AbortSignal): Promise<AcceptanceEvidence | undefined> {
    return this.gate().last(id, signal);
  }

  noteRemedy(id: string, mark: string, signal?: AbortSignal): Promise<void> {
    return maasNoteRemedy(this.client, id, mark, signal);
  }

  lastRemedy(id: string, signal?: AbortSignal): Promise<string | undefined> {
    return maasLastRemedy(this.client, id, signal);
  }

  powerState(id: string, signal?: AbortSignal): Promise<HostPower> {
    return maasPowerState(this.client, id, signal);
  }

  powerOn(id: string, o: OperationOptions): Promise<void> {
    return maasPowerOn(this.client, id, o, this.pollMs);
  }

  powerCycle(id: string, o: OperationOptions): Promise<void> {
    return maasPowerCycle(this.client, id, o, this.pollMs);
  }

  async quarantine(id: string, reason: string, signal?: AbortSignal): Promise<void> {
    const m = await this.client.getMachine(id, signal);
    if (m.status === MAAS_STATUS.BROKEN) return;
    if (m.status === MAAS_STATUS.FAILED_TESTING) {
      // MAAS already holds a machine that failed its tests out of service. Marking it Broken from here would make
      // mark_fixed return it to Ready (dropping its deployment) once it is healed; from Failed testing, a passing
      // re-test returns it to Deployed. So only record the reason, where operators look.
      if (m.description !== reason) await this.client.updateMachine(id, { description: reason });
      return;
    }
    await this.client.markBroken(id, reason);
  }

  async liftQuarantine(id: string, signal?: AbortSignal): Promise<boolean> {
    let m: MaasMachine;
    try {
      m = await this.client.getMachine(id, signal);
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
    let lifted = false;
    if (m.status === MAAS_STATUS.BROKEN && m.statusMessage.startsWith(QUARANTINE_PREFIX)) {
      m = await this.client.markFixed(id, "rackform: its acceptance gate was destroyed; lifting rackform's quarantine");
      lifted = true;
    }
    // Failed testing is MAAS's own verdict on the test rackform ran (release handles it); only rackform's note goes.
    if (m.description.startsWith(QUARANTINE_PREFIX)) {
      await this.client.updateMachine(id, { description: "" }, signal);
      lifted = true;
    }
    return lifted;
  }

  private gate(): MaasAcceptance {
    return this.acceptance;
  }

  private waitReady(id: string, o: OperationOptions): Promise<Outcome> {
    return this.waitFor(id, MAAS_STATUS.READY, o);
  }

  private async waitFor(id: string, status: number | readonly number[], o: OperationOptions): Promise<Outcome> {
    try {
      const ready = await this.client.waitForStatus(id, typeof status === "number" ? [status] : status, {
        failed: STOP_WAITING,
        timeoutMs: FOREVER_MS,
        pollMs: o.pollMs ?? this.pollMs,
        signal: o.signal,
        onProgress: (x) =>
          o.log.info("MAAS machine status", {
            backend: "maas",
            id,
            hostname: x.hostname,
            status: x.statusName,
            message: x.statusMessage,
          }),
      });
      return { kind: "complete", facts: facts(ready) };
    } catch (e) {
      if (!(e instanceof MaasError) || e.code !== "RACKFORM_ERR_MAAS_STATUS_FAILED") throw e;
      const now = await this.read(id, o.signal);
      if (!now) throw e;
      return { kind: "failed", facts: now, message: e.message };
    }
  }
}
