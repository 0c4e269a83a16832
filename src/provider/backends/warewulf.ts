/**
 * The Warewulf adapter of the backend seam (warewulfd's REST API, Warewulf ≥ 4.6.1). A machine is a Warewulf node
 * whose id is the node's name: enroll defines it with rackform's profile, its network devices (boot NIC first) and
 * its BMC in the ipmi block; commission boots it from the network once so warewulfd has seen it; deploy sets the image
 * (imported from a docker:// URL when Warewulf lacks it) and overlays, builds the node's overlays, boots it through
 * rackform's Redfish path (Warewulf's API has no power) and waits until GET /status shows it at runtime, seen after
 * that boot. Quarantine is a node tag that rackform's scheduler joins (and the lab's) respect. The acceptance gate is
 * rackform's convention on top of Warewulf, not a Warewulf feature: the runtime overlay `rackform-acceptance` and a
 * request tag, the node writing its result back as a tag (see warewulf-acceptance.ts and runAcceptance).
 */
import { isConflict } from "../../clients/classify.js";
import type { PollSpec } from "../../clients/http/poll.js";
import type {
  WarewulfClient,
  WarewulfNode,
  WarewulfNodeFields,
  WarewulfNodeStatus,
} from "../../clients/warewulf/index.js";
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
  imageLabel,
  type MachineFacts,
  type NodeIdentity,
  normalMac,
  type OperationOptions,
  type Outcome,
  type PowerCredentials,
  pickOne,
  QUARANTINE_PREFIX,
  type ReleaseOptions,
} from "./backend.js";
import { pollUntil } from "./poll.js";
import { warewulfLastRemedy, warewulfNoteRemedy } from "./remedy-marks.js";
import {
  consumedFields,
  type GateRequest,
  type GateResult,
  newRequest,
  requestOf,
  resultMessage,
  resultOf,
  sameGate,
  startFields,
  WAREWULF_ACCEPTANCE,
} from "./warewulf-acceptance.js";
import { bmcOf, ipmiOf, type RedfishFactory, WarewulfPower } from "./warewulf-power.js";
import { bootFailed, facts, TAG, warewulfImageName } from "./warewulf-states.js";

/** Options of the adapter. */
export interface WarewulfBackendOptions {
  /** How rackform reaches a node's BMC (the provider's Redfish clients). */
  readonly redfish: RedfishFactory;
  /** Profile every enrolled node gets. @default "default" */
  readonly profile?: string;
  /** Overlays a deployment sets (Warewulf adds its profiles' ones). @default none beyond the profiles' */
  readonly systemOverlays?: readonly string[];
  readonly runtimeOverlays?: readonly string[];
  readonly pollMs?: PollSpec;
  /** Registers a secret (a BMC password) with the provider's redactor. */
  readonly redact?: (secret: string) => void;
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

/** A Backend over one warewulfd. */
export class WarewulfBackend implements Backend {
  readonly name = "warewulf" as const;
  private readonly pollMs: PollSpec;
  private readonly power: WarewulfPower;
  private readonly profile: string;

  constructor(
    private readonly client: WarewulfClient,
    private readonly opts: WarewulfBackendOptions,
  ) {
    this.pollMs = opts.pollMs ?? DEFAULT_TIMINGS.backendPollMs;
    this.power = new WarewulfPower(opts.redfish, this.pollMs);
    this.profile = opts.profile ?? "default";
  }

  async find(identity: NodeIdentity, signal?: AbortSignal): Promise<FoundMachine | undefined> {
    const [nodes, status] = await Promise.all([this.client.listNodes(signal), this.client.status(signal)]);
    const macs = new Set(identity.macs.map(normalMac));
    const bmc = bmcOrigin(identity.bmcAddress);
    const candidates = [];
    for (const n of nodes) {
      const matchedBy: FoundMachine["matchedBy"][number][] = [];
      if (n.id === identity.name) matchedBy.push("name");
      if (n.macs.some((m) => macs.has(m))) matchedBy.push("mac");
      const addr = bmcOf(n)?.bmcAddress;
      if (addr && bmcOrigin(addr) === bmc) matchedBy.push("bmc");
      if (matchedBy.length > 0) candidates.push({ facts: facts(n, status.nodes.get(n.id)), matchedBy });
    }
    return pickOne("warewulf", candidates);
  }

  async enroll(spec: EnrollSpec, signal?: AbortSignal): Promise<string> {
    this.opts.redact?.(spec.bmcPassword);
    const devices: Record<string, { hwaddr: string; device?: string }> = {};
    spec.macs.forEach((mac, i) => {
      devices[i === 0 ? "default" : `net${i}`] = { hwaddr: normalMac(mac) };
    });
    const node: WarewulfNodeFields = {
      profiles: [this.profile],
      "network devices": devices,
      ...(spec.macs.length > 0 ? { "primary network": "default" } : {}),
      ipmi: ipmiOf(spec),
    };
    try {
      await this.client.createNode(spec.name, node, signal);
    } catch (e) {
      // Defined meanwhile (a crashed run's create that did land): find-before-enroll would have found it.
      if (!isConflict(e)) throw e;
    }
    return spec.name;
  }

  async read(id: string, signal?: AbortSignal): Promise<MachineFacts | undefined> {
    const n = await this.client.getNode(id, { signal });
    if (!n) return undefined;
    return facts(n, (await this.client.status(signal)).nodes.get(id));
  }

  async commission(id: string, o: OperationOptions): Promise<Outcome> {
    const n = await this.mustNode(id, o.signal);
    let st = (await this.client.status(o.signal)).nodes.get(id);
    if ((st?.lastSeen ?? 0) > 0) return { kind: "complete", facts: facts(n, st) };
    const bmc = this.bmc(n);
    o.log.info("booting the node from the network once so warewulfd sees it", { id });
    await this.power.bootFromNetwork(bmc);
    st = await this.poll(o, async () => {
      const now = (await this.client.status(o.signal)).nodes.get(id);
      return (now?.lastSeen ?? 0) > 0 ? now : undefined;
    });
    // A node with no image yet stops after its iPXE script: switch it off again, as MAAS leaves a commissioned machine.
    await this.power.off(bmc);
    return { kind: "complete", facts: facts(await this.mustNode(id, o.signal), st) };
  }

  async deploy(id: string, o: DeployOptions): Promise<Outcome> {
    let n = await this.mustNode(id, o.signal);
    const label = imageLabel("warewulf", o.image);
    const image = warewulfImageName(o.image);
    const status = await this.client.status(o.signal);
    const now = facts(n, status.nodes.get(id));
    if (now.state === "deployed" && now.image === label) return { kind: "complete", facts: now };
    if (!(await this.client.getImage(image, o.signal))) {
      const url = o.image.url ?? "";
      if (!url.startsWith("docker://")) {
        return {
          kind: "failed",
          facts: now,
          message: `Warewulf has no image ${image}, and the image's url is not a docker:// URI it could import`,
          fix: `import it (wwctl image import <uri> ${image}) or give the image a docker:// url, then apply again`,
        };
      }
      o.log.info("importing and building the image in Warewulf", { id, image });
      await this.client.importImage(image, url, { signal: o.signal });
      await this.client.buildImage(image, { signal: o.signal });
    }
    const tags: Record<string, string> = { [TAG.state]: "deploying", [TAG.image]: label };
    if (o.userData) tags[TAG.userData] = b64(o.userData);
    n = await this.client.patchNode(
      id,
      {
        "image name": image,
        ...(this.opts.systemOverlays?.length ? { "system overlay": [...this.opts.systemOverlays] } : {}),
        ...(this.opts.runtimeOverlays?.length ? { "runtime overlay": [...this.opts.runtimeOverlays] } : {}),
        tags,
      },
      o.signal,
    );
    await this.client.buildNodeOverlays(id, o.signal);
    o.log.info("booting the node from the network through its BMC", { id, image });
    await this.power.bootFromNetwork(this.bmc(n));
    // Read warewulfd's clock after the reset: the old OS is gone, so nothing it sent can be newer than this.
    const since = (await this.client.status(o.signal)).serverTime ?? Math.floor(Date.now() / 1000);
    const st = await this.waitForBoot(id, since, o);
    if (bootFailed(st) || st?.stage !== "runtime") {
      return {
        kind: "failed",
        facts: facts(n, st),
        message: `the node stopped at stage ${st?.stage ?? "none"}: warewulfd sent ${st?.sent ?? "nothing"}`,
        fix: "check the image and overlays in Warewulf (wwctl node list -a), then apply again",
      };
    }
    n = await this.client.patchNode(id, { tags: { [TAG.state]: "deployed" } }, o.signal);
    return { kind: "complete", facts: facts(n, st) };
  }

  /**
   * Polls /status until the node reached runtime, or its boot stopped, in the boot after `since` (warewulfd's clock,
   * seconds, read after the reset). `last seen` has one-second resolution, so a runtime record of that same second
   * could still be the old OS's last wwclient fetch: it counts only once a boot stage of this boot was seen, or when
   * it is from a later second.
   */
  private async waitForBoot(id: string, since: number, o: OperationOptions): Promise<WarewulfNodeStatus | undefined> {
    let booting = false;
    return this.poll(o, async () => {
      const st = (await this.client.status(o.signal)).nodes.get(id);
      if (!st || st.lastSeen < since) return undefined;
      if (bootFailed(st)) return st;
      if (st.stage !== "runtime") booting = true;
      else if (booting || st.lastSeen > since) return st;
      return undefined;
    });
  }

  async release(id: string, o: ReleaseOptions): Promise<Outcome | undefined> {
    const raw = await this.client.getNode(id, { raw: true, signal: o.signal });
    if (!raw) return undefined;
    const tags = { ...(raw.fields.tags ?? {}) };
    if (tags[TAG.state] || raw.fields["image name"]) {
      // Stateless: nothing on disk to erase; the node stops running its image and forgets it (PATCH cannot clear).
      const bmc = bmcOf(raw);
      if (bmc) await this.power.off(bmc);
      delete tags[TAG.state];
      delete tags[TAG.image];
      delete tags[TAG.userData];
      const { "image name": _image, ...rest } = raw.fields;
      await this.client.putNode(id, { ...rest, tags }, o.signal);
    }
    const n = await this.mustNode(id, o.signal);
    return { kind: "complete", facts: facts(n, (await this.client.status(o.signal)).nodes.get(id)) };
  }

  async remove(id: string, o: OperationOptions): Promise<void> {
    const n = await this.client.getNode(id, { signal: o.signal });
    if (!n) return;
    const bmc = bmcOf(n);
    if (bmc && n.fields.tags?.[TAG.state]) await this.power.off(bmc).catch(() => undefined);
    await this.client.deleteNode(id, o.signal);
  }

  /**
   * Runs the gate as rackform's runtime overlay on the node (see warewulf-acceptance.ts): a pending request of the
   * same gate is taken up (still running: waited for; finished before a crash: its result read), never started twice.
   */
  async runAcceptance(id: string, o: AcceptanceOptions): Promise<AcceptanceRun> {
    let raw = await this.client.getNode(id, { raw: true, signal: o.signal });
    if (!raw) throw new WarewulfNodeGone(id);
    const held = raw.fields.tags?.[TAG.quarantine];
    if (held) {
      const byHand = !held.startsWith(QUARANTINE_PREFIX);
      o.log.warn(
        `node ${id} was ${byHand ? `tagged out of service by hand (${held})` : "quarantined by rackform"}: running the acceptance gate to return it to service`,
        { backend: "warewulf", id },
      );
      const { [TAG.quarantine]: _gone, ...tags } = raw.fields.tags ?? {};
      raw = await this.client.putNode(id, { ...raw.fields, tags }, o.signal);
    }
    let req: GateRequest | undefined = requestOf(raw.fields.tags);
    if (!req || !sameGate(req, o.params)) {
      const n = await this.mustNode(id, o.signal);
      const f = facts(n, (await this.client.status(o.signal)).nodes.get(id));
      if (f.state !== "deployed") {
        return { outcome: { kind: "failed", facts: f, message: `the node is ${f.status}; the gate runs at runtime` } };
      }
      if (!(await this.client.listOverlays(o.signal)).includes(WAREWULF_ACCEPTANCE.overlay)) {
        return {
          outcome: {
            kind: "failed",
            facts: f,
            message: `Warewulf has no overlay ${WAREWULF_ACCEPTANCE.overlay}, which runs rackform's gate on the node`,
            fix: `import rackform's runtime overlay (wwctl overlay import ${WAREWULF_ACCEPTANCE.overlay} …) and add its API user to auth.conf, then apply again`,
          },
        };
      }
      req = newRequest(o.params);
      o.log.info("running the acceptance gate as rackform's runtime overlay", {
        backend: "warewulf",
        id,
        run: req.run,
      });
      raw = await this.client.patchNode(id, startFields(raw.fields, req), o.signal);
      await this.client.buildNodeOverlays(id, o.signal);
    } else {
      o.log.info("taking up the acceptance run already requested", { backend: "warewulf", id, run: req.run });
    }
    const result = await this.waitForResult(id, req.run, o);
    const fresh = await this.client.getNode(id, { raw: true, signal: o.signal });
    if (fresh) await this.client.putNode(id, consumedFields(fresh.fields), o.signal);
    const n = await this.mustNode(id, o.signal);
    const f = facts(n, (await this.client.status(o.signal)).nodes.get(id));
    if (result.passed && result.evidence?.passed === true) {
      return { outcome: { kind: "complete", facts: f }, evidence: result.evidence };
    }
    return { outcome: { kind: "failed", facts: f, message: resultMessage(result) }, evidence: result.evidence };
  }

  /** Polls the node until its result tag names `run` (the signal ends the wait on timeout). */
  private async waitForResult(id: string, run: string, o: OperationOptions): Promise<GateResult> {
    return this.poll(o, async () => {
      const r = resultOf((await this.mustNode(id, o.signal)).fields.tags);
      return r?.run === run ? r : undefined;
    });
  }

  async lastAcceptance(id: string, signal?: AbortSignal): Promise<AcceptanceEvidence | undefined> {
    const n = await this.client.getNode(id, { raw: true, signal });
    return resultOf(n?.fields.tags)?.evidence;
  }

  noteRemedy(id: string, mark: string, signal?: AbortSignal): Promise<void> {
    return warewulfNoteRemedy(this.client, id, mark, signal);
  }

  lastRemedy(id: string, signal?: AbortSignal): Promise<string | undefined> {
    return warewulfLastRemedy(this.client, id, signal);
  }

  async powerState(id: string, signal?: AbortSignal): Promise<HostPower> {
    const n = await this.mustNode(id, signal);
    return this.power.state(this.bmc(n));
  }

  async powerOn(id: string, o: OperationOptions): Promise<void> {
    const n = await this.mustNode(id, o.signal);
    o.log.info("powering the host on through its BMC (Warewulf has no power API)", { id });
    await this.power.on(this.bmc(n), o.signal, o.pollMs);
  }

  async powerCycle(id: string, o: OperationOptions): Promise<void> {
    const n = await this.mustNode(id, o.signal);
    o.log.info("power cycling the host through its BMC, from the network (Warewulf has no power API)", { id });
    await this.power.cycle(this.bmc(n), o.signal, o.pollMs);
  }

  async setPowerCredentials(id: string, c: PowerCredentials, signal?: AbortSignal): Promise<void> {
    this.opts.redact?.(c.bmcPassword);
    await this.client.patchNode(id, { ipmi: ipmiOf(c) }, signal);
  }

  async quarantine(id: string, reason: string, signal?: AbortSignal): Promise<void> {
    const n = await this.mustNode(id, signal);
    if (n.fields.tags?.[TAG.quarantine] === reason) return;
    await this.client.patchNode(id, { tags: { [TAG.quarantine]: reason } }, signal);
  }

  async liftQuarantine(id: string, signal?: AbortSignal): Promise<boolean> {
    const raw = await this.client.getNode(id, { raw: true, signal });
    const reason = raw?.fields.tags?.[TAG.quarantine];
    if (!raw || !reason?.startsWith(QUARANTINE_PREFIX)) return false;
    const { [TAG.quarantine]: _gone, ...tags } = raw.fields.tags ?? {};
    await this.client.putNode(id, { ...raw.fields, tags }, signal);
    return true;
  }

  /** Polls `step` at the operation's pace (the adapter's by default) until it answers. */
  private poll<T>(o: OperationOptions, step: () => Promise<T | undefined>): Promise<T> {
    return pollUntil({ pollMs: o.pollMs ?? this.pollMs, signal: o.signal }, step);
  }

  private async mustNode(id: string, signal?: AbortSignal): Promise<WarewulfNode> {
    const n = await this.client.getNode(id, { signal });
    if (!n) throw new WarewulfNodeGone(id);
    return n;
  }

  private bmc(n: WarewulfNode): PowerCredentials {
    const c = bmcOf(n);
    if (!c) throw new WarewulfNodeGone(n.id, "has no BMC address and credentials in its ipmi block");
    return c;
  }
}

/** The node is not in Warewulf (or lacks what rackform stored at enroll). */
export class WarewulfNodeGone extends Error {
  override readonly name = "WarewulfNodeGone";
  readonly code = "RACKFORM_ERR_BACKEND_WAREWULF_NODE";
  constructor(id: string, what = "is not defined in Warewulf") {
    super(`Warewulf node ${id} ${what}; apply again to enroll it`);
  }
}
