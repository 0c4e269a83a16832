/**
 * An in-memory Backend (as metal3's fixture provisioner is for its controllers): machines by id with name, MACs and
 * BMC address, scriptable outcomes per machine name, and a record of every call. For the resources' adopt, taint and
 * ambiguity logic, tested in milliseconds without a lab: handed to a resource through its deps (`machineDeps`,
 * `deploymentDeps`, … replaced in tests).
 */
import {
  type AcceptanceEvidence,
  type AcceptanceRun,
  type Backend,
  type BackendName,
  bmcOrigin,
  type DeployOptions,
  type EnrollSpec,
  type FoundMachine,
  type HostPower,
  imageLabel,
  type MachineFacts,
  type MachineState,
  type NodeIdentity,
  normalMac,
  type Outcome,
  type PowerCredentials,
  pickOne,
} from "../../src/provider/backends/backend.js";

/** A machine the fake holds. */
export interface FakeMachine {
  id: string;
  name: string;
  macs: string[];
  bmcAddress: string;
  state: MachineState;
  status: string;
  message: string;
  image: string;
  /** The host's power; "unknown" as when its BMC does not answer. @default "off" */
  power?: HostPower;
  /** The BMC credentials the fake was given (enroll, setPowerCredentials). */
  bmcUsername?: string;
  bmcPassword?: string;
}

export class FakeBackend implements Backend {
  readonly machines = new Map<string, FakeMachine>();
  /** Every call, as "method id-or-name". */
  readonly calls: string[] = [];
  /** Machine names whose next commission fails, with the backend's message. */
  readonly failCommission = new Map<string, string>();
  private next = 1;

  constructor(readonly name: BackendName = "maas") {}

  /** Adds a machine as a crashed run (or an operator) left it. */
  seed(m: Partial<FakeMachine> & { name: string }): FakeMachine {
    const full: FakeMachine = {
      id: `fake-${this.next++}`,
      macs: [],
      bmcAddress: "",
      state: "enrolled",
      status: "New",
      message: "",
      image: "",
      ...m,
    };
    full.macs = full.macs.map(normalMac);
    this.machines.set(full.id, full);
    return full;
  }

  facts(m: FakeMachine): MachineFacts {
    return {
      id: m.id,
      name: m.name,
      state: m.state,
      status: m.status,
      message: m.message,
      macs: [...m.macs].sort(),
      power: m.power ?? "off",
      image: m.image,
    };
  }

  async find(identity: NodeIdentity): Promise<FoundMachine | undefined> {
    this.calls.push(`find ${identity.name}`);
    const macs = new Set(identity.macs.map(normalMac));
    const candidates: { facts: MachineFacts; matchedBy: FoundMachine["matchedBy"] }[] = [];
    for (const m of this.machines.values()) {
      const by: ("name" | "mac" | "bmc")[] = [];
      if (m.name === identity.name) by.push("name");
      if (m.macs.some((x) => macs.has(x))) by.push("mac");
      if (m.bmcAddress && bmcOrigin(m.bmcAddress) === bmcOrigin(identity.bmcAddress)) by.push("bmc");
      if (by.length > 0) candidates.push({ facts: this.facts(m), matchedBy: by });
    }
    return pickOne(this.name, candidates);
  }

  async enroll(spec: EnrollSpec): Promise<string> {
    this.calls.push(`enroll ${spec.name}`);
    return this.seed({
      name: spec.name,
      macs: [...spec.macs],
      bmcAddress: spec.bmcAddress,
      bmcUsername: spec.bmcUsername,
      bmcPassword: spec.bmcPassword,
    }).id;
  }

  async setPowerCredentials(id: string, c: PowerCredentials): Promise<void> {
    this.calls.push(`setPowerCredentials ${id}`);
    Object.assign(this.get(id), { bmcAddress: c.bmcAddress, bmcUsername: c.bmcUsername, bmcPassword: c.bmcPassword });
  }

  async commission(id: string): Promise<Outcome> {
    this.calls.push(`commission ${id}`);
    const m = this.get(id);
    const fail = this.failCommission.get(m.name);
    if (fail !== undefined) {
      this.failCommission.delete(m.name);
      Object.assign(m, { state: "failed", status: "Failed commissioning", message: fail });
      return { kind: "failed", facts: this.facts(m), message: fail };
    }
    Object.assign(m, { state: "ready", status: "Ready", message: "" });
    return { kind: "complete", facts: this.facts(m) };
  }

  async read(id: string): Promise<MachineFacts | undefined> {
    this.calls.push(`read ${id}`);
    const m = this.machines.get(id);
    return m && this.facts(m);
  }

  async remove(id: string): Promise<void> {
    this.calls.push(`remove ${id}`);
    this.machines.delete(id);
  }

  async deploy(id: string, o: DeployOptions): Promise<Outcome> {
    this.calls.push(`deploy ${id}`);
    const m = this.get(id);
    // A re-apply after a crash finds its own deployment: nothing is deployed or booted again.
    if (m.state === "deployed" && m.image === imageLabel(this.name, o.image))
      return { kind: "complete", facts: this.facts(m), found: true };
    Object.assign(m, {
      state: "deployed",
      status: "Deployed",
      image: imageLabel(this.name, o.image),
      power: "on",
    });
    return { kind: "complete", facts: this.facts(m) };
  }

  async release(id: string): Promise<Outcome | undefined> {
    this.calls.push(`release ${id}`);
    const m = this.machines.get(id);
    if (!m) return undefined;
    Object.assign(m, { state: "ready", status: "Ready", image: "", power: "off" });
    this.remedies.delete(id);
    return { kind: "complete", facts: this.facts(m) };
  }

  async runAcceptance(id: string): Promise<AcceptanceRun> {
    this.calls.push(`runAcceptance ${id}`);
    return { outcome: { kind: "complete", facts: this.facts(this.get(id)) } };
  }

  /** The latest gate evidence by machine id, as lastAcceptance answers it (none unless a test sets it). */
  readonly evidence = new Map<string, AcceptanceEvidence>();

  async lastAcceptance(id: string): Promise<AcceptanceEvidence | undefined> {
    return this.evidence.get(id);
  }

  /** The remedy marks by machine id (noteRemedy); a release drops a machine's, as MAAS drops its owner data. */
  readonly remedies = new Map<string, string>();

  async noteRemedy(id: string, mark: string): Promise<void> {
    this.calls.push(`noteRemedy ${id}`);
    this.remedies.set(id, mark);
  }

  async lastRemedy(id: string): Promise<string | undefined> {
    return this.remedies.get(id);
  }

  async powerState(id: string): Promise<HostPower> {
    this.calls.push(`powerState ${id}`);
    return this.get(id).power ?? "off";
  }

  async powerOn(id: string): Promise<void> {
    this.calls.push(`powerOn ${id}`);
    this.get(id).power = "on";
  }

  async powerCycle(id: string): Promise<void> {
    this.calls.push(`powerCycle ${id}`);
    this.get(id).power = "on";
  }

  async quarantine(id: string, reason: string): Promise<void> {
    this.calls.push(`quarantine ${id}`);
    Object.assign(this.get(id), { state: "broken", status: "Broken", message: reason });
  }

  async liftQuarantine(id: string): Promise<boolean> {
    this.calls.push(`liftQuarantine ${id}`);
    const m = this.machines.get(id);
    if (m?.status !== "Broken" || !m.message?.startsWith("rackform acceptance failed")) return false;
    Object.assign(m, { state: "deployed", status: "Deployed", message: "" });
    return true;
  }

  private get(id: string): FakeMachine {
    const m = this.machines.get(id);
    if (!m) throw new Error(`fake backend has no machine ${id}`);
    return m;
  }
}
