/**
 * A fleet: many racks, each in its own stack (own state, own lock, a plan of a rack's size), rolled out in waves.
 * Every stack of a wave depends on every stack of the wave before, so `cdktf deploy '*'` applies the waves in order
 * and stops before the next wave when a stack of the current one fails (an acceptance gate, say). Stack ids are
 * `<fleet id>-<rack name>`.
 */
import { Construct } from "constructs";
import type { AcceptancePolicy } from "./acceptance-policy.js";
import type { IBackend } from "./backend.js";
import type { ICluster } from "./cluster.js";
import type { Flavor } from "./flavor.js";
import type { HealthPolicy } from "./health-policy.js";
import type { Image } from "./image.js";
import { FLEET_RULES, FLEET_SCHEMA, planWaves } from "./private/fleet-rules.js";
import { validateProps } from "./private/validate.js";
import type { RedfishSettings } from "./provider.js";
import { Rack, type RackNode, type RackPdu } from "./rack.js";
import { RackformStack, type StateBackend, stateBackendProblems } from "./rackform-stack.js";

/** One rack of a fleet: its hardware, and any setting that differs from the fleet's. */
export interface FleetRack {
  /** Rack name; also names its stack, `<fleet id>-<name>`. */
  readonly name: string;
  /** The rack's PDUs. */
  readonly pdus: readonly RackPdu[];
  /** The rack's nodes. */
  readonly nodes: readonly RackNode[];
  /** @default the fleet's flavor */
  readonly flavor?: Flavor;
  /** @default the fleet's image */
  readonly image?: Image;
  /** @default the fleet's acceptance policy */
  readonly acceptance?: AcceptancePolicy;
  /** @default the fleet's backend */
  readonly backend?: IBackend;
  /** @default the fleet's cluster */
  readonly cluster?: ICluster;
  /** @default the fleet's user data */
  readonly userData?: string;
  /** @default the fleet's health policy */
  readonly health?: HealthPolicy;
}

/** Properties of a Fleet. */
export interface FleetProps {
  /** The racks (at least one), each deployed as its own stack. */
  readonly racks: readonly FleetRack[];
  /** What every node must be before it is enrolled, unless its rack says otherwise. */
  readonly flavor: Flavor;
  /** What every node is deployed with, unless its rack says otherwise. */
  readonly image: Image;
  /** What every node must pass before it joins, unless its rack says otherwise. */
  readonly acceptance: AcceptancePolicy;
  /** Where machines are enrolled, unless a rack says otherwise. */
  readonly backend: IBackend;
  /** Which scheduler nodes join, unless a rack says otherwise. */
  readonly cluster: ICluster;
  /** How rackform reaches BMCs and PDUs (every stack's provider). */
  readonly redfish: RedfishSettings;
  /** cloud-init user data of every deployment. @default "#cloud-config\nrackform-join: <scheduler>\n" */
  readonly userData?: string;
  /**
   * The health remediation ladder of every rack's nodes, unless a rack says otherwise (each rack's cluster needs a
   * maxUnavailable; see Rack's health). @default no ladder
   */
  readonly health?: HealthPolicy;
  /** Ordered waves of rack names; every rack in exactly one. @default one wave of every rack */
  readonly waves?: readonly (readonly string[])[];
  /** Size of a first wave taken from the front of the waves (in order): a canary every other rack waits for. @default no canary */
  readonly canary?: number;
  /** Where each stack keeps its state (pg: schema "rackform_<stack id>" per stack). @default local, terraform.<stack id>.tfstate */
  readonly stateBackend?: StateBackend;
}

/** Racks in their own stacks, applied wave after wave; props are validated at synth. */
export class Fleet extends Construct {
  /** Each rack's stack, by rack name. */
  readonly stacks: ReadonlyMap<string, RackformStack>;
  /** Each rack, by rack name. */
  readonly racks: ReadonlyMap<string, Rack>;
  /** Rack names per wave, in rollout order (the canary first when there is one). */
  readonly waves: readonly (readonly string[])[];

  /** Validates the props, then creates one RackformStack per rack (in `scope`) and the waves' dependencies. */
  constructor(scope: Construct, id: string, props: FleetProps) {
    super(scope, id);
    validateProps(this, FLEET_SCHEMA, { racks: props.racks, waves: props.waves, canary: props.canary }, (base) => [
      ...FLEET_RULES.flatMap((rule) => rule(base, props)),
      ...stateBackendProblems(`${base}/stateBackend`, props.stateBackend),
    ]);
    this.waves = planWaves(props);
    const stacks = new Map<string, RackformStack>();
    const racks = new Map<string, Rack>();
    for (const r of props.racks) {
      stacks.set(r.name, new RackformStack(scope, `${id}-${r.name}`, { stateBackend: props.stateBackend }));
    }
    for (let w = 1; w < this.waves.length; w++) {
      for (const later of this.waves[w]) {
        for (const earlier of this.waves[w - 1]) stacks.get(later)!.addDependency(stacks.get(earlier)!);
      }
    }
    // Racks are built in rollout order: the first rack to use an image holds its rackform_image (Image.resourceFor),
    // and a later stack using it then depends on that one (unless its waves already do), never the other way round.
    const byName = new Map(props.racks.map((r) => [r.name, r]));
    for (const r of this.waves.flat().map((n) => byName.get(n)!)) {
      const stack = stacks.get(r.name)!;
      const userData = r.userData ?? props.userData;
      const health = r.health ?? props.health;
      const rack = new Rack(stack, r.name, {
        pdus: r.pdus,
        nodes: r.nodes,
        flavor: r.flavor ?? props.flavor,
        image: r.image ?? props.image,
        acceptance: r.acceptance ?? props.acceptance,
        backend: r.backend ?? props.backend,
        cluster: r.cluster ?? props.cluster,
        redfish: props.redfish,
        ...(userData !== undefined ? { userData } : {}),
        ...(health !== undefined ? { health } : {}),
      });
      racks.set(r.name, rack);
    }
    this.stacks = stacks;
    this.racks = racks;
  }

  /** The stack of rack `name`; throws when the fleet has no such rack. */
  stackOf(name: string): RackformStack {
    const stack = this.stacks.get(name);
    if (!stack) throw new Error(`fleet ${this.node.path} has no rack ${JSON.stringify(name)}`);
    return stack;
  }
}
