// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface DataRackformInventoryConfig extends cdktf.TerraformMetaArguments {
  /**
  * The BMCs to discover. Set this or csv.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#bmcs DataRackformInventory#bmcs}
  */
  readonly bmcs?: DataRackformInventoryBmcs[] | cdktf.IResolvable;
  /**
  * CSV text with a header line naming the columns name, endpoint and optionally rack and u (other columns are ignored), e.g. csv = file("bmcs.csv"). Set this or bmcs.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#csv DataRackformInventory#csv}
  */
  readonly csv?: string;
  /**
  * BMCs read at the same time. @default 16
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#concurrency DataRackformInventory#concurrency}
  */
  readonly concurrency?: number;
  /**
  * How long one BMC may take before its row reports it unreachable. @default "60s"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#bmc_timeout DataRackformInventory#bmc_timeout}
  */
  readonly bmcTimeout?: string;
}
export interface DataRackformInventoryBmcs {
  /**
  * Name of the node.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#name DataRackformInventory#name}
  */
  readonly name: string;
  /**
  * Address of its BMC, e.g. "https://10.0.0.5".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#endpoint DataRackformInventory#endpoint}
  */
  readonly endpoint: string;
}

export function dataRackformInventoryBmcsToTerraform(struct?: DataRackformInventoryBmcs | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    name: cdktf.stringToTerraform(struct!.name),
    endpoint: cdktf.stringToTerraform(struct!.endpoint),
  }
}


export function dataRackformInventoryBmcsToHclTerraform(struct?: DataRackformInventoryBmcs | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    name: {
      value: cdktf.stringToHclTerraform(struct!.name),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    endpoint: {
      value: cdktf.stringToHclTerraform(struct!.endpoint),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class DataRackformInventoryBmcsOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): DataRackformInventoryBmcs | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._name !== undefined) {
      hasAnyValues = true;
      internalValueResult.name = this._name;
    }
    if (this._endpoint !== undefined) {
      hasAnyValues = true;
      internalValueResult.endpoint = this._endpoint;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataRackformInventoryBmcs | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._name = undefined;
      this._endpoint = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._name = value.name;
      this._endpoint = value.endpoint;
    }
  }

  // name - computed: false, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
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
}

export class DataRackformInventoryBmcsList extends cdktf.ComplexList {
  public internalValue? : DataRackformInventoryBmcs[] | cdktf.IResolvable

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
  public get(index: number): DataRackformInventoryBmcsOutputReference {
    return new DataRackformInventoryBmcsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface DataRackformInventoryNodes {
}

export function dataRackformInventoryNodesToTerraform(struct?: DataRackformInventoryNodes): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataRackformInventoryNodesToHclTerraform(struct?: DataRackformInventoryNodes): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataRackformInventoryNodesOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataRackformInventoryNodes | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataRackformInventoryNodes | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // endpoint - computed: true, optional: false, required: false
  public get endpoint() {
    return this.getStringAttribute('endpoint');
  }

  // rack - computed: true, optional: false, required: false
  public get rack() {
    return this.getStringAttribute('rack');
  }

  // u - computed: true, optional: false, required: false
  public get u() {
    return this.getNumberAttribute('u');
  }

  // reachable - computed: true, optional: false, required: false
  public get reachable() {
    return this.getBooleanAttribute('reachable');
  }

  // error - computed: true, optional: false, required: false
  public get error() {
    return this.getStringAttribute('error');
  }

  // system_id - computed: true, optional: false, required: false
  public get systemId() {
    return this.getStringAttribute('system_id');
  }

  // serial - computed: true, optional: false, required: false
  public get serial() {
    return this.getStringAttribute('serial');
  }

  // model - computed: true, optional: false, required: false
  public get model() {
    return this.getStringAttribute('model');
  }

  // manufacturer - computed: true, optional: false, required: false
  public get manufacturer() {
    return this.getStringAttribute('manufacturer');
  }

  // gpu_model - computed: true, optional: false, required: false
  public get gpuModel() {
    return this.getStringAttribute('gpu_model');
  }

  // gpu_count - computed: true, optional: false, required: false
  public get gpuCount() {
    return this.getNumberAttribute('gpu_count');
  }

  // memory_gib - computed: true, optional: false, required: false
  public get memoryGib() {
    return this.getNumberAttribute('memory_gib');
  }

  // cpu_count - computed: true, optional: false, required: false
  public get cpuCount() {
    return this.getNumberAttribute('cpu_count');
  }

  // macs - computed: true, optional: false, required: false
  public get macs() {
    return this.getListAttribute('macs');
  }

  // firmware - computed: true, optional: false, required: false
  private _firmware = new cdktf.StringMap(this, "firmware");
  public get firmware() {
    return this._firmware;
  }

  // bios_version - computed: true, optional: false, required: false
  public get biosVersion() {
    return this.getStringAttribute('bios_version');
  }

  // bmc_firmware_version - computed: true, optional: false, required: false
  public get bmcFirmwareVersion() {
    return this.getStringAttribute('bmc_firmware_version');
  }
}

export class DataRackformInventoryNodesList extends cdktf.ComplexList {

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
  public get(index: number): DataRackformInventoryNodesOutputReference {
    return new DataRackformInventoryNodesOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory rackform_inventory}
*/
export class DataRackformInventory extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_inventory";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataRackformInventory resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataRackformInventory to import
  * @param importFromId The id of the existing DataRackformInventory that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataRackformInventory to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_inventory", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/data-sources/inventory rackform_inventory} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataRackformInventoryConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataRackformInventoryConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'rackform_inventory',
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
    this._bmcs.internalValue = config.bmcs;
    this._csv = config.csv;
    this._concurrency = config.concurrency;
    this._bmcTimeout = config.bmcTimeout;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // bmcs - computed: false, optional: true, required: false
  private _bmcs = new DataRackformInventoryBmcsList(this, "bmcs", false);
  public get bmcs() {
    return this._bmcs;
  }
  public putBmcs(value: DataRackformInventoryBmcs[] | cdktf.IResolvable) {
    this._bmcs.internalValue = value;
  }
  public resetBmcs() {
    this._bmcs.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bmcsInput() {
    return this._bmcs.internalValue;
  }

  // csv - computed: false, optional: true, required: false
  private _csv?: string; 
  public get csv() {
    return this.getStringAttribute('csv');
  }
  public set csv(value: string) {
    this._csv = value;
  }
  public resetCsv() {
    this._csv = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get csvInput() {
    return this._csv;
  }

  // concurrency - computed: false, optional: true, required: false
  private _concurrency?: number; 
  public get concurrency() {
    return this.getNumberAttribute('concurrency');
  }
  public set concurrency(value: number) {
    this._concurrency = value;
  }
  public resetConcurrency() {
    this._concurrency = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get concurrencyInput() {
    return this._concurrency;
  }

  // bmc_timeout - computed: false, optional: true, required: false
  private _bmcTimeout?: string; 
  public get bmcTimeout() {
    return this.getStringAttribute('bmc_timeout');
  }
  public set bmcTimeout(value: string) {
    this._bmcTimeout = value;
  }
  public resetBmcTimeout() {
    this._bmcTimeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bmcTimeoutInput() {
    return this._bmcTimeout;
  }

  // nodes - computed: true, optional: false, required: false
  private _nodes = new DataRackformInventoryNodesList(this, "nodes", false);
  public get nodes() {
    return this._nodes;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      bmcs: cdktf.listMapper(dataRackformInventoryBmcsToTerraform, false)(this._bmcs.internalValue),
      csv: cdktf.stringToTerraform(this._csv),
      concurrency: cdktf.numberToTerraform(this._concurrency),
      bmc_timeout: cdktf.stringToTerraform(this._bmcTimeout),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      bmcs: {
        value: cdktf.listMapperHcl(dataRackformInventoryBmcsToHclTerraform, false)(this._bmcs.internalValue),
        isBlock: true,
        type: "list",
        storageClassType: "DataRackformInventoryBmcsList",
      },
      csv: {
        value: cdktf.stringToHclTerraform(this._csv),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      concurrency: {
        value: cdktf.numberToHclTerraform(this._concurrency),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      bmc_timeout: {
        value: cdktf.stringToHclTerraform(this._bmcTimeout),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
