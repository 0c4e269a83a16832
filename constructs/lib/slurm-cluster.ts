/** Slurm as the scheduler nodes join: RESUMEd with node features once their acceptance gate passed. */
import { Construct, type IConstruct } from "constructs";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { ICluster, MaxUnavailable, MemberSettings, Scheduler } from "./cluster.js";
import type { Flavor } from "./flavor.js";
import { MAX_UNAVAILABLE_SCHEMA, MemberBudget } from "./private/budget.js";
import { type PropsSchema, validateProps } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** Properties of a SlurmCluster. */
export interface SlurmClusterProps {
  /** slurmrestd URL, e.g. "http://slurm.example:6820". */
  readonly url: string;
  /** The user slurmrestd acts as (X-SLURM-USER-NAME), e.g. "root". */
  readonly user: string;
  /** slurmrestd JWT as a token; never a literal. @default the stack's sensitive variable slurm_token (TF_VAR_slurm_token) */
  readonly token?: string;
  /** A partition every node must be in (membership comes from slurm.conf; apply fails naming the node when it is not). @default not checked */
  readonly partition?: string;
  /** Node features for --constraint. @default the flavor's GPU model in lower case, e.g. ["h100"] */
  readonly features?: readonly string[];
  /**
   * Disruption budget: at most this many nodes of the same partitions out of service at once (this apply's drains plus
   * nodes Slurm already reports drained, down or not responding); below the number of nodes that join this cluster,
   * or "all" to let every node be out at once (no budget; plan-summary warns). @default no limit
   */
  readonly maxUnavailable?: MaxUnavailable;
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["url", "user"],
  properties: {
    url: {
      type: "string",
      format: "http-url",
      expect: "an http(s) URL",
      fix: "use the slurmrestd URL, e.g. http://slurm.example:6820",
    },
    user: { type: "string", minLength: 1, expect: "a user name", fix: 'give the slurmrestd user, e.g. "root"' },
    token: { type: "string", secret: true },
    partition: {
      type: "string",
      pattern: "^[A-Za-z0-9_.-]+$",
      expect: "a partition name",
      fix: 'use a PartitionName from slurm.conf, e.g. "gpu"',
    },
    features: {
      type: "array",
      items: {
        type: "string",
        pattern: "^[A-Za-z0-9_][A-Za-z0-9_.:=+-]*$",
        expect: "a Slurm feature name",
        fix: "use letters, digits, '_', '.', ':', '=', '+' or '-'",
      },
    },
    maxUnavailable: MAX_UNAVAILABLE_SCHEMA,
  },
};

/** slurmrestd endpoint, credentials and what members get, validated at synth; it creates no resource. */
export class SlurmCluster extends Construct implements ICluster {
  /** Always "slurm". */
  readonly scheduler: Scheduler = "slurm";
  /** slurmrestd URL. */
  readonly url: string;
  private readonly budget: MemberBudget;
  private readonly props: SlurmClusterProps;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: SlurmClusterProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) => literalSecretProblem(`${base}/token`, props.token, "slurm_token"));
    this.url = props.url;
    this.props = props;
    this.budget = new MemberBudget(this, props.maxUnavailable);
  }

  /** Counts a rack's nodes against the disruption budget (checked when the rack's stack is synthesized). */
  addMembers(rack: IConstruct, count: number): void {
    this.budget.addMembers(rack, count);
  }

  /** The provider's `slurm` block. */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "slurm"> {
    return {
      slurm: { url: this.url, user: this.props.user, token: secretValue(scope, this.props.token, "slurm_token") },
    };
  }

  /** Features (default: the GPU model), the partition check and the disruption budget. */
  memberSettings(flavor: Flavor): MemberSettings {
    const partition = this.props.partition;
    const check = partition && {
      postcondition: [
        {
          condition: `\${contains(self.partitions, ${JSON.stringify(partition)})}`,
          errorMessage: `The node is not in Slurm partition ${JSON.stringify(partition)}: add it to PartitionName=${partition} Nodes=... in slurm.conf and reconfigure slurmctld.`,
        },
      ],
    };
    return {
      config: {
        features: [...(this.props.features ?? [flavor.gpus.model.toLowerCase()])],
        ...(check ? { lifecycle: check } : {}),
      },
      maxUnavailable: this.budget.memberValue,
    };
  }
}
