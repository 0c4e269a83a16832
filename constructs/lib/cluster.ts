/**
 * The seam between a Rack and the scheduler its nodes join (Slurm or Kubernetes): what the provider block needs and
 * what each node's rackform_cluster_member gets. Implemented by SlurmCluster and KubernetesCluster.
 */
import type { IConstruct } from "constructs";
import type { ClusterMemberConfig } from "../gen/providers/rackform/cluster-member/index.js";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { Flavor } from "./flavor.js";

/** A disruption budget: nodes out of service at once, or "all" (no budget; plan-summary flags it). */
export type MaxUnavailable = number | "all";

/** The schedulers rackform_cluster_member knows. */
export type Scheduler = "slurm" | "kubernetes";

/** What a cluster sets on every member of a rack. */
export interface MemberSettings {
  /** features, labels, taints and lifecycle checks of the member. */
  readonly config: Pick<ClusterMemberConfig, "features" | "labels" | "taints" | "lifecycle">;
  /** The member's max_unavailable, if a disruption budget is set ("all" sets none). */
  readonly maxUnavailable: number | undefined;
}

/** A scheduler as a Rack uses it. */
export interface ICluster extends IConstruct {
  /** rackform_cluster_member `scheduler`, and the `rackform-join:` line of the nodes' user data. */
  readonly scheduler: Scheduler;
  /** The provider block's scheduler settings for the stack of `scope` (credentials as that stack's variables). */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "slurm" | "kubernetes">;
  /** Counts `count` nodes of `rack` as members, for the disruption budget checked at synth. */
  addMembers(rack: IConstruct, count: number): void;
  /** What every member of a rack of `flavor` gets. */
  memberSettings(flavor: Flavor): MemberSettings;
}
