// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface ClusterMemberConfig extends cdktf.TerraformMetaArguments {
  /**
  * The node's name in the scheduler (Slurm NodeName, Kubernetes node name: usually the host name). Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#node ClusterMember#node}
  */
  readonly nodeAttribute: string;
  /**
  * "slurm" or "kubernetes". Changing it replaces the resource (the node leaves one and joins the other).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#scheduler ClusterMember#scheduler}
  */
  readonly scheduler: string;
  /**
  * The id of the rackform_acceptance this membership rests on. When the gate is replaced (a reimage, a re-run after a health change) the member is replaced too, so the engine drains the node (destroy) before the deployment under it is replaced, and rejoins it once the new gate has passed. The first value recorded after an import is taken in place.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#gate_id ClusterMember#gate_id}
  */
  readonly gateId?: string;
  /**
  * Slurm only: the node's exact set of available features (e.g. h100, nvlink4), set before RESUME and changed in place. Slurm 22.05's REST API (v0.0.38) cannot set features or RESUME a node: there slurm.conf must list these features, and a difference fails naming the scontrol command. @default the node's features are left as slurm.conf sets them
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#features ClusterMember#features}
  */
  readonly features?: string[];
  /**
  * Kubernetes only: labels rackform manages on the node; other labels are left alone, and a label removed from here is removed from the node.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#labels ClusterMember#labels}
  */
  readonly labels?: { [key: string]: string };
  /**
  * Kubernetes only: taints rackform manages, by key; taints of other keys (set by controllers or people) are kept.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#taints ClusterMember#taints}
  */
  readonly taints?: ClusterMemberTaints[] | cdktf.IResolvable;
  /**
  * The image the node runs, usually rackform_deployment.x.image_ref of a rolling deployment (rolling = true). When it changes on a recorded member, this member's in-place update carries out the node's whole rolling reimage in one step: a disruption-budget slot (max_unavailable), drain, the reimage its deployment offered, the gate its rackform_acceptance (image_ref the same) offered, rejoin, slot given back. One step per node means a node holding a slot never waits on another engine operation, so any -parallelism rolls the whole rack in one apply. A node whose drain, reimage or gate fails keeps the old image_ref here and stays out of service (quarantined with the gate's evidence); the others go on, and the next apply retries it. First recorded, it reimages nothing. @default not followed (a reimage reaches the member as a replacement of gate_id)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#image_ref ClusterMember#image_ref}
  */
  readonly imageRef?: string;
  /**
  * The firmware baseline the node runs: rackform_firmware.x.ref of the node (a rolling one). When it changes on a recorded member, this member's in-place update runs the node's rolling update as for image_ref: a budget slot, drain, the reset its rackform_firmware offered (shared with the reimage's boot when the image changes in the same apply), the new versions and settings checked, the gate its rackform_acceptance (firmware_ref the same) offered, rejoin. A node whose update fails is quarantined with the update's evidence and keeps the old firmware_ref here; the others go on. @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#firmware_ref ClusterMember#firmware_ref}
  */
  readonly firmwareRef?: string;
  /**
  * The node's place on its health remediation ladder: rackform_deployment.x.remediation of the node. When it plans a step, this member's in-place update carries it out as one operation within the disruption budget: a slot, drain, the step (a power cycle through the backend, or the pinned image deployed again), the gate its rackform_acceptance (remediation the same) offered, rejoin. "repair": drain and quarantine in the backend, and the node stays out of service (not re-joined) until its findings clear. A step that fails keeps the old value here, and the next plan goes to the ladder's next step; the other nodes go on. @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#remediation ClusterMember#remediation}
  */
  readonly remediation?: string;
  /**
  * At most this many nodes of the same budget (as max_unavailable) take a remediation step in one apply of this provider process: beyond it a node is left as it is with a warning and planned again (many nodes sick at once is usually the fabric or power, not the nodes; rackform plan-summary says so). Health drains count against max_unavailable as any drain does. @default no limit
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#max_unhealthy ClusterMember#max_unhealthy}
  */
  readonly maxUnhealthy?: number;
  /**
  * The gate's recheck (rackform_acceptance.x.recheck of the node). When it moves, this member's in-place update re-runs the gate on an idle node: Slurm's node in state IDLE (a node with jobs is left as it is and planned again; Kubernetes nodes are drained, which respects PodDisruptionBudgets), within the disruption budget — a slot, drain, the gate its rackform_acceptance offered, rejoin. @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#recheck ClusterMember#recheck}
  */
  readonly recheck?: string;
  /**
  * Drain before leaving on destroy (and, when the member is destroyed for good, remove the node from the scheduler). false: destroy only forgets the node, which stays in the scheduler, keeps running jobs and accepts new ones. @default true
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#drain_on_destroy ClusterMember#drain_on_destroy}
  */
  readonly drainOnDestroy?: boolean | cdktf.IResolvable;
  /**
  * Disruption budget: at most this many nodes of the same budget (scheduler and partitions: the nodes in the same Slurm partitions; for Kubernetes the whole cluster) are out of service at once, whichever stacks, engine processes or pipeline runners apply them — a drain starts only while fewer are out, counting this apply's own drains (including nodes being removed, even when their own state sets no max_unavailable, until they have left the scheduler), nodes the scheduler reports out (Slurm: drained, down or not responding, except nodes rackform removed that slurm.conf still lists, reason "rackform: removed from the rack; delete it from slurm.conf"; Kubernetes: cordoned or NotReady) and nodes other runs have reserved. The scheduler is the arbiter: a drain first writes a reservation on its node (Slurm: in the node's Comment, beside any text of the operator's; Kubernetes: a Lease kube-system/rackform-budget-<node>, which the token must be allowed to create, update, list and delete), reads the partition again and drains only if there is still room, else takes it back and tries again. A reservation is a lease renewed while the node is recycled and removed when it rejoins; one left by a killed run lapses by itself, and a re-apply adopts the one on its own node. A node's slot is given back when it rejoins, or when its chain stops in this run (failed drain, release, deploy or acceptance gate: the rollout goes on without it), it leaves the scheduler for good, or its machine is deleted. When the budget is filled only by nodes nothing brings back (failed in this run, drained or down by hand, no live reservation, no other operation of the run in flight), the waiting drains fail naming those nodes and their evidence (the rollout halts; those nodes stay joined) instead of waiting. The value applies to drains of this apply even when it is set in the same change. Keep the engine's parallelism (terraform apply -parallelism, cdktf deploy --terraform-parallelism; default 10) above the number of the stack's nodes minus max_unavailable: a waiting drain holds one of the engine's parallel operations, and when nothing but waiting drains is left the waiting ones fail (the node stays joined) instead of hanging; re-apply to continue. @default no limit: every node drains as soon as the engine gets to it
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#max_unavailable ClusterMember#max_unavailable}
  */
  readonly maxUnavailable?: number;
  /**
  * Create waits (up to timeouts.create) for the node to register with the scheduler. false: create fails at once when it has not. @default true
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#wait_for_registration ClusterMember#wait_for_registration}
  */
  readonly waitForRegistration?: boolean | cdktf.IResolvable;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#timeouts ClusterMember#timeouts}
  */
  readonly timeouts?: ClusterMemberTimeouts;
}
export interface ClusterMemberTaints {
  /**
  * Taint key, e.g. "nvidia.com/gpu".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#key ClusterMember#key}
  */
  readonly key: string;
  /**
  * Taint value. @default none
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#value ClusterMember#value}
  */
  readonly value?: string;
  /**
  * "NoSchedule", "PreferNoSchedule" or "NoExecute".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#effect ClusterMember#effect}
  */
  readonly effect: string;
}

export function clusterMemberTaintsToTerraform(struct?: ClusterMemberTaints | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    key: cdktf.stringToTerraform(struct!.key),
    value: cdktf.stringToTerraform(struct!.value),
    effect: cdktf.stringToTerraform(struct!.effect),
  }
}


export function clusterMemberTaintsToHclTerraform(struct?: ClusterMemberTaints | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    key: {
      value: cdktf.stringToHclTerraform(struct!.key),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    value: {
      value: cdktf.stringToHclTerraform(struct!.value),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    effect: {
      value: cdktf.stringToHclTerraform(struct!.effect),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class ClusterMemberTaintsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): ClusterMemberTaints | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._key !== undefined) {
      hasAnyValues = true;
      internalValueResult.key = this._key;
    }
    if (this._value !== undefined) {
      hasAnyValues = true;
      internalValueResult.value = this._value;
    }
    if (this._effect !== undefined) {
      hasAnyValues = true;
      internalValueResult.effect = this._effect;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: ClusterMemberTaints | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._key = undefined;
      this._value = undefined;
      this._effect = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._key = value.key;
      this._value = value.value;
      this._effect = value.effect;
    }
  }

  // key - computed: false, optional: false, required: true
  private _key?: string; 
  public get key() {
    return this.getStringAttribute('key');
  }
  public set key(value: string) {
    this._key = value;
  }
  // Temporarily expose input value. Use with caution.
  public get keyInput() {
    return this._key;
  }

  // value - computed: false, optional: true, required: false
  private _value?: string; 
  public get value() {
    return this.getStringAttribute('value');
  }
  public set value(value: string) {
    this._value = value;
  }
  public resetValue() {
    this._value = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get valueInput() {
    return this._value;
  }

  // effect - computed: false, optional: false, required: true
  private _effect?: string; 
  public get effect() {
    return this.getStringAttribute('effect');
  }
  public set effect(value: string) {
    this._effect = value;
  }
  // Temporarily expose input value. Use with caution.
  public get effectInput() {
    return this._effect;
  }
}

export class ClusterMemberTaintsList extends cdktf.ComplexList {
  public internalValue? : ClusterMemberTaints[] | cdktf.IResolvable

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(protected terraformResource: cdktf.IInterpolatingParent, protected terraformAttribute: string, protected wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet)
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): ClusterMemberTaintsOutputReference {
    return new ClusterMemberTaintsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface ClusterMemberTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#create ClusterMember#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#read ClusterMember#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#update ClusterMember#update}
  */
  readonly update?: string;
  /**
  * How long delete may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#delete ClusterMember#delete}
  */
  readonly delete?: string;
}

export function clusterMemberTimeoutsToTerraform(struct?: ClusterMemberTimeouts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    create: cdktf.stringToTerraform(struct!.create),
    read: cdktf.stringToTerraform(struct!.read),
    update: cdktf.stringToTerraform(struct!.update),
    delete: cdktf.stringToTerraform(struct!.delete),
  }
}


export function clusterMemberTimeoutsToHclTerraform(struct?: ClusterMemberTimeouts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    create: {
      value: cdktf.stringToHclTerraform(struct!.create),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    read: {
      value: cdktf.stringToHclTerraform(struct!.read),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    update: {
      value: cdktf.stringToHclTerraform(struct!.update),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    delete: {
      value: cdktf.stringToHclTerraform(struct!.delete),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class ClusterMemberTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): ClusterMemberTimeouts | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._create !== undefined) {
      hasAnyValues = true;
      internalValueResult.create = this._create;
    }
    if (this._read !== undefined) {
      hasAnyValues = true;
      internalValueResult.read = this._read;
    }
    if (this._update !== undefined) {
      hasAnyValues = true;
      internalValueResult.update = this._update;
    }
    if (this._delete !== undefined) {
      hasAnyValues = true;
      internalValueResult.delete = this._delete;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: ClusterMemberTimeouts | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._create = undefined;
      this._read = undefined;
      this._update = undefined;
      this._delete = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._create = value.create;
      this._read = value.read;
      this._update = value.update;
      this._delete = value.delete;
    }
  }

  // create - computed: false, optional: true, required: false
  private _create?: string; 
  public get create() {
    return this.getStringAttribute('create');
  }
  public set create(value: string) {
    this._create = value;
  }
  public resetCreate() {
    this._create = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get createInput() {
    return this._create;
  }

  // read - computed: false, optional: true, required: false
  private _read?: string; 
  public get read() {
    return this.getStringAttribute('read');
  }
  public set read(value: string) {
    this._read = value;
  }
  public resetRead() {
    this._read = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get readInput() {
    return this._read;
  }

  // update - computed: false, optional: true, required: false
  private _update?: string; 
  public get update() {
    return this.getStringAttribute('update');
  }
  public set update(value: string) {
    this._update = value;
  }
  public resetUpdate() {
    this._update = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get updateInput() {
    return this._update;
  }

  // delete - computed: false, optional: true, required: false
  private _delete?: string; 
  public get delete() {
    return this.getStringAttribute('delete');
  }
  public set delete(value: string) {
    this._delete = value;
  }
  public resetDelete() {
    this._delete = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deleteInput() {
    return this._delete;
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member rackform_cluster_member}
*/
export class ClusterMember extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_cluster_member";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a ClusterMember resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the ClusterMember to import
  * @param importFromId The id of the existing ClusterMember that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the ClusterMember to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_cluster_member", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/cluster_member rackform_cluster_member} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options ClusterMemberConfig
  */
  public constructor(scope: Construct, id: string, config: ClusterMemberConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_cluster_member',
      terraformGeneratorMetadata: {
        providerName: 'rackform',
        providerVersion: '0.1.0'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._node = config.nodeAttribute;
    this._scheduler = config.scheduler;
    this._gateId = config.gateId;
    this._features = config.features;
    this._labels = config.labels;
    this._taints.internalValue = config.taints;
    this._imageRef = config.imageRef;
    this._firmwareRef = config.firmwareRef;
    this._remediation = config.remediation;
    this._maxUnhealthy = config.maxUnhealthy;
    this._recheck = config.recheck;
    this._drainOnDestroy = config.drainOnDestroy;
    this._maxUnavailable = config.maxUnavailable;
    this._waitForRegistration = config.waitForRegistration;
    this._timeouts.internalValue = config.timeouts;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // node - computed: false, optional: false, required: true
  private _node?: string; 
  public get nodeAttribute() {
    return this.getStringAttribute('node');
  }
  public set nodeAttribute(value: string) {
    this._node = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nodeAttributeInput() {
    return this._node;
  }

  // scheduler - computed: false, optional: false, required: true
  private _scheduler?: string; 
  public get scheduler() {
    return this.getStringAttribute('scheduler');
  }
  public set scheduler(value: string) {
    this._scheduler = value;
  }
  // Temporarily expose input value. Use with caution.
  public get schedulerInput() {
    return this._scheduler;
  }

  // gate_id - computed: false, optional: true, required: false
  private _gateId?: string; 
  public get gateId() {
    return this.getStringAttribute('gate_id');
  }
  public set gateId(value: string) {
    this._gateId = value;
  }
  public resetGateId() {
    this._gateId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get gateIdInput() {
    return this._gateId;
  }

  // features - computed: false, optional: true, required: false
  private _features?: string[]; 
  public get features() {
    return cdktf.Fn.tolist(this.getListAttribute('features'));
  }
  public set features(value: string[]) {
    this._features = value;
  }
  public resetFeatures() {
    this._features = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get featuresInput() {
    return this._features;
  }

  // partitions - computed: true, optional: false, required: false
  public get partitions() {
    return cdktf.Fn.tolist(this.getListAttribute('partitions'));
  }

  // labels - computed: false, optional: true, required: false
  private _labels?: { [key: string]: string }; 
  public get labels() {
    return this.getStringMapAttribute('labels');
  }
  public set labels(value: { [key: string]: string }) {
    this._labels = value;
  }
  public resetLabels() {
    this._labels = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get labelsInput() {
    return this._labels;
  }

  // taints - computed: false, optional: true, required: false
  private _taints = new ClusterMemberTaintsList(this, "taints", false);
  public get taints() {
    return this._taints;
  }
  public putTaints(value: ClusterMemberTaints[] | cdktf.IResolvable) {
    this._taints.internalValue = value;
  }
  public resetTaints() {
    this._taints.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get taintsInput() {
    return this._taints.internalValue;
  }

  // image_ref - computed: false, optional: true, required: false
  private _imageRef?: string; 
  public get imageRef() {
    return this.getStringAttribute('image_ref');
  }
  public set imageRef(value: string) {
    this._imageRef = value;
  }
  public resetImageRef() {
    this._imageRef = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get imageRefInput() {
    return this._imageRef;
  }

  // firmware_ref - computed: false, optional: true, required: false
  private _firmwareRef?: string; 
  public get firmwareRef() {
    return this.getStringAttribute('firmware_ref');
  }
  public set firmwareRef(value: string) {
    this._firmwareRef = value;
  }
  public resetFirmwareRef() {
    this._firmwareRef = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get firmwareRefInput() {
    return this._firmwareRef;
  }

  // remediation - computed: false, optional: true, required: false
  private _remediation?: string; 
  public get remediation() {
    return this.getStringAttribute('remediation');
  }
  public set remediation(value: string) {
    this._remediation = value;
  }
  public resetRemediation() {
    this._remediation = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get remediationInput() {
    return this._remediation;
  }

  // max_unhealthy - computed: false, optional: true, required: false
  private _maxUnhealthy?: number; 
  public get maxUnhealthy() {
    return this.getNumberAttribute('max_unhealthy');
  }
  public set maxUnhealthy(value: number) {
    this._maxUnhealthy = value;
  }
  public resetMaxUnhealthy() {
    this._maxUnhealthy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxUnhealthyInput() {
    return this._maxUnhealthy;
  }

  // recheck - computed: false, optional: true, required: false
  private _recheck?: string; 
  public get recheck() {
    return this.getStringAttribute('recheck');
  }
  public set recheck(value: string) {
    this._recheck = value;
  }
  public resetRecheck() {
    this._recheck = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get recheckInput() {
    return this._recheck;
  }

  // drain_on_destroy - computed: true, optional: true, required: false
  private _drainOnDestroy?: boolean | cdktf.IResolvable; 
  public get drainOnDestroy() {
    return this.getBooleanAttribute('drain_on_destroy');
  }
  public set drainOnDestroy(value: boolean | cdktf.IResolvable) {
    this._drainOnDestroy = value;
  }
  public resetDrainOnDestroy() {
    this._drainOnDestroy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get drainOnDestroyInput() {
    return this._drainOnDestroy;
  }

  // max_unavailable - computed: false, optional: true, required: false
  private _maxUnavailable?: number; 
  public get maxUnavailable() {
    return this.getNumberAttribute('max_unavailable');
  }
  public set maxUnavailable(value: number) {
    this._maxUnavailable = value;
  }
  public resetMaxUnavailable() {
    this._maxUnavailable = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxUnavailableInput() {
    return this._maxUnavailable;
  }

  // wait_for_registration - computed: true, optional: true, required: false
  private _waitForRegistration?: boolean | cdktf.IResolvable; 
  public get waitForRegistration() {
    return this.getBooleanAttribute('wait_for_registration');
  }
  public set waitForRegistration(value: boolean | cdktf.IResolvable) {
    this._waitForRegistration = value;
  }
  public resetWaitForRegistration() {
    this._waitForRegistration = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get waitForRegistrationInput() {
    return this._waitForRegistration;
  }

  // state - computed: true, optional: false, required: false
  public get state() {
    return this.getStringAttribute('state');
  }

  // joined - computed: true, optional: false, required: false
  public get joined() {
    return this.getBooleanAttribute('joined');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new ClusterMemberTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: ClusterMemberTimeouts) {
    this._timeouts.internalValue = value;
  }
  public resetTimeouts() {
    this._timeouts.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutsInput() {
    return this._timeouts.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      node: cdktf.stringToTerraform(this._node),
      scheduler: cdktf.stringToTerraform(this._scheduler),
      gate_id: cdktf.stringToTerraform(this._gateId),
      features: cdktf.listMapper(cdktf.stringToTerraform, false)(this._features),
      labels: cdktf.hashMapper(cdktf.stringToTerraform)(this._labels),
      taints: cdktf.listMapper(clusterMemberTaintsToTerraform, false)(this._taints.internalValue),
      image_ref: cdktf.stringToTerraform(this._imageRef),
      firmware_ref: cdktf.stringToTerraform(this._firmwareRef),
      remediation: cdktf.stringToTerraform(this._remediation),
      max_unhealthy: cdktf.numberToTerraform(this._maxUnhealthy),
      recheck: cdktf.stringToTerraform(this._recheck),
      drain_on_destroy: cdktf.booleanToTerraform(this._drainOnDestroy),
      max_unavailable: cdktf.numberToTerraform(this._maxUnavailable),
      wait_for_registration: cdktf.booleanToTerraform(this._waitForRegistration),
      timeouts: clusterMemberTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      node: {
        value: cdktf.stringToHclTerraform(this._node),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      scheduler: {
        value: cdktf.stringToHclTerraform(this._scheduler),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      gate_id: {
        value: cdktf.stringToHclTerraform(this._gateId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      features: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._features),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      labels: {
        value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(this._labels),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      taints: {
        value: cdktf.listMapperHcl(clusterMemberTaintsToHclTerraform, false)(this._taints.internalValue),
        isBlock: true,
        type: "list",
        storageClassType: "ClusterMemberTaintsList",
      },
      image_ref: {
        value: cdktf.stringToHclTerraform(this._imageRef),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      firmware_ref: {
        value: cdktf.stringToHclTerraform(this._firmwareRef),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      remediation: {
        value: cdktf.stringToHclTerraform(this._remediation),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      max_unhealthy: {
        value: cdktf.numberToHclTerraform(this._maxUnhealthy),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      recheck: {
        value: cdktf.stringToHclTerraform(this._recheck),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      drain_on_destroy: {
        value: cdktf.booleanToHclTerraform(this._drainOnDestroy),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      max_unavailable: {
        value: cdktf.numberToHclTerraform(this._maxUnavailable),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      wait_for_registration: {
        value: cdktf.booleanToHclTerraform(this._waitForRegistration),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      timeouts: {
        value: clusterMemberTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "ClusterMemberTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
