/**
 * A lab world whose deployed nodes join the lab's slurmctld and Kubernetes API (src/lab/glue/joins.ts) on a manual
 * clock, every host powered on: for tests of what the schedulers make of a node (its boot, heartbeat and faults).
 */
import { wireJoins } from "../../src/lab/glue/joins.js";
import { defaultSpec, LabTime, ManualClock, profileByName, World } from "../../src/lab/index.js";
import { NodeStatus } from "../../src/lab/maas/index.js";
import {
  createKubernetesApi,
  createSlurmApi,
  type KubernetesApi,
  type SlurmApi,
} from "../../src/lab/scheduler/index.js";
import { type Fault, parseFaultSpec } from "../../src/lab/world/faults.js";
import type { LabNode } from "../../src/lab/world/model.js";

type StatusListener = (m: unknown, from: number, to: number) => void;

/** The rig: the world and both schedulers, and the moves a test makes on them. */
export interface JoinsRig {
  readonly clock: ManualClock;
  readonly world: World;
  readonly slurm: SlurmApi;
  readonly k8s: KubernetesApi;
  /** The world's nodes, in spec order. */
  readonly nodes: readonly LabNode[];
  /** Adds a fault, as the control API takes its spec. */
  inject(spec: Record<string, unknown>): Fault;
  /** MAAS reaches Deployed for the node, with `userData` when given. */
  deploy(n: LabNode, userData?: string): void;
  /** Lets the joins' boot and heartbeat run: `times` ticks of 100 ms of the manual clock. */
  tick(times?: number): Promise<void>;
}

/** What the rig varies: node count, Slurm's JWT users, the lab's time profile (default: instant). */
export interface JoinsRigOptions {
  readonly nodes: number;
  readonly jwtTokens: Readonly<Record<string, string>>;
  readonly profile?: ReturnType<typeof profileByName>;
}

/** A fresh rig: every host on, nothing deployed yet. */
export function joinsRig(o: JoinsRigOptions): JoinsRig {
  const clock = new ManualClock();
  const world = new World(defaultSpec({ nodes: o.nodes }), new LabTime(clock, o.profile ?? profileByName("instant")));
  const slurm = createSlurmApi({ jwtTokens: { ...o.jwtTokens }, clock });
  const k8s = createKubernetesApi({ token: "k", clock });
  let deployed: StatusListener = () => {};
  const maas = { onStatusChange: (fn: StatusListener) => void (deployed = fn) };
  wireJoins({ world, clock, maas: maas as never, slurm, kubernetes: k8s, mode: "always" });
  const nodes = [...world.nodes.values()];
  for (const n of nodes) {
    world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
    world.setHostPower(n, true);
  }
  return {
    clock,
    world,
    slurm,
    k8s,
    nodes,
    inject: (spec) => world.faults.add(parseFaultSpec(spec, { nodes: new Set(world.nodes.keys()), pdus: new Set() })),
    deploy(n, userData) {
      deployed(
        {
          systemId: `m-${n.spec.name}`,
          hostname: n.spec.name,
          powerParams: { power_address: n.address },
          userData: userData === undefined ? undefined : Buffer.from(userData),
        },
        NodeStatus.DEPLOYING,
        NodeStatus.DEPLOYED,
      );
    },
    async tick(times = 4) {
      for (let i = 0; i < times; i++) {
        clock.advance(100);
        await new Promise((r) => setImmediate(r));
      }
    },
  };
}
