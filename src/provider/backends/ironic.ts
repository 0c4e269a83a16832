/**
 * The Ironic adapter of the backend seam: a node with the redfish driver, driven manage → inspect → provide to
 * available. Each step is chosen from the state the node is in now (a state → step table, as metal3's host state
 * machine), so a run interrupted anywhere resumes where it stopped.
 */

import { isNotFound, unlessNotFound } from "../../clients/classify.js";
import type { PollSpec } from "../../clients/http/poll.js";
import { type IronicClient, IronicError, type IronicNode, type JsonPatchOp } from "../../clients/ironic/index.js";
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
import { acceptanceStep, lastEvidence } from "./ironic-acceptance.js";
import {
  COMMISSION_STEP,
  DELETABLE,
  FIELDS,
  FOREVER_MS,
  facts,
  isProvisionFailure,
  MANAGE_FIRST,
  MAX_STEPS,
  outOfService,
  PAST_AVAILABLE,
  SHARED_FIELDS,
  UNDEPLOY_FIRST,
} from "./ironic-states.js";
import { ironicHostPower, ironicPowerCycle, ironicPowerOn, ironicPowerState } from "./power.js";
import { ironicNoteRemedy, ironicRemedyOf } from "./remedy-marks.js";

/** The deploy (IPA) kernel and ramdisk URLs every node gets in driver_info (the provider's ironic block). */
export interface IronicDeployImages {
  readonly kernel: string;
  readonly ramdisk: string;
}

/** A Backend over one Ironic API. */
export class IronicBackend implements Backend {
  readonly name = "ironic" as const;
  private readonly pollMs: PollSpec;
  private readonly deployImages: IronicDeployImages | undefined;

  constructor(
    private readonly client: IronicClient,
    opts: { readonly pollMs?: PollSpec; readonly deployImages?: IronicDeployImages } = {},
  ) {
    this.pollMs = opts.pollMs ?? DEFAULT_TIMINGS.backendPollMs;
    this.deployImages = opts.deployImages;
  }

  async find(identity: NodeIdentity, signal?: AbortSignal): Promise<FoundMachine | undefined> {
    const [nodes, ports] = await Promise.all([
      this.client.listNodes({ fields: FIELDS, signal }),
      this.client.extras.listPorts({ signal }),
    ]);
    const macs = new Set(identity.macs.map(normalMac));
    const bmc = bmcOrigin(identity.bmcAddress);
    const portsOf = new Map<string, string[]>();
    for (const p of ports) if (p.nodeUuid) portsOf.set(p.nodeUuid, [...(portsOf.get(p.nodeUuid) ?? []), p.address]);
    const candidates = [];
    for (const n of nodes) {
      const nodeMacs = portsOf.get(n.uuid) ?? [];
      const matchedBy: FoundMachine["matchedBy"][number][] = [];
      if (n.name === identity.name) matchedBy.push("name");
      if (nodeMacs.some((m) => macs.has(normalMac(m)))) matchedBy.push("mac");
      const addr = n.driverInfo?.redfish_address;
      if (typeof addr === "string" && bmcOrigin(addr) === bmc) matchedBy.push("bmc");
      if (matchedBy.length > 0) candidates.push({ facts: facts(n, nodeMacs), matchedBy });
    }
    return pickOne("ironic", candidates);
  }

  async enroll(spec: EnrollSpec, signal?: AbortSignal): Promise<string> {
    const n = await this.client.createNode(
      {
        name: spec.name,
        driver: "redfish",
        resourceClass: spec.resourceClass,
        driverInfo: {
          redfish_address: spec.bmcAddress,
          redfish_username: spec.bmcUsername,
          redfish_password: spec.bmcPassword,
          redfish_verify_ca: !spec.bmcInsecure,
          // Known from the start: provide's automated cleaning boots the deploy ramdisk (without a conductor default
          // in ironic.conf, a node lacking them ends in clean failed + maintenance).
          ...(this.deployImages && {
            deploy_kernel: this.deployImages.kernel,
            deploy_ramdisk: this.deployImages.ramdisk,
          }),
        },
      },
      signal,
    );
    // Ports let find() match by MAC before inspection has run; inspection adds the NICs not listed here.
    for (const mac of spec.macs) await this.client.extras.createPort({ nodeUuid: n.uuid, address: mac }, signal);
    return n.uuid;
  }

  /** The BMC's address and credentials in driver_info (a rotated password, a re-addressed BMC). */
  async setPowerCredentials(id: string, c: PowerCredentials, signal?: AbortSignal): Promise<void> {
    // "add" replaces a member that exists (RFC 6902), and sets one that does not.
    await this.client.updateNode(
      id,
      [
        { op: "add", path: "/driver_info/redfish_address", value: c.bmcAddress },
        { op: "add", path: "/driver_info/redfish_username", value: c.bmcUsername },
        { op: "add", path: "/driver_info/redfish_password", value: c.bmcPassword },
      ],
      signal,
    );
  }

  /**
   * Writes the provider's deploy kernel/ramdisk into a node's driver_info when it holds others (the node must not be
   * in a transition). Without configured images nothing is written: the conductor's defaults apply.
   */
  async setDeployImages(id: string, signal?: AbortSignal): Promise<void> {
    if (!this.deployImages) return;
    await this.writeDeployImages(await this.client.getNode(id, { fields: FIELDS, signal }), signal);
  }

  private async writeDeployImages(n: IronicNode, signal?: AbortSignal): Promise<void> {
    const want = this.deployImages;
    const have = n.driverInfo ?? {};
    if (!want || (have.deploy_kernel === want.kernel && have.deploy_ramdisk === want.ramdisk)) return;
    await this.client.updateNode(
      n.uuid,
      [
        { op: "add", path: "/driver_info/deploy_kernel", value: want.kernel },
        { op: "add", path: "/driver_info/deploy_ramdisk", value: want.ramdisk },
      ],
      signal,
    );
  }

  async commission(id: string, o: OperationOptions): Promise<Outcome> {
    let inspected = false;
    let expected: string | undefined;
    for (let step = 0; step < MAX_STEPS; step++) {
      const n = await this.settle(id, o);
      if (n.kind === "failed") return n;
      const ps = n.node.provisionState ?? "";
      if (n.node.maintenance) {
        return this.failed(n.node, `the node is in maintenance (${n.node.maintenanceReason ?? "no reason given"})`, o);
      }
      // A transition can fail before the first poll sees it; only a state found at the start is repaired.
      if (expected !== undefined && ps !== expected) {
        const why = n.node.lastError ? `: ${n.node.lastError}` : "";
        return this.failed(n.node, `node ${n.node.name ?? id} settled in ${ps} instead of ${expected}${why}`, o);
      }
      if (PAST_AVAILABLE.has(ps)) return { kind: "complete", facts: await this.factsOf(n.node, o.signal) };
      const target = COMMISSION_STEP.get(ps)?.(inspected);
      if (!target) return this.failed(n.node, `the node is ${ps}; rackform does not commission nodes from there`, o);
      // An adopted node (or one enrolled before the images were configured) gets them before its cleaning.
      if (target === "provide") await this.writeDeployImages(n.node, o.signal);
      o.log.info("Ironic provision transition", { backend: "ironic", id, name: n.node.name, from: ps, target });
      await this.client.setProvisionState(id, target, { signal: o.signal });
      if (target === "inspect") inspected = true;
      expected = target === "provide" ? "available" : "manageable";
    }
    throw new IronicError(
      "RACKFORM_ERR_IRONIC_PROVISION_FAILED",
      `node ${id} did not become available in ${MAX_STEPS} transitions`,
    );
  }

  async read(id: string, signal?: AbortSignal): Promise<MachineFacts | undefined> {
    // One shared node list and port list serve every read of a refresh; a node they cannot answer for is read directly.
    const listed = await this.client.nodes.get(id, SHARED_FIELDS);
    const macs = listed && (await this.client.nodes.macsOf(listed));
    if (listed && macs) return facts(listed, macs);
    return unlessNotFound(this.client.getNode(id, { fields: FIELDS, signal }).then((n) => this.factsOf(n, signal)));
  }

  async remove(id: string, o: OperationOptions): Promise<void> {
    for (let step = 0; step < MAX_STEPS; step++) {
      let n: IronicNode;
      try {
        const s = await this.settle(id, o);
        n = s.kind === "failed" ? await this.client.getNode(id, { fields: FIELDS, signal: o.signal }) : s.node;
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      const ps = n.provisionState ?? "";
      if (n.maintenance || DELETABLE.has(ps)) {
        o.log.info("deleting the node from Ironic", { backend: "ironic", id, name: n.name, from: ps });
        await this.client.deleteNode(id, o.signal);
        return;
      }
      const target = UNDEPLOY_FIRST.has(ps) ? "deleted" : MANAGE_FIRST.has(ps) ? "manage" : undefined;
      if (!target) {
        throw new IronicError(
          "RACKFORM_ERR_IRONIC_CONFLICT",
          `node ${id} is ${ps}; rackform cannot delete it from there`,
        );
      }
      o.log.info("Ironic provision transition before delete", { backend: "ironic", id, from: ps, target });
      await this.client.setProvisionState(id, target, { signal: o.signal });
    }
    throw new IronicError("RACKFORM_ERR_IRONIC_CONFLICT", `node ${id} could not be brought to a deletable state`);
  }

  async deploy(id: string, o: DeployOptions): Promise<Outcome> {
    const s = await this.settle(id, o);
    if (s.kind === "failed") return s;
    const n = s.node;
    const wanted = imageLabel("ironic", o.image);
    const ps = n.provisionState ?? "";
    if (n.maintenance) return this.failed(n, `the node is in maintenance (${n.maintenanceReason ?? "no reason"})`, o);
    if (ps === "active") {
      // A re-apply after a crash finds its own deployment; any other image was put there by someone else.
      const f = await this.factsOf(n, o.signal);
      if (f.image === wanted) return { kind: "complete", facts: f, found: true };
      return {
        kind: "failed",
        facts: f,
        message: `the node is active with ${f.image || "an unknown image"}, not ${wanted}`,
      };
    }
    if (ps !== "available") {
      const why = n.lastError ? ` (${n.lastError})` : "";
      return this.failed(n, `the node is ${ps}${why}; rackform deploys only available nodes`, o);
    }
    if (!o.image.url) return this.failed(n, "Ironic deploys from image.url (instance_info.image_source); set it", o);
    const hash = o.image.sha256.toLowerCase();
    const patch: JsonPatchOp[] = [
      { op: "add", path: "/instance_info/image_source", value: o.image.url },
      { op: "add", path: "/instance_info/image_checksum", value: hash },
      { op: "add", path: "/instance_info/image_os_hash_algo", value: "sha256" },
      { op: "add", path: "/instance_info/image_os_hash_value", value: hash },
    ];
    if (o.image.deployKernel)
      patch.push({ op: "add", path: "/driver_info/deploy_kernel", value: o.image.deployKernel });
    if (o.image.deployRamdisk) {
      patch.push({ op: "add", path: "/driver_info/deploy_ramdisk", value: o.image.deployRamdisk });
    }
    await this.client.updateNode(id, patch, o.signal);
    o.log.info("deploying the node in Ironic", { backend: "ironic", id, name: n.name, image: wanted });
    await this.client.setProvisionState(id, "active", {
      configdrive: o.userData === undefined ? undefined : { user_data: o.userData },
      signal: o.signal,
    });
    return this.settleIn(id, "active", o);
  }

  async release(id: string, o: ReleaseOptions): Promise<Outcome | undefined> {
    for (let step = 0; step < MAX_STEPS; step++) {
      let n: IronicNode;
      try {
        // A failed deploy leaves its target set; what counts is the state the node ended in.
        const s = await this.settle(id, o);
        n = s.kind === "failed" ? await this.client.getNode(id, { fields: FIELDS, signal: o.signal }) : s.node;
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
      const ps = n.provisionState ?? "";
      if (ps === "available") return { kind: "complete", facts: await this.factsOf(n, o.signal) };
      if (n.maintenance && n.fault === "power failure") {
        // Ironic's own maintenance: its power sync cannot reach the BMC. Tear-down needs the BMC (power off, boot
        // the ramdisk for cleaning); starting it now would end in a failed clean. Nothing is changed.
        const name = n.name ?? id;
        const message = `the BMC of ${name} does not answer: Ironic's power sync put the node in maintenance (power failure), and undeploying needs the BMC`;
        return {
          kind: "failed",
          facts: await this.factsOf(n, o.signal),
          message,
          fix: `bring ${name}'s BMC back (its PDU outlet on, its network reachable); Ironic ends that maintenance itself once the BMC answers. Then apply again: the undeploy goes on from there. Nothing was changed.`,
        };
      }
      if (ps === "service failed" && !n.maintenance) {
        // A failed gate (a service step) leaves the node here, and Ironic undeploys only from active: abort first.
        o.log.info("ending a failed service step before undeploying", { backend: "ironic", id });
        await this.client.setProvisionState(id, "abort", { signal: o.signal });
        const back = await this.settleIn(id, "active", o);
        if (back.kind === "failed") return back;
        continue;
      }
      if (!UNDEPLOY_FIRST.has(ps) || n.maintenance) {
        const why = n.maintenance ? `in maintenance (${n.maintenanceReason ?? "no reason"})` : ps;
        return this.failed(n, `the node is ${why}; rackform undeploys only active or failed nodes`, o);
      }
      // Tear-down runs Ironic's automated cleaning (disk erase per the conductor's settings) on the way to available.
      o.log.info("undeploying the node (with cleaning)", { backend: "ironic", id, from: ps, erase: o.erase });
      await this.client.setProvisionState(id, "deleted", { signal: o.signal });
      const out = await this.settleIn(id, "available", o);
      if (out.kind === "failed") return out;
    }
    throw new IronicError("RACKFORM_ERR_IRONIC_CONFLICT", `node ${id} did not become available`);
  }

  async runAcceptance(id: string, o: AcceptanceOptions): Promise<AcceptanceRun> {
    const s = await this.settle(id, o);
    let n = s.kind === "failed" ? await this.client.getNode(id, { fields: FIELDS, signal: o.signal }) : s.node;
    if (outOfService(n)) {
      // Re-running the gate is the way back into service, whoever set maintenance: the gate decides.
      const byHand = !(n.maintenanceReason ?? "").startsWith(QUARANTINE_PREFIX);
      const why = byHand
        ? `put in maintenance by hand (${n.maintenanceReason ?? "no reason"})`
        : "quarantined by rackform";
      o.log.warn(`node ${id} was ${why}: running the acceptance gate to return it to service`, {
        backend: "ironic",
        id,
      });
      await this.client.setMaintenance(id, false, undefined, o.signal);
    }
    if (n.provisionState === "service failed") {
      await this.client.setProvisionState(id, "abort", { signal: o.signal });
      const back = await this.settleIn(id, "active", o);
      if (back.kind === "failed") return { outcome: back };
      n = await this.client.getNode(id, { fields: FIELDS, signal: o.signal });
    }
    if (n.provisionState !== "active") {
      const why = `the node is ${n.provisionState}; the gate runs as a service step on an active (deployed) node`;
      return { outcome: await this.failed(n, why, o) };
    }
    o.log.info("running the acceptance gate as an Ironic service step", { backend: "ironic", id, params: o.params });
    await this.client.setProvisionState(id, "service", { serviceSteps: [acceptanceStep(o.params)], signal: o.signal });
    const outcome = await this.settleIn(id, "active", o);
    // Read directly: the step just finished, and a shared list may predate it.
    return { outcome, evidence: lastEvidence(await this.client.getNode(id, { signal: o.signal })) };
  }

  async lastAcceptance(id: string, signal?: AbortSignal): Promise<AcceptanceEvidence | undefined> {
    const listed = await this.client.nodes.get(id, SHARED_FIELDS);
    return lastEvidence(listed ?? (await this.client.getNode(id, { signal })));
  }

  noteRemedy(id: string, mark: string, signal?: AbortSignal): Promise<void> {
    return ironicNoteRemedy(this.client, id, mark, signal);
  }

  async lastRemedy(id: string, signal?: AbortSignal): Promise<string | undefined> {
    const listed = await this.client.nodes.get(id, SHARED_FIELDS);
    return ironicRemedyOf((listed ?? (await this.client.getNode(id, { signal }))).extra);
  }

  async powerState(id: string, signal?: AbortSignal): Promise<HostPower> {
    // The power state Ironic's conductor keeps in sync, from the list a refresh shares (one list for every node);
    // the same value a GET of the node returns.
    const listed = await this.client.nodes.get(id, SHARED_FIELDS);
    return listed ? ironicHostPower(listed) : ironicPowerState(this.client, id, signal);
  }

  powerOn(id: string, o: OperationOptions): Promise<void> {
    return ironicPowerOn(this.client, id, o, this.pollMs);
  }

  powerCycle(id: string, o: OperationOptions): Promise<void> {
    return ironicPowerCycle(this.client, id, o, this.pollMs);
  }

  async quarantine(id: string, reason: string, signal?: AbortSignal): Promise<void> {
    const n = await this.client.getNode(id, { fields: FIELDS, signal });
    if (n.maintenance) return;
    await this.client.setMaintenance(id, true, reason, signal);
  }

  async liftQuarantine(id: string, signal?: AbortSignal): Promise<boolean> {
    let n: IronicNode;
    try {
      n = await this.client.getNode(id, { fields: FIELDS, signal });
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
    if (!n.maintenance || !(n.maintenanceReason ?? "").startsWith(QUARANTINE_PREFIX)) return false;
    await this.client.setMaintenance(id, false, undefined, signal);
    return true;
  }

  /** Waits for the transition just requested; anywhere but `target` is a failed outcome with last_error. */
  private async settleIn(id: string, target: string, o: OperationOptions): Promise<Outcome> {
    const s = await this.settle(id, o);
    if (s.kind === "failed") return s;
    const ps = s.node.provisionState ?? "";
    if (ps === target && !outOfService(s.node))
      return { kind: "complete", facts: await this.factsOf(s.node, o.signal) };
    const why = s.node.lastError ? `: ${s.node.lastError}` : "";
    return this.failed(s.node, `node ${s.node.name ?? id} settled in ${ps} instead of ${target}${why}`, o);
  }

  /** Waits until no transition is pending; a transition that fails becomes a failed outcome. */
  private async settle(
    id: string,
    o: OperationOptions,
  ): Promise<{ kind: "settled"; node: IronicNode } | Extract<Outcome, { kind: "failed" }>> {
    const n = await this.client.getNode(id, { fields: FIELDS, signal: o.signal });
    if (!n.targetProvisionState) return { kind: "settled", node: n };
    try {
      await this.client.waitForProvisionState(id, n.targetProvisionState, {
        timeoutMs: FOREVER_MS,
        pollMs: o.pollMs ?? this.pollMs,
        signal: o.signal,
        onProgress: (x) =>
          o.log.info("Ironic node provision state", {
            backend: "ironic",
            id,
            name: x.name,
            state: x.provisionState,
            target: x.targetProvisionState,
          }),
      });
    } catch (e) {
      if (!isProvisionFailure(e)) throw e;
      const now = await this.client.getNode(id, { fields: FIELDS, signal: o.signal });
      return { kind: "failed", facts: await this.factsOf(now, o.signal), message: e.message };
    }
    return { kind: "settled", node: await this.client.getNode(id, { fields: FIELDS, signal: o.signal }) };
  }

  private async failed(n: IronicNode, message: string, o: OperationOptions): Promise<Outcome> {
    return { kind: "failed", facts: await this.factsOf(n, o.signal), message };
  }

  private async factsOf(n: IronicNode, signal?: AbortSignal): Promise<MachineFacts> {
    const ports = await this.client.extras.listPorts({ node: n.uuid, signal });
    return facts(
      n,
      ports.map((p) => p.address),
    );
  }
}
