// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface PduOutletConfig extends cdktf.TerraformMetaArguments {
  /**
  * Address of the PDU's Redfish service, e.g. "https://10.0.0.9" (https; http:// only with the provider's redfish.allow_http). Another spelling of the same address (a trailing slash, the default port 443, the host's case) plans nothing. A new address is an in-place update: the apply checks that the same rack PDU (pdu_id) with this outlet answers there and records it; a different PDU there fails the apply for this outlet, naming both, and switches nothing.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#endpoint PduOutlet#endpoint}
  */
  readonly endpoint: string;
  /**
  * Id of the rack PDU under PowerEquipment/RackPDUs, e.g. "r01-pdu-a". @default the service's only rack PDU
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#pdu_id PduOutlet#pdu_id}
  */
  readonly pduId?: string;
  /**
  * Id of the outlet as the PDU names it, e.g. "7" (or "A1"). Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#outlet_id PduOutlet#outlet_id}
  */
  readonly outletId: string;
  /**
  * Wanted power state: "On" or "Off". Drift (someone flipped the outlet) shows in the next plan.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#power_state PduOutlet#power_state}
  */
  readonly powerState: string;
  /**
  * What destroy does to the outlet: "Off" cuts power; "Unchanged" only forgets it. @default "Unchanged"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#power_state_on_destroy PduOutlet#power_state_on_destroy}
  */
  readonly powerStateOnDestroy?: string;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#timeouts PduOutlet#timeouts}
  */
  readonly timeouts?: PduOutletTimeouts;
}
export interface PduOutletTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#create PduOutlet#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#read PduOutlet#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#update PduOutlet#update}
  */
  readonly update?: string;
  /**
  * How long delete may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#delete PduOutlet#delete}
  */
  readonly delete?: string;
}

export function pduOutletTimeoutsToTerraform(struct?: PduOutletTimeouts | cdktf.IResolvable): any {
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


export function pduOutletTimeoutsToHclTerraform(struct?: PduOutletTimeouts | cdktf.IResolvable): any {
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

export class PduOutletTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): PduOutletTimeouts | cdktf.IResolvable | undefined {
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

  public set internalValue(value: PduOutletTimeouts | cdktf.IResolvable | undefined) {
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
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet rackform_pdu_outlet}
*/
export class PduOutlet extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_pdu_outlet";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a PduOutlet resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the PduOutlet to import
  * @param importFromId The id of the existing PduOutlet that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the PduOutlet to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_pdu_outlet", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/pdu_outlet rackform_pdu_outlet} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options PduOutletConfig
  */
  public constructor(scope: Construct, id: string, config: PduOutletConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_pdu_outlet',
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
    this._endpoint = config.endpoint;
    this._pduId = config.pduId;
    this._outletId = config.outletId;
    this._powerState = config.powerState;
    this._powerStateOnDestroy = config.powerStateOnDestroy;
    this._timeouts.internalValue = config.timeouts;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // endpoint - computed: false, optional: false, required: true
  private _endpoint?: string; 
  public get endpoint() {
    return this.getStringAttribute('endpoint');
  }
  public set endpoint(value: string) {
    this._endpoint = value;
  }
  // Temporarily expose input value. Use with caution.
  public get endpointInput() {
    return this._endpoint;
  }

  // pdu_id - computed: true, optional: true, required: false
  private _pduId?: string; 
  public get pduId() {
    return this.getStringAttribute('pdu_id');
  }
  public set pduId(value: string) {
    this._pduId = value;
  }
  public resetPduId() {
    this._pduId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get pduIdInput() {
    return this._pduId;
  }

  // outlet_id - computed: false, optional: false, required: true
  private _outletId?: string; 
  public get outletId() {
    return this.getStringAttribute('outlet_id');
  }
  public set outletId(value: string) {
    this._outletId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get outletIdInput() {
    return this._outletId;
  }

  // power_state - computed: false, optional: false, required: true
  private _powerState?: string; 
  public get powerState() {
    return this.getStringAttribute('power_state');
  }
  public set powerState(value: string) {
    this._powerState = value;
  }
  // Temporarily expose input value. Use with caution.
  public get powerStateInput() {
    return this._powerState;
  }

  // power_state_on_destroy - computed: true, optional: true, required: false
  private _powerStateOnDestroy?: string; 
  public get powerStateOnDestroy() {
    return this.getStringAttribute('power_state_on_destroy');
  }
  public set powerStateOnDestroy(value: string) {
    this._powerStateOnDestroy = value;
  }
  public resetPowerStateOnDestroy() {
    this._powerStateOnDestroy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get powerStateOnDestroyInput() {
    return this._powerStateOnDestroy;
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new PduOutletTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: PduOutletTimeouts) {
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
      endpoint: cdktf.stringToTerraform(this._endpoint),
      pdu_id: cdktf.stringToTerraform(this._pduId),
      outlet_id: cdktf.stringToTerraform(this._outletId),
      power_state: cdktf.stringToTerraform(this._powerState),
      power_state_on_destroy: cdktf.stringToTerraform(this._powerStateOnDestroy),
      timeouts: pduOutletTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      endpoint: {
        value: cdktf.stringToHclTerraform(this._endpoint),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      pdu_id: {
        value: cdktf.stringToHclTerraform(this._pduId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      outlet_id: {
        value: cdktf.stringToHclTerraform(this._outletId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      power_state: {
        value: cdktf.stringToHclTerraform(this._powerState),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      power_state_on_destroy: {
        value: cdktf.stringToHclTerraform(this._powerStateOnDestroy),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      timeouts: {
        value: pduOutletTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "PduOutletTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
