/** The machine state machine: every MAAS operation that changes status, with timers for the long ones and fault switches. */
import type { LabClock } from "./clock.js";
import { conflict } from "./http-io.js";
import {
  COMMISSIONING_SCRIPTS,
  DEFAULT_COMMISSION_TESTS,
  type FaultOp,
  type HardwareProbe,
  type HardwareReport,
  type MaasDelays,
  type ScriptOutcome,
  type ScriptRunner,
  type StatusListener,
} from "./lifecycle-types.js";
import type { PowerDriver } from "./power.js";
import { ScriptSets } from "./script-sets.js";
import {
  canTransition,
  RELEASABLE,
  ResultType,
  NodeStatus as S,
  SCRIPT_FAILED,
  ScriptStatus,
  statusName,
} from "./statuses.js";
import type { MaasStore, MachineRecord, ScriptSetRecord } from "./store.js";

/** Drives machines through MAAS's lifecycle; the API handlers call it after parsing and permission checks. */
export class Lifecycle {
  private readonly faults = new Set<string>();
  private readonly listeners: StatusListener[] = [];
  private readonly powerChains = new Map<string, Promise<void>>();
  private readonly sets: ScriptSets;

  constructor(
    private readonly store: MaasStore,
    private readonly clock: LabClock,
    private readonly delays: MaasDelays,
    private readonly power: PowerDriver,
  ) {
    this.sets = new ScriptSets(store, clock);
  }

  /** Makes the next `op` on the machine fail (consumed when the operation completes). */
  failNext(systemId: string, op: FaultOp): void {
    this.faults.add(`${systemId}\n${op}`);
  }

  /** Sets what a script reports on its future runs on the machine. */
  setScriptOutcome(systemId: string, scriptName: string, outcome: ScriptOutcome): void {
    this.sets.setOutcome(systemId, scriptName, outcome);
  }

  /** Consulted for scripts without a `setScriptOutcome`; undefined = passed. */
  get scriptRunner(): ScriptRunner | undefined {
    return this.sets.runner;
  }
  set scriptRunner(fn: ScriptRunner | undefined) {
    this.sets.runner = fn;
  }

  /** Reads the machine's hardware when commissioning passes (the composed lab reads the world's node). */
  hardwareProbe: HardwareProbe | undefined;

  /** Registers a listener for status changes. */
  onStatusChange(fn: StatusListener): void {
    this.listeners.push(fn);
  }

  private setStatus(m: MachineRecord, to: number): void {
    const from = m.status;
    m.status = to;
    if (from === to) return;
    for (const fn of this.listeners) {
      try {
        fn(m, from, to);
      } catch {
        // A listener's bug must not break the MAAS state machine.
      }
    }
  }

  private takeFault(m: MachineRecord, op: FaultOp): boolean {
    return this.faults.delete(`${m.systemId}\n${op}`);
  }

  private move(m: MachineRecord, to: number, message: string): void {
    if (m.status !== to && !canTransition(m.status, to)) {
      throw conflict(`Invalid transition: ${statusName(m.status)} -> ${statusName(to)}.`);
    }
    this.setStatus(m, to);
    m.statusMessage = message;
  }

  private later(m: MachineRecord, ms: number, fn: () => void | Promise<void>): void {
    m.cancel?.();
    const cancel = this.clock.setTimer(async () => {
      if (m.cancel === cancel) m.cancel = null;
      if (this.store.machine(m.systemId) !== m) return;
      await fn();
    }, ms);
    m.cancel = cancel;
  }

  // Runs a power action in the background; on failure the machine lands in `failStatus` with the driver's message.
  private powerAsync(m: MachineRecord, on: boolean, failStatus?: number): Promise<boolean> {
    // Power actions of one machine run in order (as MAAS queues them per node): a quick operation's power-off must
    // not overtake its power-on.
    const prior = this.powerChains.get(m.systemId) ?? Promise.resolve();
    const action = prior.then(() => (on ? this.power.powerOn(m.powerParams) : this.power.powerOff(m.powerParams)));
    const settled = action.then(
      () => undefined,
      () => undefined,
    );
    this.powerChains.set(m.systemId, settled);
    void settled.then(() => {
      if (this.powerChains.get(m.systemId) === settled) this.powerChains.delete(m.systemId);
    });
    return action.then(
      () => {
        m.powerState = on ? "on" : "off";
        return true;
      },
      (e: unknown) => {
        m.powerState = "error";
        const msg = `Power ${on ? "on" : "off"} for the node failed: ${(e as Error).message}`;
        this.store.event(m, "ERROR", on ? "Failed to power on node" : "Failed to power off node", msg);
        if (failStatus !== undefined && canTransition(m.status, failStatus)) {
          m.cancel?.();
          m.cancel = null;
          this.setStatus(m, failStatus);
          m.statusMessage = msg;
        }
        return false;
      },
    );
  }

  /** op=commission (and the automatic commissioning after create). */
  commission(m: MachineRecord, user: string, testing: string[] | "none" | undefined): void {
    const tests = testing === "none" ? [] : (testing ?? DEFAULT_COMMISSION_TESTS);
    const prev = m.status;
    this.move(m, S.COMMISSIONING, "Commissioning");
    m.previousStatus = prev;
    const cset = this.sets.create(m, ResultType.COMMISSIONING, COMMISSIONING_SCRIPTS);
    const tset = this.sets.create(m, ResultType.TESTING, tests);
    m.currentCommissioningSetId = cset.id;
    m.currentTestingSetId = tset.id;
    this.sets.start(cset);
    this.store.event(m, "INFO", "Commissioning", "", user);
    this.powerAsync(m, true, S.FAILED_COMMISSIONING);
    this.later(m, this.delays.commissionMs, () => {
      const ok = this.sets.finish(m, cset, this.takeFault(m, "commission"));
      if (!ok) {
        const failed = cset.results.find((r) => SCRIPT_FAILED.includes(r.status))?.name ?? "a commissioning script";
        this.move(m, S.FAILED_COMMISSIONING, `Failed commissioning: ${failed} failed`);
        this.store.event(m, "ERROR", "Failed commissioning", m.statusMessage);
        this.powerAsync(m, false);
        return;
      }
      this.learnHardware(m, this.hardwareProbe?.(m));
      if (tset.results.length === 0) return this.commissioned(m);
      this.move(m, S.TESTING, "Testing");
      this.sets.start(tset);
      this.later(m, this.delays.testMs ?? this.delays.commissionMs, () => {
        if (this.sets.finish(m, tset, this.takeFault(m, "test"))) return this.commissioned(m);
        this.testingFailed(m, tset);
      });
    });
  }

  // As MAAS's commissioning hooks store lshw results: cpu_count, memory, hardware_info, and every NIC as an interface.
  private learnHardware(m: MachineRecord, hw: HardwareReport | undefined): void {
    if (!hw) return;
    m.cpuCount = hw.cpuCount;
    m.memoryMiB = hw.memoryMiB;
    m.hardwareInfo = { ...hw.info };
    for (const nic of hw.nics) {
      const mac = nic.mac.toLowerCase();
      const known = m.interfaces.find((i) => i.macAddress === mac);
      if (known) {
        Object.assign(known, { vendor: nic.vendor, product: nic.product });
        continue;
      }
      m.interfaces.push({
        id: this.store.nextId("interface"),
        name: `eth${m.interfaces.length}`,
        macAddress: mac,
        type: "physical",
        enabled: true,
        vendor: nic.vendor,
        product: nic.product,
        ipAddress: null,
      });
    }
  }

  private commissioned(m: MachineRecord): void {
    this.move(m, S.READY, "Ready");
    this.store.event(m, "INFO", "Ready");
    this.powerAsync(m, false);
  }

  private testingFailed(m: MachineRecord, set: ScriptSetRecord): void {
    const failed = set.results.filter((r) => r.status !== ScriptStatus.PASSED).map((r) => r.name);
    this.move(m, S.FAILED_TESTING, `Failed testing: ${failed.join(", ")}`);
    this.store.event(m, "ERROR", "Failed testing", m.statusMessage);
  }

  /** op=test: runs testing scripts, then returns to the previous status or lands in Failed testing. */
  test(
    m: MachineRecord,
    user: string,
    scripts: string[],
    inputs: Readonly<Record<string, Record<string, unknown>>> = {},
  ): void {
    const prev = m.status === S.FAILED_TESTING ? m.previousStatus : m.status;
    this.move(m, S.TESTING, "Testing");
    m.previousStatus = prev;
    const set = this.sets.create(m, ResultType.TESTING, scripts, inputs);
    m.currentTestingSetId = set.id;
    this.sets.start(set);
    this.store.event(m, "INFO", "Testing", scripts.join(","), user);
    const deployed = prev === S.DEPLOYED;
    if (!deployed) this.powerAsync(m, true);
    this.later(m, this.delays.testMs ?? this.delays.commissionMs, () => {
      if (!this.sets.finish(m, set, this.takeFault(m, "test"))) return this.testingFailed(m, set);
      this.move(m, prev, statusName(prev));
      this.store.event(m, "INFO", "Testing passed", "", user);
      if (!deployed) this.powerAsync(m, false);
    });
  }

  /** machines/?op=allocate for one chosen machine. */
  allocate(m: MachineRecord, user: string): void {
    this.move(m, S.ALLOCATED, "");
    m.owner = user;
    this.store.event(m, "INFO", "Allocated", `allocated to ${user}`, user);
  }

  /** op=deploy: allocates a Ready machine first, as MAAS does. */
  deploy(
    m: MachineRecord,
    user: string,
    osystem: string,
    series: string,
    userData: Buffer | null,
    hwe: string | null,
  ): void {
    if (m.status === S.READY) {
      if (m.owner !== null && m.owner !== user) throw conflict("Can't allocate a machine belonging to another user.");
      this.allocate(m, user);
    }
    if (!canTransition(m.status, S.DEPLOYING)) {
      throw conflict(`Can't deploy a machine that is in the '${statusName(m.status)}' state`);
    }
    // The image is recorded before the status changes, so status listeners (the lab glue) see what is deployed.
    Object.assign(m, { osystem, distroSeries: series, userData, hweKernel: hwe });
    this.move(m, S.DEPLOYING, "Deploying");
    // MAAS claims the AUTO addresses of the boot interface when deployment starts (they show in ip_addresses).
    if (m.interfaces[0]) m.interfaces[0].ipAddress = `10.20.${Math.floor(m.id / 250)}.${(m.id % 250) + 2}`;
    const iset = this.sets.create(m, ResultType.INSTALLATION, ["/tmp/install.log"]);
    m.currentInstallationSetId = iset.id;
    this.sets.start(iset);
    this.store.event(m, "INFO", "Deploying", `${osystem}/${series}`, user);
    this.powerAsync(m, true, S.FAILED_DEPLOYMENT);
    this.later(m, this.delays.deployMs, async () => {
      // A machine is Deployed once its OS booted, i.e. after the power-on went through (or failed: Failed deployment).
      await this.powerChains.get(m.systemId);
      if (m.status !== S.DEPLOYING) return;
      if (await this.lostPower(m)) {
        // The installed OS tells MAAS when it has booted: a host that lost power since its power-on (its outlet cut)
        // never does, and the deployment times out instead of reaching Deployed.
        if (m.status !== S.DEPLOYING) return;
        this.sets.finish(m, iset, true);
        this.move(m, S.FAILED_DEPLOYMENT, "Node operation 'Deploying' timed out after 30 minutes.");
        this.store.event(m, "ERROR", "Failed deployment", m.statusMessage);
        return;
      }
      if (!this.sets.finish(m, iset, this.takeFault(m, "deploy"))) {
        this.move(m, S.FAILED_DEPLOYMENT, "Installation failed (refer to the installation log for more information).");
        this.store.event(m, "ERROR", "Failed deployment", m.statusMessage);
        return;
      }
      this.move(m, S.DEPLOYED, "Deployed");
      this.store.event(m, "INFO", "Deployed", `${osystem}/${series}`);
    });
  }

  /** Whether the BMC reports the host off (a BMC that does not answer says nothing either way). */
  private async lostPower(m: MachineRecord): Promise<boolean> {
    return (await this.power.queryPowerState(m.powerParams).catch(() => "error")) === "off";
  }

  /** op=release, optionally erasing disks (Disk erasing → Ready). */
  release(m: MachineRecord, user: string, erase: boolean, mode: "secure" | "quick" | "default"): void {
    if (m.status === S.RELEASING || m.status === S.READY) return;
    if (!RELEASABLE.includes(m.status)) {
      throw conflict(`Machine cannot be released in its current state ('${statusName(m.status)}').`);
    }
    m.cancel?.();
    m.cancel = null;
    if (erase) {
      this.move(m, S.DISK_ERASING, "Disk erasing");
      this.store.event(m, "INFO", "Disk erasing", `mode=${mode}`, user);
      // The erase runs in the ephemeral environment the machine boots: without power (a silent BMC) it never starts,
      // and the power failure ends it in Failed disk erasing, as MAAS does.
      void this.powerAsync(m, true, S.FAILED_DISK_ERASING).then((powered) => {
        if (!powered || m.status !== S.DISK_ERASING) return;
        this.later(m, this.delays.eraseMs, () => {
          if (this.takeFault(m, "erase")) {
            this.move(m, S.FAILED_DISK_ERASING, "Failed to erase disks.");
            this.store.event(m, "ERROR", "Failed to erase disks", m.statusMessage);
            return;
          }
          this.released(m);
        });
      });
      return;
    }
    this.move(m, S.RELEASING, "Releasing");
    this.store.event(m, "INFO", "Releasing", "", user);
    // MAAS releases once the machine is off: a power-off that fails ends in Failed releasing.
    void this.powerAsync(m, false, S.FAILED_RELEASING).then((off) => {
      if (!off || m.status !== S.RELEASING) return;
      this.later(m, this.delays.releaseMs, () => {
        if (this.takeFault(m, "release")) {
          this.move(m, S.FAILED_RELEASING, "Failed to release the machine.");
          this.store.event(m, "ERROR", "Failed releasing", m.statusMessage);
          return;
        }
        this.released(m);
      });
    });
  }

  private released(m: MachineRecord): void {
    this.move(m, S.READY, "Released");
    Object.assign(m, { owner: null, osystem: "", distroSeries: "", userData: null, hweKernel: null, ownerData: {} });
    for (const i of m.interfaces) i.ipAddress = null;
    this.store.event(m, "INFO", "Released");
    this.powerAsync(m, false);
  }

  /** op=abort of commissioning, testing, deployment or disk erasing. */
  abort(m: MachineRecord, user: string): void {
    const back: Record<number, number> = {
      [S.COMMISSIONING]: S.NEW,
      [S.TESTING]: m.previousStatus,
      [S.DEPLOYING]: S.ALLOCATED,
      [S.DISK_ERASING]: S.FAILED_DISK_ERASING,
    };
    const to = back[m.status];
    if (to === undefined) {
      throw conflict(`Cannot abort in current state: node ${m.systemId} is in state ${statusName(m.status)}.`);
    }
    m.cancel?.();
    m.cancel = null;
    const from = statusName(m.status);
    this.setStatus(m, to);
    m.statusMessage = `Aborted ${from.toLowerCase()}`;
    this.store.event(m, "INFO", `Aborted ${from.toLowerCase()}`, "", user);
    this.powerAsync(m, false);
  }

  /** op=mark_broken. */
  markBroken(m: MachineRecord, user: string, comment: string): void {
    const prev = m.status;
    this.move(m, S.BROKEN, comment);
    m.cancel?.();
    m.cancel = null;
    m.previousStatus = prev;
    this.store.event(m, "INFO", "Marked broken", comment, user);
  }

  /** op=mark_fixed: Broken → Deployed if it was deployed, else Ready. */
  markFixed(m: MachineRecord, user: string, comment: string): void {
    if (m.status !== S.BROKEN) throw conflict("Can't mark a non-broken node as 'Ready'.");
    const to = m.previousStatus === S.DEPLOYED ? S.DEPLOYED : S.READY;
    this.move(m, to, comment);
    this.store.event(m, "INFO", "Marked fixed", comment, user);
  }

  /** op=power_on / op=power_off: waits for the driver, as the API answers after the power action was accepted. */
  async setPower(m: MachineRecord, on: boolean): Promise<void> {
    try {
      if (on) await this.power.powerOn(m.powerParams);
      else await this.power.powerOff(m.powerParams);
      m.powerState = on ? "on" : "off";
    } catch (e) {
      m.powerState = "error";
      throw e;
    }
  }

  /** op=query_power_state: asks the BMC and records the answer. */
  async queryPower(m: MachineRecord): Promise<string> {
    try {
      m.powerState = await this.power.queryPowerState(m.powerParams);
    } catch (e) {
      m.powerState = "error";
      throw e;
    }
    return m.powerState;
  }
}
