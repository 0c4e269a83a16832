// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface AcceptanceConfig extends cdktf.TerraformMetaArguments {
  /**
  * The rackform_machine id, e.g. "maas:4y3h7n" (usually rackform_deployment.x.id, so the gate runs after the deploy).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#machine_id Acceptance#machine_id}
  */
  readonly machineId: string;
  /**
  * dcgmi diag level, 1 (quick) to 4 (extended). Levels are cumulative: lowered, the evidence of the level that ran covers it (in place); raised above it, the gate re-runs on that node. @default 3
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#dcgm_level Acceptance#dcgm_level}
  */
  readonly dcgmLevel?: number;
  /**
  * Minimum NCCL all_reduce bus bandwidth in GB/s, e.g. 370 on 400 Gb/s fabric. Changed, it is judged against the bandwidth the evidence measured: at or below it, in place; above it, the gate re-runs on that node. @default the gate's: 92 % of the fabric line rate rounded to 10 GB/s (370 on 8 × 400 Gb/s)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#nccl_min_busbw_gbps Acceptance#nccl_min_busbw_gbps}
  */
  readonly ncclMinBusbwGbps?: number;
  /**
  * Burn-in duration, e.g. "72h". Set timeouts.create above it. Changed, it is judged against the burn-in the evidence ran (`burn_in.requested_s`): as long or shorter, in place; longer, or evidence that does not record its length, the gate re-runs on that node. @default "1h"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#burn_in Acceptance#burn_in}
  */
  readonly burnIn?: string;
  /**
  * GPUs that must be visible; changed, judged against the GPUs the evidence saw. @default the count the hardware reports it should have
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#expected_gpu_count Acceptance#expected_gpu_count}
  */
  readonly expectedGpuCount?: number;
  /**
  * The GPUs the node's BMC reports, usually rackform_bmc.x.gpu_count. When it changes on a running node (a GPU lost, or back after a repair) the gate runs again: a node that lost a GPU fails it, is quarantined and leaves its scheduler (a cluster member whose gate_id is this id drains); the repaired node passes and rejoins. While the remediation ladder takes a step on the node (remediation), the gate runs in place inside that step, after its remedy, instead. First recorded (after an import, or on a gate created before this attribute), it re-runs nothing. @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#bmc_gpu_count Acceptance#bmc_gpu_count}
  */
  readonly bmcGpuCount?: number;
  /**
  * The components the node's BMC reports as not healthy, usually rackform_bmc.x.health. When it names a component newly Warning or Critical on a running node, the gate runs again (a cluster member whose gate_id is this id drains first, within its disruption budget); a component Critical fails the gate, which quarantines the node with the finding as evidence, and a Warning is recorded in the evidence only. Findings that clear re-run nothing. First recorded, it re-runs nothing. @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#bmc_health Acceptance#bmc_health}
  */
  readonly bmcHealth?: AcceptanceBmcHealth[] | cdktf.IResolvable;
  /**
  * Accept XID errors (during burn-in too) instead of failing the gate. Turned off, the gate re-runs only on nodes whose evidence has XID events. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#allow_xid Acceptance#allow_xid}
  */
  readonly allowXid?: boolean | cdktf.IResolvable;
  /**
  * Required firmware versions by component, e.g. { bmc = "1.2.3", gpu = "96.00.99" }; changed, judged against the versions the evidence recorded.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#firmware Acceptance#firmware}
  */
  readonly firmware?: { [key: string]: string };
  /**
  * The image the gate judges, usually rackform_deployment.x.image_ref of a rolling deployment. When it changes on a recorded gate, the gate runs again inside the rolling reimage that the node's rackform_cluster_member (whose image_ref is the same) carries out after the new image is deployed: this resource records the change in place with passed unknown, and the next refresh reads the new run's verdict and evidence. First recorded, it re-runs nothing. @default not followed (an image change reaches the gate as a replacement of machine_id)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#image_ref Acceptance#image_ref}
  */
  readonly imageRef?: string;
  /**
  * The node's place on its health remediation ladder: rackform_deployment.x.remediation of the node. When it plans a step (a power cycle or a reimage), the gate runs again inside that step, which the node's rackform_cluster_member carries out; this resource records it in place with passed unknown, and the next refresh reads the new run's verdict. While followed, the BMC's findings (bmc_health) are the ladder's to act on: they re-run nothing by replacement and a Critical one no longer fails the verdict by itself (the ladder takes that node to "repair" instead, where it stays quarantined with its evidence). @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#remediation Acceptance#remediation}
  */
  readonly remediation?: string;
  /**
  * How long a gate's evidence stands, e.g. "168h": once the evidence in state was measured longer ago than this, the plan re-runs the gate's active checks (DCGM, NCCL) in place (recheck) — carried out by the node's rackform_cluster_member (whose recheck references this) only while the node runs no jobs, drained within its disruption budget and resumed after; a busy node is planned again. @default evidence never expires
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#evidence_max_age Acceptance#evidence_max_age}
  */
  readonly evidenceMaxAge?: string;
  /**
  * Attest the node's components before it is admitted: for each SPDM component its BMC lists under ComponentIntegrity, a fresh random nonce goes to SPDMGetSignedMeasurements; the answer's signature is verified with the component's certificate, the certificate chain up to `trust_anchors`, the nonce in the answer against the one sent, and each measurement against `reference_values`. A mismatch, an unverifiable chain, a replayed answer or a missing component fails the gate (the node is quarantined with the evidence, the other nodes go on). Runs with every gate run. @default not attested
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#attestation Acceptance#attestation}
  */
  readonly attestation?: AcceptanceAttestation;
  /**
  * The firmware baseline the gate judges: rackform_firmware.x.ref of the node. When it changes, the gate runs again inside the node's rolling update that its rackform_cluster_member (firmware_ref the same) carries out once the new firmware runs, as for image_ref. @default not followed
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#firmware_ref Acceptance#firmware_ref}
  */
  readonly firmwareRef?: string;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#timeouts Acceptance#timeouts}
  */
  readonly timeouts?: AcceptanceTimeouts;
}
export interface AcceptanceBmcHealth {
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#component Acceptance#component}
  */
  readonly component?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#kind Acceptance#kind}
  */
  readonly kind?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#health Acceptance#health}
  */
  readonly health?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#uri Acceptance#uri}
  */
  readonly uri?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#since Acceptance#since}
  */
  readonly since?: string;
}

export function acceptanceBmcHealthToTerraform(struct?: AcceptanceBmcHealth | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    component: cdktf.stringToTerraform(struct!.component),
    kind: cdktf.stringToTerraform(struct!.kind),
    health: cdktf.stringToTerraform(struct!.health),
    uri: cdktf.stringToTerraform(struct!.uri),
    since: cdktf.stringToTerraform(struct!.since),
  }
}


export function acceptanceBmcHealthToHclTerraform(struct?: AcceptanceBmcHealth | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    component: {
      value: cdktf.stringToHclTerraform(struct!.component),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    kind: {
      value: cdktf.stringToHclTerraform(struct!.kind),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    health: {
      value: cdktf.stringToHclTerraform(struct!.health),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    uri: {
      value: cdktf.stringToHclTerraform(struct!.uri),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    since: {
      value: cdktf.stringToHclTerraform(struct!.since),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class AcceptanceBmcHealthOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): AcceptanceBmcHealth | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._component !== undefined) {
      hasAnyValues = true;
      internalValueResult.component = this._component;
    }
    if (this._kind !== undefined) {
      hasAnyValues = true;
      internalValueResult.kind = this._kind;
    }
    if (this._health !== undefined) {
      hasAnyValues = true;
      internalValueResult.health = this._health;
    }
    if (this._uri !== undefined) {
      hasAnyValues = true;
      internalValueResult.uri = this._uri;
    }
    if (this._since !== undefined) {
      hasAnyValues = true;
      internalValueResult.since = this._since;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: AcceptanceBmcHealth | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._component = undefined;
      this._kind = undefined;
      this._health = undefined;
      this._uri = undefined;
      this._since = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._component = value.component;
      this._kind = value.kind;
      this._health = value.health;
      this._uri = value.uri;
      this._since = value.since;
    }
  }

  // component - computed: false, optional: true, required: false
  private _component?: string; 
  public get component() {
    return this.getStringAttribute('component');
  }
  public set component(value: string) {
    this._component = value;
  }
  public resetComponent() {
    this._component = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get componentInput() {
    return this._component;
  }

  // kind - computed: false, optional: true, required: false
  private _kind?: string; 
  public get kind() {
    return this.getStringAttribute('kind');
  }
  public set kind(value: string) {
    this._kind = value;
  }
  public resetKind() {
    this._kind = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get kindInput() {
    return this._kind;
  }

  // health - computed: false, optional: true, required: false
  private _health?: string; 
  public get health() {
    return this.getStringAttribute('health');
  }
  public set health(value: string) {
    this._health = value;
  }
  public resetHealth() {
    this._health = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get healthInput() {
    return this._health;
  }

  // uri - computed: false, optional: true, required: false
  private _uri?: string; 
  public get uri() {
    return this.getStringAttribute('uri');
  }
  public set uri(value: string) {
    this._uri = value;
  }
  public resetUri() {
    this._uri = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get uriInput() {
    return this._uri;
  }

  // since - computed: false, optional: true, required: false
  private _since?: string; 
  public get since() {
    return this.getStringAttribute('since');
  }
  public set since(value: string) {
    this._since = value;
  }
  public resetSince() {
    this._since = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get sinceInput() {
    return this._since;
  }
}

export class AcceptanceBmcHealthList extends cdktf.ComplexList {
  public internalValue? : AcceptanceBmcHealth[] | cdktf.IResolvable

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
  public get(index: number): AcceptanceBmcHealthOutputReference {
    return new AcceptanceBmcHealthOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface AcceptanceAttestation {
  /**
  * Address of the node's BMC, usually rackform_bmc.x.endpoint.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#bmc_endpoint Acceptance#bmc_endpoint}
  */
  readonly bmcEndpoint: string;
  /**
  * CA certificates (PEM) the components' certificate chains must end at, e.g. the GPU and NIC vendors' device-identity root CAs.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#trust_anchors Acceptance#trust_anchors}
  */
  readonly trustAnchors: string[];
  /**
  * The reference measurements to compare with (JSON, usually file("reference.json")): `{"rackform_reference_values": 1, "references": [{"vendor", "model", "version", "measurements": [{"index", "alg", "digest"}]}]}` — a subset of a CoRIM reference-value triple: the firmware version the component reports (measurement index 5) picks the entry, whose digests indices 1–4 must equal.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#reference_values Acceptance#reference_values}
  */
  readonly referenceValues: string;
  /**
  * sha256 of reference_values (64 hex digits): the document a reviewer approved.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#reference_sha256 Acceptance#reference_sha256}
  */
  readonly referenceSha256: string;
  /**
  * Component kinds that must attest (GPU, BMC, NIC, DPU, CPU, Switch, PCIe): a node whose BMC lists none of a kind fails its gate. Every SPDM component the BMC lists is attested either way. @default every listed component
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#components Acceptance#components}
  */
  readonly components?: string[];
}

export function acceptanceAttestationToTerraform(struct?: AcceptanceAttestation | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    bmc_endpoint: cdktf.stringToTerraform(struct!.bmcEndpoint),
    trust_anchors: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.trustAnchors),
    reference_values: cdktf.stringToTerraform(struct!.referenceValues),
    reference_sha256: cdktf.stringToTerraform(struct!.referenceSha256),
    components: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.components),
  }
}


export function acceptanceAttestationToHclTerraform(struct?: AcceptanceAttestation | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    bmc_endpoint: {
      value: cdktf.stringToHclTerraform(struct!.bmcEndpoint),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    trust_anchors: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.trustAnchors),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    reference_values: {
      value: cdktf.stringToHclTerraform(struct!.referenceValues),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    reference_sha256: {
      value: cdktf.stringToHclTerraform(struct!.referenceSha256),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    components: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.components),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class AcceptanceAttestationOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): AcceptanceAttestation | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._bmcEndpoint !== undefined) {
      hasAnyValues = true;
      internalValueResult.bmcEndpoint = this._bmcEndpoint;
    }
    if (this._trustAnchors !== undefined) {
      hasAnyValues = true;
      internalValueResult.trustAnchors = this._trustAnchors;
    }
    if (this._referenceValues !== undefined) {
      hasAnyValues = true;
      internalValueResult.referenceValues = this._referenceValues;
    }
    if (this._referenceSha256 !== undefined) {
      hasAnyValues = true;
      internalValueResult.referenceSha256 = this._referenceSha256;
    }
    if (this._components !== undefined) {
      hasAnyValues = true;
      internalValueResult.components = this._components;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: AcceptanceAttestation | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._bmcEndpoint = undefined;
      this._trustAnchors = undefined;
      this._referenceValues = undefined;
      this._referenceSha256 = undefined;
      this._components = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._bmcEndpoint = value.bmcEndpoint;
      this._trustAnchors = value.trustAnchors;
      this._referenceValues = value.referenceValues;
      this._referenceSha256 = value.referenceSha256;
      this._components = value.components;
    }
  }

  // bmc_endpoint - computed: false, optional: false, required: true
  private _bmcEndpoint?: string; 
  public get bmcEndpoint() {
    return this.getStringAttribute('bmc_endpoint');
  }
  public set bmcEndpoint(value: string) {
    this._bmcEndpoint = value;
  }
  // Temporarily expose input value. Use with caution.
  public get bmcEndpointInput() {
    return this._bmcEndpoint;
  }

  // trust_anchors - computed: false, optional: false, required: true
  private _trustAnchors?: string[]; 
  public get trustAnchors() {
    return this.getListAttribute('trust_anchors');
  }
  public set trustAnchors(value: string[]) {
    this._trustAnchors = value;
  }
  // Temporarily expose input value. Use with caution.
  public get trustAnchorsInput() {
    return this._trustAnchors;
  }

  // reference_values - computed: false, optional: false, required: true
  private _referenceValues?: string; 
  public get referenceValues() {
    return this.getStringAttribute('reference_values');
  }
  public set referenceValues(value: string) {
    this._referenceValues = value;
  }
  // Temporarily expose input value. Use with caution.
  public get referenceValuesInput() {
    return this._referenceValues;
  }

  // reference_sha256 - computed: false, optional: false, required: true
  private _referenceSha256?: string; 
  public get referenceSha256() {
    return this.getStringAttribute('reference_sha256');
  }
  public set referenceSha256(value: string) {
    this._referenceSha256 = value;
  }
  // Temporarily expose input value. Use with caution.
  public get referenceSha256Input() {
    return this._referenceSha256;
  }

  // components - computed: false, optional: true, required: false
  private _components?: string[]; 
  public get components() {
    return this.getListAttribute('components');
  }
  public set components(value: string[]) {
    this._components = value;
  }
  public resetComponents() {
    this._components = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get componentsInput() {
    return this._components;
  }
}
export interface AcceptanceTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#create Acceptance#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#read Acceptance#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#update Acceptance#update}
  */
  readonly update?: string;
  /**
  * How long delete may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#delete Acceptance#delete}
  */
  readonly delete?: string;
}

export function acceptanceTimeoutsToTerraform(struct?: AcceptanceTimeouts | cdktf.IResolvable): any {
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


export function acceptanceTimeoutsToHclTerraform(struct?: AcceptanceTimeouts | cdktf.IResolvable): any {
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

export class AcceptanceTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): AcceptanceTimeouts | cdktf.IResolvable | undefined {
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

  public set internalValue(value: AcceptanceTimeouts | cdktf.IResolvable | undefined) {
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
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance rackform_acceptance}
*/
export class Acceptance extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_acceptance";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Acceptance resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Acceptance to import
  * @param importFromId The id of the existing Acceptance that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Acceptance to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_acceptance", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/acceptance rackform_acceptance} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options AcceptanceConfig
  */
  public constructor(scope: Construct, id: string, config: AcceptanceConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_acceptance',
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
    this._machineId = config.machineId;
    this._dcgmLevel = config.dcgmLevel;
    this._ncclMinBusbwGbps = config.ncclMinBusbwGbps;
    this._burnIn = config.burnIn;
    this._expectedGpuCount = config.expectedGpuCount;
    this._bmcGpuCount = config.bmcGpuCount;
    this._bmcHealth.internalValue = config.bmcHealth;
    this._allowXid = config.allowXid;
    this._firmware = config.firmware;
    this._imageRef = config.imageRef;
    this._remediation = config.remediation;
    this._evidenceMaxAge = config.evidenceMaxAge;
    this._attestation.internalValue = config.attestation;
    this._firmwareRef = config.firmwareRef;
    this._timeouts.internalValue = config.timeouts;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // machine_id - computed: false, optional: false, required: true
  private _machineId?: string; 
  public get machineId() {
    return this.getStringAttribute('machine_id');
  }
  public set machineId(value: string) {
    this._machineId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get machineIdInput() {
    return this._machineId;
  }

  // dcgm_level - computed: true, optional: true, required: false
  private _dcgmLevel?: number; 
  public get dcgmLevel() {
    return this.getNumberAttribute('dcgm_level');
  }
  public set dcgmLevel(value: number) {
    this._dcgmLevel = value;
  }
  public resetDcgmLevel() {
    this._dcgmLevel = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dcgmLevelInput() {
    return this._dcgmLevel;
  }

  // nccl_min_busbw_gbps - computed: false, optional: true, required: false
  private _ncclMinBusbwGbps?: number; 
  public get ncclMinBusbwGbps() {
    return this.getNumberAttribute('nccl_min_busbw_gbps');
  }
  public set ncclMinBusbwGbps(value: number) {
    this._ncclMinBusbwGbps = value;
  }
  public resetNcclMinBusbwGbps() {
    this._ncclMinBusbwGbps = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get ncclMinBusbwGbpsInput() {
    return this._ncclMinBusbwGbps;
  }

  // burn_in - computed: true, optional: true, required: false
  private _burnIn?: string; 
  public get burnIn() {
    return this.getStringAttribute('burn_in');
  }
  public set burnIn(value: string) {
    this._burnIn = value;
  }
  public resetBurnIn() {
    this._burnIn = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get burnInInput() {
    return this._burnIn;
  }

  // expected_gpu_count - computed: false, optional: true, required: false
  private _expectedGpuCount?: number; 
  public get expectedGpuCount() {
    return this.getNumberAttribute('expected_gpu_count');
  }
  public set expectedGpuCount(value: number) {
    this._expectedGpuCount = value;
  }
  public resetExpectedGpuCount() {
    this._expectedGpuCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get expectedGpuCountInput() {
    return this._expectedGpuCount;
  }

  // bmc_gpu_count - computed: false, optional: true, required: false
  private _bmcGpuCount?: number; 
  public get bmcGpuCount() {
    return this.getNumberAttribute('bmc_gpu_count');
  }
  public set bmcGpuCount(value: number) {
    this._bmcGpuCount = value;
  }
  public resetBmcGpuCount() {
    this._bmcGpuCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bmcGpuCountInput() {
    return this._bmcGpuCount;
  }

  // bmc_health - computed: false, optional: true, required: false
  private _bmcHealth = new AcceptanceBmcHealthList(this, "bmc_health", false);
  public get bmcHealth() {
    return this._bmcHealth;
  }
  public putBmcHealth(value: AcceptanceBmcHealth[] | cdktf.IResolvable) {
    this._bmcHealth.internalValue = value;
  }
  public resetBmcHealth() {
    this._bmcHealth.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bmcHealthInput() {
    return this._bmcHealth.internalValue;
  }

  // allow_xid - computed: true, optional: true, required: false
  private _allowXid?: boolean | cdktf.IResolvable; 
  public get allowXid() {
    return this.getBooleanAttribute('allow_xid');
  }
  public set allowXid(value: boolean | cdktf.IResolvable) {
    this._allowXid = value;
  }
  public resetAllowXid() {
    this._allowXid = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get allowXidInput() {
    return this._allowXid;
  }

  // firmware - computed: false, optional: true, required: false
  private _firmware?: { [key: string]: string }; 
  public get firmware() {
    return this.getStringMapAttribute('firmware');
  }
  public set firmware(value: { [key: string]: string }) {
    this._firmware = value;
  }
  public resetFirmware() {
    this._firmware = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get firmwareInput() {
    return this._firmware;
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

  // evidence_max_age - computed: false, optional: true, required: false
  private _evidenceMaxAge?: string; 
  public get evidenceMaxAge() {
    return this.getStringAttribute('evidence_max_age');
  }
  public set evidenceMaxAge(value: string) {
    this._evidenceMaxAge = value;
  }
  public resetEvidenceMaxAge() {
    this._evidenceMaxAge = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get evidenceMaxAgeInput() {
    return this._evidenceMaxAge;
  }

  // recheck - computed: true, optional: false, required: false
  public get recheck() {
    return this.getStringAttribute('recheck');
  }

  // attestation - computed: false, optional: true, required: false
  private _attestation = new AcceptanceAttestationOutputReference(this, "attestation");
  public get attestation() {
    return this._attestation;
  }
  public putAttestation(value: AcceptanceAttestation) {
    this._attestation.internalValue = value;
  }
  public resetAttestation() {
    this._attestation.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get attestationInput() {
    return this._attestation.internalValue;
  }

  // attestation_evidence - computed: true, optional: false, required: false
  public get attestationEvidence() {
    return this.getStringAttribute('attestation_evidence');
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

  // passed - computed: true, optional: false, required: false
  public get passed() {
    return this.getBooleanAttribute('passed');
  }

  // gpu_count - computed: true, optional: false, required: false
  public get gpuCount() {
    return this.getNumberAttribute('gpu_count');
  }

  // busbw_gbps - computed: true, optional: false, required: false
  public get busbwGbps() {
    return this.getNumberAttribute('busbw_gbps');
  }

  // evidence - computed: true, optional: false, required: false
  public get evidence() {
    return this.getStringAttribute('evidence');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new AcceptanceTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: AcceptanceTimeouts) {
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
      machine_id: cdktf.stringToTerraform(this._machineId),
      dcgm_level: cdktf.numberToTerraform(this._dcgmLevel),
      nccl_min_busbw_gbps: cdktf.numberToTerraform(this._ncclMinBusbwGbps),
      burn_in: cdktf.stringToTerraform(this._burnIn),
      expected_gpu_count: cdktf.numberToTerraform(this._expectedGpuCount),
      bmc_gpu_count: cdktf.numberToTerraform(this._bmcGpuCount),
      bmc_health: cdktf.listMapper(acceptanceBmcHealthToTerraform, false)(this._bmcHealth.internalValue),
      allow_xid: cdktf.booleanToTerraform(this._allowXid),
      firmware: cdktf.hashMapper(cdktf.stringToTerraform)(this._firmware),
      image_ref: cdktf.stringToTerraform(this._imageRef),
      remediation: cdktf.stringToTerraform(this._remediation),
      evidence_max_age: cdktf.stringToTerraform(this._evidenceMaxAge),
      attestation: acceptanceAttestationToTerraform(this._attestation.internalValue),
      firmware_ref: cdktf.stringToTerraform(this._firmwareRef),
      timeouts: acceptanceTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      machine_id: {
        value: cdktf.stringToHclTerraform(this._machineId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      dcgm_level: {
        value: cdktf.numberToHclTerraform(this._dcgmLevel),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      nccl_min_busbw_gbps: {
        value: cdktf.numberToHclTerraform(this._ncclMinBusbwGbps),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      burn_in: {
        value: cdktf.stringToHclTerraform(this._burnIn),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      expected_gpu_count: {
        value: cdktf.numberToHclTerraform(this._expectedGpuCount),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      bmc_gpu_count: {
        value: cdktf.numberToHclTerraform(this._bmcGpuCount),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      bmc_health: {
        value: cdktf.listMapperHcl(acceptanceBmcHealthToHclTerraform, false)(this._bmcHealth.internalValue),
        isBlock: true,
        type: "list",
        storageClassType: "AcceptanceBmcHealthList",
      },
      allow_xid: {
        value: cdktf.booleanToHclTerraform(this._allowXid),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      firmware: {
        value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(this._firmware),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      image_ref: {
        value: cdktf.stringToHclTerraform(this._imageRef),
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
      evidence_max_age: {
        value: cdktf.stringToHclTerraform(this._evidenceMaxAge),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      attestation: {
        value: acceptanceAttestationToHclTerraform(this._attestation.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "AcceptanceAttestation",
      },
      firmware_ref: {
        value: cdktf.stringToHclTerraform(this._firmwareRef),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      timeouts: {
        value: acceptanceTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "AcceptanceTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
