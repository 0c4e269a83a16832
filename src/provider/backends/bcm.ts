/**
 * The BCM adapter of the backend seam: a PhysicalNode device in cmdaemon, powered through its BMC (powerControl rf0,
 * Redfish) by cmdevice.powerOperation, deployed by setting the node's software image and user data (finalize
 * script) and booting it: the node-installer installs the image (INSTALLING) and the node comes UP (deployed).
 * Acceptance is a burn run; quarantine closes the device (cmstatus.close with the reason as its user message).
 * Power goes through BCM rather than rackform's Redfish path so cmdaemon knows why the node went down and follows
 * its install (a node powered behind its back is only seen DOWN/INSTALLING).
 */

import {
  type BcmClient,
  type BcmDevice,
  type BcmDeviceStatus,
  BcmError,
  powerFailed,
  powerTimeout,
} from "../../clients/bcm/index.js";
import type { PollSpec } from "../../clients/http/poll.js";
import { DEFAULT_TIMINGS } from "../config/timings.js";
import {
  type AcceptanceEvidence,
  type AcceptanceOptions,
  type AcceptanceRun,
  type Backend,
  bmcOrigin,
  type DeployOptions,
  type EnrollSpec,
  type FoundMachine,
  type HostPower,
  type ImageSpec,
  imageLabel,
  type MachineFacts,
  type NodeIdentity,
  normalMac,
  type OperationOptions,
  type Outcome,
  type PowerCredentials,
  parseEvidence,
  pickOne,
  QUARANTINE_PREFIX,
  type ReleaseOptions,
} from "./backend.js";
import { bcmFacts, bcmPower } from "./bcm-states.js";
import { pollUntil } from "./poll.js";
import { bcmLastRemedy, bcmNoteRemedy } from "./remedy-marks.js";

/** The burn configuration of the acceptance gate (see src/lab/bcm/README.md). */
export const BCM_ACCEPTANCE_BURN = "rackform-acceptance";

const ZERO_UUID = "00000000-0000-0000-0000-000000000000";
const FOREVER_MS = 24 * 3_600_000;

const hostOf = (address: string) => {
  try {
    return new URL(bmcOrigin(address)).hostname;
  } catch {
    return address;
  }
};

/** A Backend over one BCM head node. */
export class BcmBackend implements Backend {
  readonly name = "bcm" as const;
  private readonly pollMs: PollSpec;
  private readonly category: string | undefined;
  private lastEvidence = new Map<string, AcceptanceEvidence>();

  constructor(
    private readonly client: BcmClient,
    opts: { readonly pollMs?: PollSpec; readonly category?: string } = {},
  ) {
    this.pollMs = opts.pollMs ?? DEFAULT_TIMINGS.backendPollMs;
    this.category = opts.category;
  }

  async find(identity: NodeIdentity, signal?: AbortSignal): Promise<FoundMachine | undefined> {
    const devices = await this.client.listDevices(signal);
    const macs = new Set(identity.macs.map(normalMac));
    const bmc = hostOf(identity.bmcAddress);
    const candidates: { d: BcmDevice; matchedBy: FoundMachine["matchedBy"][number][] }[] = [];
    for (const d of devices) {
      const matchedBy: FoundMachine["matchedBy"][number][] = [];
      if (d.hostname === identity.name) matchedBy.push("name");
      if (d.macs.some((m) => macs.has(m))) matchedBy.push("mac");
      if (d.bmcIp && d.bmcIp === bmc) matchedBy.push("bmc");
      if (matchedBy.length > 0) candidates.push({ d, matchedBy });
    }
    if (candidates.length === 0) return undefined;
    const statuses = await this.statusMap(
      candidates.map((c) => c.d.uuid),
      signal,
    );
    const images = await this.imageNames(signal);
    return pickOne(
      "bcm",
      candidates.map((c) => ({ facts: this.factsOf(c.d, statuses.get(c.d.uuid), images), matchedBy: c.matchedBy })),
    );
  }

  async enroll(spec: EnrollSpec, signal?: AbortSignal): Promise<string> {
    const mac = spec.macs[0] ? normalMac(spec.macs[0]) : "";
    const d = await this.client.addDevice(
      {
        hostname: spec.name,
        mac,
        category: await this.categoryUuid(signal),
        bmcIp: hostOf(spec.bmcAddress),
        bmcUsername: spec.bmcUsername,
        bmcPassword: spec.bmcPassword,
      },
      signal,
    );
    return d.uuid;
  }

  /** The BMC's credentials (bmcSettings) and its address (the rf0 interface's IP, for a re-addressed BMC). */
  async setPowerCredentials(id: string, c: PowerCredentials, signal?: AbortSignal): Promise<void> {
    const d = await this.client.mustGetDevice(id, signal);
    const ip = hostOf(c.bmcAddress);
    const raw = Array.isArray(d.raw.interfaces) ? (d.raw.interfaces as Record<string, unknown>[]) : [];
    const interfaces = raw.map((i) => (i.childType === "NetworkBmcInterface" ? { ...i, ip } : i));
    await this.client.updateDevice(
      d,
      {
        bmcSettings: { baseType: "BMCSettings", userName: c.bmcUsername, password: c.bmcPassword },
        ...(d.bmcIp !== ip ? { interfaces } : {}),
      },
      signal,
    );
  }

  /** Identified and installable: the device exists, and cmdaemon reaches its BMC with the credentials it holds. */
  async commission(id: string, o: OperationOptions): Promise<Outcome> {
    const d = await this.client.mustGetDevice(id, o.signal);
    const r = (await this.client.powerOperation([id], "STATUS", true, o.signal))[0];
    const facts = await this.readDevice(d, o.signal);
    if (r && r.state === "FAILED") {
      return {
        kind: "failed",
        facts,
        message: `cmdaemon could not read the node's power through its BMC (${d.bmcIp}): ${r.message}`,
        fix: "check the BMC address and the credentials (rackform_machine's BMC), then apply again",
      };
    }
    return { kind: "complete", facts };
  }

  async read(id: string, signal?: AbortSignal): Promise<MachineFacts | undefined> {
    const d = await this.client.getDevice(id, signal);
    return d ? this.readDevice(d, signal) : undefined;
  }

  async remove(id: string, o: OperationOptions): Promise<void> {
    const d = await this.client.getDevice(id, o.signal);
    if (!d) return;
    await this.client.removeDevice(id, o.signal);
  }

  /** Sets the node's software image and user data, boots it (ON, or RESET when it runs another), waits for UP. */
  async deploy(id: string, o: DeployOptions): Promise<Outcome> {
    const want = imageLabel("bcm", o.image);
    const image = (await this.client.softwareImages(o.signal)).find((i) => i.name === want);
    let d = await this.client.mustGetDevice(id, o.signal);
    if (!image) {
      return {
        kind: "failed",
        facts: await this.readDevice(d, o.signal),
        message: `BCM has no software image "${want}"`,
        fix: `create it on the head node (cm-create-image or a clone named ${want}), then apply again`,
      };
    }
    const script = o.userData ?? "";
    const changed = d.softwareImage !== image.uuid || d.finalizeScript !== script;
    if (changed) {
      o.log.info("setting the node's software image and finalize script in BCM", { backend: "bcm", id, image: want });
      d = await this.client.updateDevice(
        d,
        {
          softwareImageProxy: { baseType: "SoftwareImageProxy", parentSoftwareImage: image.uuid },
          finalizeScript: script,
        },
        o.signal,
      );
    }
    const s = await this.status(id, o.signal);
    if (s?.closed) {
      return { kind: "failed", facts: await this.readDevice(d, o.signal), message: "the device is closed in BCM" };
    }
    if (s?.status === "DOWN") await this.power(id, "ON", o);
    else if (changed || s?.status === "INSTALLER_FAILED") await this.power(id, "RESET", o);
    return this.waitUp(d, o);
  }

  async release(id: string, o: ReleaseOptions): Promise<Outcome | undefined> {
    const d = await this.client.getDevice(id, o.signal);
    if (!d) return undefined;
    if (d.softwareImage || d.finalizeScript) {
      o.log.info("releasing the node in BCM: powering off, clearing its software image", { backend: "bcm", id });
      await this.power(id, "OFF", o);
      await this.client.updateDevice(
        d,
        { softwareImageProxy: { baseType: "SoftwareImageProxy", parentSoftwareImage: ZERO_UUID }, finalizeScript: "" },
        o.signal,
      );
    }
    return { kind: "complete", facts: (await this.read(id, o.signal)) as MachineFacts };
  }

  async runAcceptance(id: string, o: AcceptanceOptions): Promise<AcceptanceRun> {
    const s = await this.status(id, o.signal);
    if (s?.closed) {
      const byHand = !s.userMessage.startsWith(QUARANTINE_PREFIX);
      o.log.warn(
        `device ${id} was ${byHand ? `closed by hand (${s.userMessage || "no message"})` : "quarantined by rackform"}: running the acceptance gate to return it to service`,
        { backend: "bcm", id },
      );
      await this.client.open([id], o.signal);
    }
    const d = await this.client.mustGetDevice(id, o.signal);
    const up = await this.status(id, o.signal);
    if (up?.status !== "UP") {
      const facts = await this.readDevice(d, o.signal);
      return {
        outcome: {
          kind: "failed",
          facts,
          message: `the node is ${up?.status ?? "unknown"}; the burn runs on an UP node`,
        },
      };
    }
    const p = o.params;
    const config = [
      BCM_ACCEPTANCE_BURN,
      `dcgm_level=${p.dcgmLevel}`,
      `burn_in=${p.burnIn}`,
      ...(p.ncclMinBusbwGBps === undefined ? [] : [`nccl_min_busbw_gbps=${p.ncclMinBusbwGBps}`]),
    ].join(" ");
    o.log.info("running the acceptance gate as a BCM burn", { backend: "bcm", id, config });
    await this.client.startBurn([id], config, o.signal);
    return this.poll(o, async () => {
      const b = (await this.client.burnStatus([id], o.signal))[0];
      if (!b || b.status === "running") return undefined;
      const evidence = parseEvidence(b.log);
      if (evidence) this.lastEvidence.set(id, evidence);
      const facts = await this.readDevice(d, o.signal);
      if (b.status === "passed") return { outcome: { kind: "complete", facts }, evidence };
      return { outcome: { kind: "failed", facts, message: `burn ${b.status}` }, evidence };
    });
  }

  async lastAcceptance(id: string, signal?: AbortSignal): Promise<AcceptanceEvidence | undefined> {
    const b = (await this.client.burnStatus([id], signal))[0];
    return (b && parseEvidence(b.log)) ?? this.lastEvidence.get(id);
  }

  noteRemedy(id: string, mark: string, signal?: AbortSignal): Promise<void> {
    return bcmNoteRemedy(this.client, id, mark, signal);
  }

  lastRemedy(id: string, signal?: AbortSignal): Promise<string | undefined> {
    return bcmLastRemedy(this.client, id, signal);
  }

  async powerState(id: string, signal?: AbortSignal): Promise<HostPower> {
    return bcmPower(await this.status(id, signal));
  }

  async powerOn(id: string, o: OperationOptions): Promise<void> {
    if ((await this.powerState(id, o.signal)) === "on") return;
    o.log.info("powering the host on through BCM", { backend: "bcm", id });
    await this.power(id, "ON", o);
    await this.poll(o, async (elapsedMs) => {
      if ((await this.powerState(id, o.signal)) === "on") return true;
      if (elapsedMs > FOREVER_MS) throw powerTimeout(id);
      return undefined;
    });
  }

  async powerCycle(id: string, o: OperationOptions): Promise<void> {
    const off = (await this.powerState(id, o.signal)) === "off";
    o.log.info(off ? "powering the host on through BCM" : "power cycling the host through BCM", { backend: "bcm", id });
    await this.power(id, off ? "ON" : "RESET", o);
    await this.poll(o, async (elapsedMs) => {
      if ((await this.powerState(id, o.signal)) === "on") return true;
      if (elapsedMs > FOREVER_MS) throw powerTimeout(id);
      return undefined;
    });
  }

  async quarantine(id: string, reason: string, signal?: AbortSignal): Promise<void> {
    const s = await this.status(id, signal);
    if (s?.closed) return;
    await this.client.close([id], reason, signal);
  }

  async liftQuarantine(id: string, signal?: AbortSignal): Promise<boolean> {
    if (!(await this.client.getDevice(id, signal))) return false;
    const s = await this.status(id, signal);
    if (!s?.closed || !s.userMessage.startsWith(QUARANTINE_PREFIX)) return false;
    await this.client.open([id], signal);
    return true;
  }

  async imageAvailable(image: ImageSpec, signal?: AbortSignal): Promise<boolean> {
    const want = imageLabel("bcm", image);
    return (await this.client.softwareImages(signal)).some((i) => i.name === want);
  }

  private async power(id: string, op: "ON" | "OFF" | "RESET", o: OperationOptions): Promise<void> {
    const r = (await this.client.powerOperation([id], op, true, o.signal))[0];
    if (r?.state === "FAILED") throw powerFailed(op, id, r.message);
  }

  private waitUp(d: BcmDevice, o: OperationOptions): Promise<Outcome> {
    return this.poll<Outcome>(o, async () => {
      const s = await this.status(d.uuid, o.signal);
      if (s?.status === "UP") return { kind: "complete", facts: await this.readDevice(d, o.signal) };
      if (s?.status === "INSTALLER_FAILED" || s?.closed) {
        const facts = await this.readDevice(d, o.signal);
        return { kind: "failed", facts, message: s.infoMessage || s.userMessage || `the node is ${s.status}` };
      }
      return undefined;
    });
  }

  /** Polls `step` at the operation's pace (the adapter's by default) until it answers. */
  private poll<T>(o: OperationOptions, step: (elapsedMs: number) => Promise<T | undefined>): Promise<T> {
    return pollUntil({ pollMs: o.pollMs ?? this.pollMs, signal: o.signal }, step);
  }

  private async status(id: string, signal?: AbortSignal): Promise<BcmDeviceStatus | undefined> {
    return (await this.client.statuses([id], signal)).find((s) => s.uuid === id);
  }

  private async statusMap(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, BcmDeviceStatus>> {
    return new Map((await this.client.statuses(ids, signal)).map((s) => [s.uuid, s]));
  }

  private async imageNames(signal?: AbortSignal): Promise<Map<string, string>> {
    return new Map((await this.client.softwareImages(signal)).map((i) => [i.uuid, i.name]));
  }

  private async readDevice(d: BcmDevice, signal?: AbortSignal): Promise<MachineFacts> {
    const fresh = (await this.client.getDevice(d.uuid, signal)) ?? d;
    return this.factsOf(fresh, await this.status(d.uuid, signal), await this.imageNames(signal));
  }

  private factsOf(d: BcmDevice, s: BcmDeviceStatus | undefined, images: Map<string, string>): MachineFacts {
    const name = s?.installedSoftwareImage || (d.softwareImage ? (images.get(d.softwareImage) ?? "") : "");
    return bcmFacts(d, s, name);
  }

  private async categoryUuid(signal?: AbortSignal): Promise<string> {
    const want = this.category ?? "default";
    const cats = await this.client.categories(signal);
    const c = cats.find((x) => x.name === want || x.uuid === want);
    if (!c) throw new BcmError("RACKFORM_ERR_BCM_NOT_FOUND", `BCM has no category "${want}" (bcm.category)`);
    return c.uuid;
  }
}
