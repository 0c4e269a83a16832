/**
 * Crash-resume of a 16-node rack under the real engines: the engine is SIGKILLed at several points of the apply,
 * chosen from what the lab's backend has done (first machine enrolled, commissioning under way, a deploy under way, an
 * acceptance gate under way), and each time the user simply runs `apply` again. Every run resumes from where the
 * killed one stopped (find-before-create), and in the end 16 nodes are joined with exactly 16 machines in the backend,
 * none duplicated, none allocated or deployed without a rackform_deployment tracking it, and the next plan is empty.
 *
 * One engine per backend keeps CI time sane: MAAS under Terraform, Ironic under OpenTofu (both engines' kill handling
 * is also covered by sigkill.test.ts). The kills are chained: the re-apply after one kill is the run killed at the
 * next point, and the last re-apply runs to the end. The local backend's state lock is an OS file lock that dies with
 * the engine, so the user's re-apply needs neither `force-unlock` nor `-lock=false` (checked: plain `apply`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAAS_STATUS, MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, type Engine, engine, type RunResult, type Workdir } from "../support/engines.js";
import { rackStack, type ShownResource, shownState, slurmNodes, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, providerPids, providersExited, testLab } from "../support/rackform-e2e.js";
import { until } from "../support/until.js";

const SLOW = { timeoutMs: 300_000, everyMs: 50 };

const NODES = 16;

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** What the lab's backend has done during the current run: status transitions and enrollments, in order. */
class BackendEvents {
  transitions: string[] = [];
  enrolled = 0;
  reset(): void {
    this.transitions = [];
    this.enrolled = 0;
  }
  count(to: string): number {
    return this.transitions.filter((t) => t === to).length;
  }
}

interface KillPoint {
  readonly what: string;
  /** True once the run has reached the point. */
  readonly reached: (e: BackendEvents) => boolean;
}

/** The kill points per backend, in the order an apply reaches them. */
const POINTS: Record<"maas" | "ironic", readonly KillPoint[]> = {
  maas: [
    { what: "right after the first machine is enrolled", reached: (e) => e.enrolled >= 1 },
    { what: "while machines are commissioning", reached: (e) => e.count("Commissioning") >= 3 },
    { what: "while a machine is deploying", reached: (e) => e.count("Deploying") >= 1 },
    { what: "while an acceptance gate runs", reached: (e) => e.count("Testing") >= 1 },
  ],
  ironic: [
    { what: "right after the first node is enrolled", reached: (e) => e.enrolled >= 1 },
    { what: "while nodes are inspected", reached: (e) => e.count("inspecting") >= 3 },
    { what: "while a node is deploying", reached: (e) => e.count("deploying") >= 1 },
    { what: "while an acceptance gate runs", reached: (e) => e.count("servicing") >= 1 },
  ],
};

/** Runs apply and SIGKILLs the engine once `point` is reached; resolves after its provider processes have exited. */
async function applyKilledAt(w: Workdir, events: BackendEvents, point: KillPoint): Promise<RunResult> {
  events.reset();
  let enginePid = 0;
  const run = w.run(["apply", "-auto-approve", "-no-color"], {
    onSpawn: (pid) => {
      enginePid = pid;
    },
  });
  let done = false;
  void run.then(() => {
    done = true;
  });
  const pids = await until(
    `the apply to reach the point "${point.what}"`,
    async () => {
      if (done) return [];
      if (!point.reached(events)) return undefined;
      const p = await providerPids(enginePid);
      return p.length > 0 ? p : undefined;
    },
    SLOW,
  );
  if (done) {
    const r = await run;
    throw new Error(`the apply ended (exit ${r.code}) before "${point.what}"\n${r.stdout}\n${r.stderr}`);
  }
  process.kill(enginePid, "SIGKILL");
  const r = await run;
  expect(r.signal).toBe("SIGKILL");
  await providersExited(pids, SLOW.timeoutMs);
  return r;
}

/** One machine of the backend, as the test compares them. */
interface BackendMachine {
  readonly id: string;
  readonly name: string;
  readonly macs: readonly string[];
  /** Taken by a deployment (MAAS Allocated/Deploying/Deployed; Ironic instance or allocation set, or deployed). */
  readonly taken: boolean;
}

async function maasMachines(lab: Lab): Promise<BackendMachine[]> {
  const client = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  try {
    const taken: number[] = [MAAS_STATUS.ALLOCATED, MAAS_STATUS.RESERVED, MAAS_STATUS.DEPLOYING, MAAS_STATUS.DEPLOYED];
    return (await client.listMachines()).map((m) => ({
      id: m.systemId,
      name: m.hostname,
      macs: m.macAddresses.map((x) => x.toLowerCase()),
      taken: taken.includes(m.status),
    }));
  } finally {
    await client.close();
  }
}

async function ironicGet(lab: Lab, path: string): Promise<Record<string, unknown>> {
  const r = await fetch(`${lab.info.ironic!.url}${path}`, { headers: { "X-OpenStack-Ironic-API-Version": "1.87" } });
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
}

async function ironicMachines(lab: Lab): Promise<{ machines: BackendMachine[]; allocations: unknown[] }> {
  const nodes = (await ironicGet(lab, "/v1/nodes?detail=true")).nodes as Record<string, unknown>[];
  const ports = (await ironicGet(lab, "/v1/ports?detail=true")).ports as { node_uuid: string; address: string }[];
  const allocations = (await ironicGet(lab, "/v1/allocations")).allocations as unknown[];
  const machines = nodes.map((n) => ({
    id: String(n.uuid),
    name: String(n.name),
    macs: ports.filter((p) => p.node_uuid === n.uuid).map((p) => p.address.toLowerCase()),
    taken:
      n.instance_uuid !== null ||
      n.allocation_uuid !== null ||
      ["deploying", "wait call-back", "active"].includes(String(n.provision_state)),
  }));
  return { machines, allocations };
}

/** Names or MACs held by more than one backend machine. */
function duplicates(machines: readonly BackendMachine[]): string[] {
  const seen = new Map<string, number>();
  for (const m of machines)
    for (const k of [`name ${m.name}`, ...m.macs.map((x) => `mac ${x}`)]) {
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

/** Backend machine ids tracked by a resource of `type` in state. */
function tracked(state: readonly ShownResource[], type: string): Set<string> {
  return new Set(state.filter((r) => r.type === type).map((r) => String(r.values.id).split(":")[1]));
}

const CASES: readonly ["maas" | "ironic", Engine["name"]][] = [
  ["maas", "terraform"],
  ["ironic", "tofu"],
];

describe.each(CASES.filter(([, e]) => ENGINES.includes(e)))(
  "crash-resume of a %s rack under %s",
  (backend, engineName) => {
    let lab: Lab;
    const events = new BackendEvents();
    beforeAll(async () => {
      // The demo profile gives each phase a few seconds of simulated work, so a kill can land inside it.
      lab = await testLab(NODES, "demo");
      await uploadGoldenImage(lab);
      const b = lab.backends!;
      if (backend === "maas") {
        b.maas.onStatusChange((_m, _from, to) => {
          events.transitions.push(label(to));
        });
      } else {
        b.ironic.onProvisionState((_n, _from, to) => {
          events.transitions.push(to);
        });
      }
    });
    afterAll(async () => {
      await lab?.close();
    });

    const label = (status: number) =>
      Object.entries(MAAS_STATUS)
        .find(([, v]) => v === status)![0]
        .toLowerCase()
        .replace(/^./, (c) => c.toUpperCase());

    /** Enrollments the backend accepted since `mark` (MAAS machine creates, Ironic node creates). */
    function enrolledSince(mark: number): number {
      const b = lab.backends!;
      return backend === "maas"
        ? b.maas.requests
            .slice(mark)
            .filter((r) => r.method === "POST" && /\/machines\/?$/.test(r.path) && !r.op)
            .filter((r) => r.status < 300).length
        : b.ironic.requests
            .slice(mark)
            .filter((r) => r.method === "POST" && /\/v1\/nodes\/?$/.test(r.path))
            .filter((r) => r.status < 300).length;
    }
    const requestMark = () =>
      backend === "maas" ? lab.backends!.maas.requests.length : lab.backends!.ironic.requests.length;

    async function backendMachines(): Promise<BackendMachine[]> {
      return backend === "maas" ? maasMachines(lab) : (await ironicMachines(lab)).machines;
    }

    it(`SIGKILL at ${POINTS[backend].length} points of a ${NODES}-node apply; each re-apply resumes, and the rack converges with no duplicate machines and no orphaned allocations`, async () => {
      const nodes = lab.info.nodes.map((n) => n.name);
      expect(nodes).toHaveLength(NODES);
      const w = await rackStack(engine(engineName), cliConfig, lab, backend, nodes);
      await w.ok(["init", "-no-color"]);

      const start = requestMark();
      for (const point of POINTS[backend]) {
        // WHEN the engine is killed at the point (enrollments are counted from the lab's request log)
        const mark = requestMark();
        const poll = setInterval(() => {
          events.enrolled = enrolledSince(mark);
        }, 20);
        try {
          await applyKilledAt(w, events, point);
        } finally {
          clearInterval(poll);
        }
        // THEN whatever the killed run left, the backend holds each node at most once
        const machines = await backendMachines();
        expect(duplicates(machines), `after the kill ${point.what}`).toEqual([]);
        expect(machines.length, `after the kill ${point.what}`).toBeLessThanOrEqual(NODES);
        const recorded = (await shownState(w)).filter((r) => r.type === "rackform_machine").length;
        console.log(
          `${backend}/${engineName}: killed ${point.what}: ${machines.length} machines in ${backend}, ` +
            `${recorded} recorded in state`,
        );
      }

      // WHEN the user runs apply once more (plain apply: the killed engine's lock died with it)
      const last = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(last.code, last.stdout + last.stderr).toBe(0);
      // AND across all runs each node was enrolled exactly once and no machine was deleted to make room: the re-applies
      // adopted what the killed ones left. (Terraform records each finished resource in the local state as it goes;
      // OpenTofu 1.12 was seen to record none before a kill, so there every resource is created afresh and adoption is
      // all that stands between the rack and duplicates.)
      expect(enrolledSince(start)).toBe(NODES);
      const deletes = (backend === "maas" ? lab.backends!.maas.requests : lab.backends!.ironic.requests)
        .slice(start)
        .filter((r) => r.method === "DELETE");
      expect(deletes).toEqual([]);

      // THEN every node is joined in Slurm
      const state = await shownState(w);
      const joined = state.filter((r) => r.type === "rackform_cluster_member" && r.values.joined === true);
      expect(joined.map((r) => String(r.values.node)).sort()).toEqual([...nodes].sort());
      const slurm = await slurmNodes(lab);
      expect(nodes.filter((n) => slurm.get(n)?.state !== "IDLE")).toEqual([]);

      // AND the backend holds exactly 16 machines, one per node, none duplicated by name or MAC
      const machines = await backendMachines();
      expect(machines.map((m) => m.name).sort()).toEqual([...nodes].sort());
      expect(duplicates(machines)).toEqual([]);

      // AND every machine is tracked by a rackform_machine, and every machine taken by a deployment by a
      // rackform_deployment: nothing is allocated (or deployed) that no state owns
      const ownedMachines = tracked(state, "rackform_machine");
      const ownedDeployments = tracked(state, "rackform_deployment");
      expect(machines.filter((m) => !ownedMachines.has(m.id)).map((m) => m.name)).toEqual([]);
      expect(machines.filter((m) => m.taken && !ownedDeployments.has(m.id)).map((m) => m.name)).toEqual([]);
      expect(ownedMachines.size).toBe(NODES);
      expect(ownedDeployments.size).toBe(NODES);
      if (backend === "ironic") {
        // rackform deploys without Ironic allocations; a killed run must not have left one behind
        expect((await ironicMachines(lab)).allocations).toEqual([]);
      }

      // AND the next plan is empty
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    }, 900_000);
  },
);
