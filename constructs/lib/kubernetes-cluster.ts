/** Kubernetes as the scheduler nodes join: uncordoned with labels (and taints) once their acceptance gate passed. */
import { Construct, type IConstruct } from "constructs";
import type { ClusterMemberTaints } from "../gen/providers/rackform/cluster-member/index.js";
import type { RackformProviderConfig } from "../gen/providers/rackform/provider/index.js";
import type { ICluster, MaxUnavailable, MemberSettings, Scheduler } from "./cluster.js";
import type { Flavor } from "./flavor.js";
import { MAX_UNAVAILABLE_SCHEMA, MemberBudget } from "./private/budget.js";
import { type PropsSchema, validateProps } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** A taint every member gets. */
export interface KubernetesTaint {
  /** Taint key, e.g. "nvidia.com/gpu". */
  readonly key: string;
  /** Taint value. @default none */
  readonly value?: string;
  /** "NoSchedule", "PreferNoSchedule" or "NoExecute". */
  readonly effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
}

/** Properties of a KubernetesCluster. */
export interface KubernetesClusterProps {
  /** API server URL, e.g. "https://k8s.example:6443". */
  readonly url: string;
  /** Bearer token as a token; never a literal. @default the stack's sensitive variable kubernetes_token (TF_VAR_kubernetes_token) */
  readonly token?: string;
  /** CA bundle (PEM file) the API server's certificate is checked against. @default the system's */
  readonly caFile?: string;
  /** Labels every node gets. @default { "rackform.io/gpu": the flavor's GPU model in lower case } */
  readonly labels?: Readonly<Record<string, string>>;
  /** Taints every node gets. @default none */
  readonly taints?: readonly KubernetesTaint[];
  /**
   * Disruption budget: at most this many nodes of the cluster out of service at once (this apply's drains plus nodes
   * already cordoned or NotReady); below the number of nodes that join this cluster, or "all" to let every node be
   * out at once (no budget; plan-summary warns). @default no limit
   */
  readonly maxUnavailable?: MaxUnavailable;
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["url"],
  properties: {
    url: {
      type: "string",
      format: "http-url",
      expect: "an http(s) URL",
      fix: "use the API server URL, e.g. https://k8s.example:6443",
    },
    token: { type: "string", secret: true },
    caFile: { type: "string", minLength: 1, expect: "a file path", fix: "give the CA bundle's path" },
    labels: {
      type: "object",
      propertyNames: {
        pattern: "^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$",
        expect: "a label key",
        fix: "use [prefix/]name with letters, digits, '-', '_' and '.'",
      },
      additionalProperties: {
        type: "string",
        pattern: "^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$",
        expect: "a label value",
        fix: "use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
      },
    },
    taints: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["key", "effect"],
        properties: {
          key: { type: "string", minLength: 1, expect: "a taint key", fix: 'e.g. "nvidia.com/gpu"' },
          value: { type: "string" },
          effect: {
            enum: ["NoSchedule", "PreferNoSchedule", "NoExecute"],
            fix: 'use "NoSchedule", "PreferNoSchedule" or "NoExecute"',
          },
        },
      },
    },
    maxUnavailable: MAX_UNAVAILABLE_SCHEMA,
  },
};

/** Kubernetes API endpoint, credentials and what members get, validated at synth; it creates no resource. */
export class KubernetesCluster extends Construct implements ICluster {
  /** Always "kubernetes". */
  readonly scheduler: Scheduler = "kubernetes";
  /** API server URL. */
  readonly url: string;
  private readonly budget: MemberBudget;
  private readonly props: KubernetesClusterProps;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: KubernetesClusterProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) =>
      literalSecretProblem(`${base}/token`, props.token, "kubernetes_token"),
    );
    this.url = props.url;
    this.props = props;
    this.budget = new MemberBudget(this, props.maxUnavailable);
  }

  /** Counts a rack's nodes against the disruption budget (checked when the rack's stack is synthesized). */
  addMembers(rack: IConstruct, count: number): void {
    this.budget.addMembers(rack, count);
  }

  /** The provider's `kubernetes` block. */
  providerSettings(scope: IConstruct): Pick<RackformProviderConfig, "kubernetes"> {
    return {
      kubernetes: {
        url: this.url,
        token: secretValue(scope, this.props.token, "kubernetes_token"),
        ...(this.props.caFile !== undefined ? { caFile: this.props.caFile } : {}),
      },
    };
  }

  /** Labels (default: the GPU model), taints and the disruption budget. */
  memberSettings(flavor: Flavor): MemberSettings {
    const taints: ClusterMemberTaints[] = (this.props.taints ?? []).map((t) => ({ ...t }));
    return {
      config: {
        labels: { ...(this.props.labels ?? { "rackform.io/gpu": flavor.gpus.model.toLowerCase() }) },
        ...(taints.length > 0 ? { taints } : {}),
      },
      maxUnavailable: this.budget.memberValue,
    };
  }
}
