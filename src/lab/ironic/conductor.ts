/** The lab conductor: long operations as timers on the injected clock, node reservations, fault switches, BMC calls. */
import type { LabClock } from "../maas/clock.js";
import type { BmcDriver, RedfishDriverInfo } from "./bmc.js";
import { ConductorTimers } from "./conductor-timers.js";
import type {
  ConductorDeployDefaults,
  FaultOp,
  IronicDelays,
  ProvisionListener,
  StepRunner,
} from "./conductor-types.js";
import { downloadAndVerify, type ImageFetcher, loopbackFetcher, validateHref } from "./images.js";
import { RamdiskCache } from "./ramdisk.js";
import { isoTime } from "./render.js";
import { S } from "./states.js";
import { defaultResult, type StepOutcome, type StepRequest, type StepResult, stepRepr, supportsStep } from "./steps.js";
import type { IronicStore, NodeRecord } from "./store.js";

/** Drives nodes through the state machine; the API layer has already checked that each verb is allowed. */
export class Conductor {
  private readonly faults = new Map<string, Set<FaultOp>>();
  private readonly outcomes = new Map<string, StepOutcome>();
  private readonly timers: ConductorTimers;
  private readonly ramdisk: RamdiskCache;
  private readonly listeners: ProvisionListener[] = [];
  /** Consulted for steps without a setStepOutcome. */
  stepRunner: StepRunner | undefined;
  /** Steps the lab adds beyond the driver's catalogue (e.g. an in-band hardware manager's deploy.rackform_acceptance). */
  readonly extraSteps: { interface: string; step: string }[] = [];
  /** ironic.conf `[conductor]deploy_kernel` / `deploy_ramdisk`: used when a node's driver_info names neither. */
  deployDefaults: ConductorDeployDefaults = {};

  constructor(
    private readonly store: IronicStore,
    private readonly clock: LabClock,
    private readonly delays: IronicDelays,
    private readonly bmc: BmcDriver,
    private readonly images: ImageFetcher = loopbackFetcher,
  ) {
    this.timers = new ConductorTimers(clock);
    this.ramdisk = new RamdiskCache(images);
  }

  /** Makes the next `op` on the node fail. */
  failNext(uuid: string, op: FaultOp): void {
    const set = this.faults.get(uuid) ?? new Set<FaultOp>();
    set.add(op);
    this.faults.set(uuid, set);
  }

  /** Sets what a named step does on its next runs on the node. */
  setStepOutcome(uuid: string, step: string, outcome: StepOutcome): void {
    this.outcomes.set(`${uuid}/${step}`, outcome);
  }

  /** Registers a listener for provision state changes. */
  onProvisionState(fn: ProvisionListener): void {
    this.listeners.push(fn);
  }

  /** Cancels every pending timer. */
  stop(): void {
    this.timers.stop();
  }

  private injected(n: NodeRecord, op: FaultOp): void {
    const set = this.faults.get(n.uuid);
    if (set?.delete(op)) throw new Error(`lab fault injected into ${op}`);
  }

  private set(n: NodeRecord, state: string, target: string | null, reserved: boolean): void {
    const from = n.provision_state;
    n.provision_state = state;
    n.target_provision_state = target;
    n.reservation = reserved ? "localhost" : null;
    n.provision_updated_at = this.clock.now();
    this.store.touch(n);
    if (from === state) return;
    for (const fn of this.listeners) {
      try {
        fn(n, from, state);
      } catch {
        // A listener's bug must not break the conductor.
      }
    }
  }

  private info(n: NodeRecord): RedfishDriverInfo {
    return n.driver_info as RedfishDriverInfo;
  }

  /** Runs `work` in the background; a thrown error lands the node in `failState` with last_error from `message`. */
  private task(n: NodeRecord, work: () => Promise<void>, fail: (msg: string) => void): void {
    work().catch((e: unknown) => {
      if (!this.store.nodes.has(n.uuid)) return;
      fail((e as Error).message);
      n.reservation = null;
      n.provision_updated_at = this.clock.now();
      this.store.touch(n);
    });
  }

  /** enroll → verifying → manageable (power credentials checked through the BMC for redfish). */
  manage(n: NodeRecord): void {
    if (n.provision_state !== S.ENROLL) {
      this.set(n, S.MANAGEABLE, null, false);
      return;
    }
    n.last_error = null;
    this.set(n, S.VERIFYING, S.MANAGEABLE, true);
    this.task(
      n,
      async () => {
        await this.timers.sleep(this.delays.verifyMs);
        this.injected(n, "manage");
        if (n.driver === "redfish") {
          const v = await this.bmc.verify(this.info(n));
          n.power_state = v.powerState;
          if (v.vendor) n.properties = { ...n.properties, vendor: v.vendor };
          n.boot_mode = v.bootMode;
          n.secure_boot = false;
        }
        this.set(n, S.MANAGEABLE, null, false);
      },
      (msg) => {
        n.last_error = `Failed to get power state for node ${n.uuid}. Error: ${msg}`;
        this.set(n, S.ENROLL, null, false);
      },
    );
  }

  /** manageable → inspecting → manageable; redfish reads CPUs, memory, disks and NIC MACs and creates ports. */
  inspect(n: NodeRecord): void {
    n.last_error = null;
    n.inspection_started_at = this.clock.now();
    this.set(n, S.INSPECTING, S.MANAGEABLE, true);
    this.task(
      n,
      async () => {
        await this.timers.sleep(this.delays.inspectMs);
        this.injected(n, "inspect");
        if (n.driver === "redfish") {
          const hw = await this.bmc.inspect(this.info(n));
          const props = { ...n.properties, ...hw.properties };
          if (typeof n.properties.capabilities === "string" && /boot_mode:/.test(n.properties.capabilities)) {
            props.capabilities = n.properties.capabilities;
          }
          n.properties = props;
          // Ironic's redfish inspect stores the inventory it read (no plugin data: there is no ramdisk).
          n.inventory = { inventory: hw.inventory, plugin_data: {} };
          const known = new Set([...this.store.ports.values()].map((p) => p.address));
          for (const mac of hw.macs) if (!known.has(mac)) this.store.newPort(n.uuid, mac);
        }
        n.inspection_started_at = null;
        n.inspection_finished_at = this.clock.now();
        this.set(n, S.MANAGEABLE, null, false);
      },
      (msg) => {
        n.inspection_started_at = null;
        n.last_error = `Failed to inspect hardware. Reason: ${msg}`;
        this.set(n, S.INSPECTFAIL, S.MANAGEABLE, false);
      },
    );
  }

  /**
   * Automated cleaning (provide, and after tear-down): cleaning → available; failure → clean failed + maintenance.
   * A redfish node boots the deploy ramdisk from virtual media first (its kernel and ramdisk fetched, as
   * prepare_cleaning does) and waits in `clean wait` while IPA cleans, then powers off.
   */
  private automatedClean(n: NodeRecord): Promise<void> {
    this.set(n, S.CLEANING, S.AVAILABLE, true);
    return (async () => {
      if (n.driver === "redfish") {
        const bad = await this.ramdisk.prepare(n, this.deployDefaults);
        if (bad) throw new Error(bad);
        await this.bmc.setBootDevice(this.info(n), "cd");
        await this.powerVia(n, "rebooting");
        this.set(n, S.CLEANWAIT, S.AVAILABLE, false);
      }
      await this.timers.sleep(this.delays.cleanMs);
      if (n.driver === "redfish") this.set(n, S.CLEANING, S.AVAILABLE, true);
      this.injected(n, "clean");
      if (n.driver === "redfish") await this.powerVia(n, "power off");
      n.driver_internal_info = { ...n.driver_internal_info, clean_steps: null };
      this.set(n, S.AVAILABLE, null, false);
    })();
  }

  private cleanFailed(n: NodeRecord, msg: string, automated: boolean): void {
    n.last_error = automated ? `Failed to prepare node ${n.uuid} for cleaning: ${msg}` : msg;
    n.clean_step = {};
    if (automated) {
      n.maintenance = true;
      n.maintenance_reason = n.last_error;
      n.fault = "clean failure";
    }
    this.set(n, S.CLEANFAIL, automated ? S.AVAILABLE : S.MANAGEABLE, false);
  }

  /** manageable → cleaning → available. */
  provide(n: NodeRecord): void {
    n.last_error = null;
    this.task(
      n,
      () => this.automatedClean(n),
      (msg) => this.cleanFailed(n, msg, true),
    );
  }

  /** Runs steps one by one; each runs in-band (the *wait state) where `abort` can stop it. */
  private async runSteps(n: NodeRecord, kind: "clean" | "service", steps: StepRequest[]): Promise<void> {
    const busy = kind === "clean" ? S.CLEANING : S.SERVICING;
    const wait = kind === "clean" ? S.CLEANWAIT : S.SERVICEWAIT;
    const target = n.target_provision_state;
    for (const step of steps) {
      const extra = this.extraSteps.some((x) => x.interface === step.interface && x.step === step.step);
      if (!extra && !supportsStep(n.driver, step)) {
        const what = kind === "clean" ? "clean" : "service";
        throw new Error(`Cannot ${what} node ${n.uuid}: node does not support this ${what} step: ${stepRepr(step)}`);
      }
      const current = { interface: step.interface, step: step.step, args: step.args ?? {}, priority: 0 };
      if (kind === "clean") n.clean_step = current;
      else n.service_step = current;
      this.set(n, wait, target, false);
      const outcome = this.outcomes.get(`${n.uuid}/${step.step}`) ?? this.stepRunner?.(n, step) ?? {};
      const duration = outcome.durationMs ?? this.delays.stepMs;
      const started = this.clock.now();
      await this.timers.sleep(duration, n.uuid);
      this.set(n, busy, target, true);
      this.injected(n, kind);
      const record: StepResult = {
        interface: step.interface,
        step: step.step,
        status: outcome.fail ? "failed" : "passed",
        result: outcome.result ?? (outcome.fail ? {} : defaultResult(step, duration)),
        started_at: isoTime(started) ?? "",
        finished_at: isoTime(this.clock.now()) ?? "",
      };
      const prior = (n.driver_internal_info.lab_step_results as StepResult[] | undefined) ?? [];
      n.driver_internal_info = { ...n.driver_internal_info, lab_step_results: [...prior, record] };
      if (outcome.fail) throw new Error(`Node ${n.uuid} failed step ${stepRepr(step)}: ${outcome.fail}`);
    }
  }

  /** Manual cleaning: manageable → cleaning (clean wait per step) → manageable. */
  clean(n: NodeRecord, steps: StepRequest[]): void {
    n.last_error = null;
    n.driver_internal_info = { ...n.driver_internal_info, clean_steps: steps };
    this.set(n, S.CLEANING, S.MANAGEABLE, true);
    this.task(
      n,
      async () => {
        await this.timers.sleep(this.delays.cleanMs);
        await this.runSteps(n, "clean", steps);
        n.clean_step = {};
        this.set(n, S.MANAGEABLE, null, false);
      },
      (msg) => this.cleanFailed(n, msg === "aborted" ? `Clean operation aborted for node ${n.uuid}` : msg, false),
    );
  }

  /** Servicing (API ≥ 1.87): active → servicing (service wait per step) → active. */
  service(n: NodeRecord, steps: StepRequest[]): void {
    n.last_error = null;
    this.set(n, S.SERVICING, S.ACTIVE, true);
    this.task(
      n,
      async () => {
        await this.runSteps(n, "service", steps);
        n.service_step = {};
        this.set(n, S.ACTIVE, null, false);
      },
      (msg) => {
        n.last_error = msg === "aborted" ? `Service operation aborted for node ${n.uuid}` : msg;
        n.service_step = {};
        this.set(n, S.SERVICEFAIL, S.ACTIVE, false);
      },
    );
  }

  /** abort: stops the step running in clean wait / service wait; from service failed returns to active. */
  abort(n: NodeRecord): void {
    if (n.provision_state === S.SERVICEFAIL) {
      n.last_error = null;
      this.set(n, S.ACTIVE, null, false);
      return;
    }
    this.timers.abort(n.uuid);
  }

  /**
   * The deploy interface's image check at do_node_deploy validation (redfish nodes): Ironic's HEAD of a non-Glance
   * image_source. The ImageRefValidationFailed message, or undefined when it answers 200 (or is not fetched).
   */
  validateImage(n: NodeRecord): Promise<string | undefined> {
    const href = n.instance_info.image_source;
    if (n.driver !== "redfish" || typeof href !== "string") return Promise.resolve(undefined);
    return validateHref(this.images, href);
  }

  /** available (deploy) / active, deploy failed, error (rebuild) → deploying → active. */
  deploy(n: NodeRecord): void {
    n.last_error = null;
    n.deploy_step = { interface: "deploy", step: "deploy", args: {}, priority: 100 };
    this.set(n, S.DEPLOYING, S.ACTIVE, true);
    // "" while the deploy interface prepares (boots the ramdisk), before any deploy step runs.
    let step = n.driver === "redfish" ? "" : "deploy.deploy";
    this.task(
      n,
      async () => {
        const bad = n.driver === "redfish" ? await this.ramdisk.prepare(n, this.deployDefaults) : undefined;
        if (bad) throw new Error(bad);
        step = "deploy.deploy";
        await this.timers.sleep(this.delays.deployMs);
        this.injected(n, "deploy");
        if (n.driver === "redfish") {
          await this.bmc.setBootDevice(this.info(n), "cd");
          await this.powerVia(n, "rebooting");
          // The ramdisk downloads the image and checks its digest before writing it to the root device.
          step = "deploy.write_image";
          n.deploy_step = { interface: "deploy", step: "write_image", args: {}, priority: 80 };
          const bad = await downloadAndVerify(this.images, n.instance_info as Record<string, unknown>, "/dev/sda");
          if (bad) throw new Error(bad);
          // The agent in the ramdisk writes the image: a host that lost power meanwhile (its outlet cut) took the
          // agent with it, and the deploy fails instead of ending active on a host that is off.
          if ((await this.bmc.getPowerState(this.info(n))) !== "power on") {
            throw new Error("Agent lost: the node powered off while the image was being written.");
          }
        } else n.power_state = "power on";
        if (n.instance_info.image_source && !n.instance_info.image_type) {
          n.instance_info = { ...n.instance_info, image_type: "whole-disk" };
        }
        n.driver_internal_info = { ...n.driver_internal_info, is_whole_disk_image: true, deploy_steps: null };
        n.deploy_step = {};
        this.set(n, S.ACTIVE, null, false);
      },
      (msg) => {
        n.last_error = step
          ? `Deploy step ${step} failed on node ${n.uuid}. ${msg}`
          : `Failed to prepare to deploy: ${msg}`;
        n.deploy_step = {};
        this.set(n, S.DEPLOYFAIL, S.ACTIVE, false);
      },
    );
  }

  /** Tear-down: deleting (power off, instance cleared, allocation removed) → cleaning → available. */
  undeploy(n: NodeRecord): void {
    n.last_error = null;
    this.set(n, S.DELETING, S.AVAILABLE, true);
    let cleaning = false;
    this.task(
      n,
      async () => {
        await this.timers.sleep(this.delays.deleteMs);
        this.injected(n, "delete");
        if (n.driver === "redfish") await this.powerVia(n, "power off");
        n.instance_info = {};
        n.instance_uuid = null;
        if (n.allocation_uuid) this.store.allocations.delete(n.allocation_uuid);
        n.allocation_uuid = null;
        cleaning = true;
        await this.automatedClean(n);
      },
      (msg) => {
        if (cleaning) return this.cleanFailed(n, msg, true);
        n.last_error = `Error while tearing down node ${n.uuid}: ${msg}`;
        this.set(n, S.ERROR, null, false);
      },
    );
  }

  private async powerVia(n: NodeRecord, target: string): Promise<void> {
    await this.bmc.setPower(this.info(n), target);
    n.power_state = await this.bmc.getPowerState(this.info(n));
  }

  /** PUT …/states/power: target_power_state while the call runs; failures go to last_error. */
  power(n: NodeRecord, target: string): void {
    n.target_power_state = target.startsWith("soft power")
      ? "power off"
      : target.includes("reboot")
        ? "power on"
        : target;
    n.reservation = "localhost";
    n.last_error = null;
    this.store.touch(n);
    const done = () => {
      n.target_power_state = null;
      n.reservation = null;
      this.store.touch(n);
    };
    this.timers
      .sleep(this.delays.powerMs)
      .then(async () => {
        this.injected(n, "power");
        if (n.driver === "redfish") await this.powerVia(n, target);
        else n.power_state = target.includes("off") ? "power off" : "power on";
        done();
      })
      .catch((e: unknown) => {
        n.last_error = `Failed to change power state to '${n.target_power_state}' by '${target}'. Error: ${(e as Error).message}`;
        done();
      });
  }
}
