// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface BmcConfig extends cdktf.TerraformMetaArguments {
  /**
  * Address of the BMC's Redfish service, e.g. "https://10.0.0.5" (https; http:// only with the provider's redfish.allow_http). Another spelling of the same address (a trailing slash, the default port 443, the host's case) plans nothing. A new address is an in-place update: the apply checks that the same system (UUID, serial) answers there and records it, and nothing built on this BMC is replaced (the machine hands the new address to its backend); a different system there fails the apply for this node, naming both, and changes nothing.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#endpoint Bmc#endpoint}
  */
  readonly endpoint: string;
  /**
  * Id of the ComputerSystem under /redfish/v1/Systems. @default the BMC's only system
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#system_id Bmc#system_id}
  */
  readonly systemId?: string;
  /**
  * The conformance baseline a flavor sets. Create fails, listing every difference, when the node does not match; a later mismatch (drift) sets conformant = false and plans an update that re-checks and records what it finds. @default nothing is checked
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#expected Bmc#expected}
  */
  readonly expected?: BmcExpected;
  /**
  * Boot source override set after discovery, e.g. "Pxe" for the first commissioning boot. Applied on create and when changed; not read back, because a one-time override is consumed by the next boot.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#boot_source_override_target Bmc#boot_source_override_target}
  */
  readonly bootSourceOverrideTarget?: string;
  /**
  * How long the override lasts: "Once", "Continuous" or "Disabled". @default "Once"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#boot_source_override_enabled Bmc#boot_source_override_enabled}
  */
  readonly bootSourceOverrideEnabled?: string;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#timeouts Bmc#timeouts}
  */
  readonly timeouts?: BmcTimeouts;
}
export interface BmcExpected {
  /**
  * Text every GPU model must contain, case-insensitive, e.g. "H100".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#gpu_model Bmc#gpu_model}
  */
  readonly gpuModel?: string;
  /**
  * Exact number of GPUs.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#gpu_count Bmc#gpu_count}
  */
  readonly gpuCount?: number;
  /**
  * Exact number of BlueField DPUs the host lists among its PCIe devices (each converged by its own rackform_dpu).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#dpu_count Bmc#dpu_count}
  */
  readonly dpuCount?: number;
  /**
  * Least system memory in GiB.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#min_memory_gib Bmc#min_memory_gib}
  */
  readonly minMemoryGib?: number;
  /**
  * Exact number of CPU sockets.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#cpu_count Bmc#cpu_count}
  */
  readonly cpuCount?: number;
  /**
  * Exact number of network ports with a MAC address (Redfish EthernetInterfaces).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#nic_count Bmc#nic_count}
  */
  readonly nicCount?: number;
  /**
  * The exact set of MAC addresses (any order and case).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#macs Bmc#macs}
  */
  readonly macs?: string[];
  /**
  * Component → exact version. A component is a FirmwareInventory Id or Name as the BMC lists it (see the computed `firmware`), or `bios_version` / `bmc_firmware_version` for the computed attributes of those names, e.g. { BIOS = "2.3.5" } or { bios_version = "2.3.5" }.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#firmware Bmc#firmware}
  */
  readonly firmware?: { [key: string]: string };
}

export function bmcExpectedToTerraform(struct?: BmcExpected | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    gpu_model: cdktf.stringToTerraform(struct!.gpuModel),
    gpu_count: cdktf.numberToTerraform(struct!.gpuCount),
    dpu_count: cdktf.numberToTerraform(struct!.dpuCount),
    min_memory_gib: cdktf.numberToTerraform(struct!.minMemoryGib),
    cpu_count: cdktf.numberToTerraform(struct!.cpuCount),
    nic_count: cdktf.numberToTerraform(struct!.nicCount),
    macs: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.macs),
    firmware: cdktf.hashMapper(cdktf.stringToTerraform)(struct!.firmware),
  }
}


export function bmcExpectedToHclTerraform(struct?: BmcExpected | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    gpu_model: {
      value: cdktf.stringToHclTerraform(struct!.gpuModel),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    gpu_count: {
      value: cdktf.numberToHclTerraform(struct!.gpuCount),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    dpu_count: {
      value: cdktf.numberToHclTerraform(struct!.dpuCount),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    min_memory_gib: {
      value: cdktf.numberToHclTerraform(struct!.minMemoryGib),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    cpu_count: {
      value: cdktf.numberToHclTerraform(struct!.cpuCount),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    nic_count: {
      value: cdktf.numberToHclTerraform(struct!.nicCount),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    macs: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.macs),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    firmware: {
      value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(struct!.firmware),
      isBlock: false,
      type: "map",
      storageClassType: "stringMap",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class BmcExpectedOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): BmcExpected | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._gpuModel !== undefined) {
      hasAnyValues = true;
      internalValueResult.gpuModel = this._gpuModel;
    }
    if (this._gpuCount !== undefined) {
      hasAnyValues = true;
      internalValueResult.gpuCount = this._gpuCount;
    }
    if (this._dpuCount !== undefined) {
      hasAnyValues = true;
      internalValueResult.dpuCount = this._dpuCount;
    }
    if (this._minMemoryGib !== undefined) {
      hasAnyValues = true;
      internalValueResult.minMemoryGib = this._minMemoryGib;
    }
    if (this._cpuCount !== undefined) {
      hasAnyValues = true;
      internalValueResult.cpuCount = this._cpuCount;
    }
    if (this._nicCount !== undefined) {
      hasAnyValues = true;
      internalValueResult.nicCount = this._nicCount;
    }
    if (this._macs !== undefined) {
      hasAnyValues = true;
      internalValueResult.macs = this._macs;
    }
    if (this._firmware !== undefined) {
      hasAnyValues = true;
      internalValueResult.firmware = this._firmware;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: BmcExpected | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._gpuModel = undefined;
      this._gpuCount = undefined;
      this._dpuCount = undefined;
      this._minMemoryGib = undefined;
      this._cpuCount = undefined;
      this._nicCount = undefined;
      this._macs = undefined;
      this._firmware = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._gpuModel = value.gpuModel;
      this._gpuCount = value.gpuCount;
      this._dpuCount = value.dpuCount;
      this._minMemoryGib = value.minMemoryGib;
      this._cpuCount = value.cpuCount;
      this._nicCount = value.nicCount;
      this._macs = value.macs;
      this._firmware = value.firmware;
    }
  }

  // gpu_model - computed: false, optional: true, required: false
  private _gpuModel?: string; 
  public get gpuModel() {
    return this.getStringAttribute('gpu_model');
  }
  public set gpuModel(value: string) {
    this._gpuModel = value;
  }
  public resetGpuModel() {
    this._gpuModel = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get gpuModelInput() {
    return this._gpuModel;
  }

  // gpu_count - computed: false, optional: true, required: false
  private _gpuCount?: number; 
  public get gpuCount() {
    return this.getNumberAttribute('gpu_count');
  }
  public set gpuCount(value: number) {
    this._gpuCount = value;
  }
  public resetGpuCount() {
    this._gpuCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get gpuCountInput() {
    return this._gpuCount;
  }

  // dpu_count - computed: false, optional: true, required: false
  private _dpuCount?: number; 
  public get dpuCount() {
    return this.getNumberAttribute('dpu_count');
  }
  public set dpuCount(value: number) {
    this._dpuCount = value;
  }
  public resetDpuCount() {
    this._dpuCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dpuCountInput() {
    return this._dpuCount;
  }

  // min_memory_gib - computed: false, optional: true, required: false
  private _minMemoryGib?: number; 
  public get minMemoryGib() {
    return this.getNumberAttribute('min_memory_gib');
  }
  public set minMemoryGib(value: number) {
    this._minMemoryGib = value;
  }
  public resetMinMemoryGib() {
    this._minMemoryGib = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get minMemoryGibInput() {
    return this._minMemoryGib;
  }

  // cpu_count - computed: false, optional: true, required: false
  private _cpuCount?: number; 
  public get cpuCount() {
    return this.getNumberAttribute('cpu_count');
  }
  public set cpuCount(value: number) {
    this._cpuCount = value;
  }
  public resetCpuCount() {
    this._cpuCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get cpuCountInput() {
    return this._cpuCount;
  }

  // nic_count - computed: false, optional: true, required: false
  private _nicCount?: number; 
  public get nicCount() {
    return this.getNumberAttribute('nic_count');
  }
  public set nicCount(value: number) {
    this._nicCount = value;
  }
  public resetNicCount() {
    this._nicCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get nicCountInput() {
    return this._nicCount;
  }

  // macs - computed: false, optional: true, required: false
  private _macs?: string[]; 
  public get macs() {
    return this.getListAttribute('macs');
  }
  public set macs(value: string[]) {
    this._macs = value;
  }
  public resetMacs() {
    this._macs = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get macsInput() {
    return this._macs;
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
}
export interface BmcGpus {
}

export function bmcGpusToTerraform(struct?: BmcGpus): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function bmcGpusToHclTerraform(struct?: BmcGpus): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class BmcGpusOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): BmcGpus | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: BmcGpus | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // model - computed: true, optional: false, required: false
  public get model() {
    return this.getStringAttribute('model');
  }

  // serial - computed: true, optional: false, required: false
  public get serial() {
    return this.getStringAttribute('serial');
  }
}

export class BmcGpusList extends cdktf.ComplexList {

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
  public get(index: number): BmcGpusOutputReference {
    return new BmcGpusOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface BmcHealth {
}

export function bmcHealthToTerraform(struct?: BmcHealth): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function bmcHealthToHclTerraform(struct?: BmcHealth): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class BmcHealthOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): BmcHealth | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: BmcHealth | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // component - computed: true, optional: false, required: false
  public get component() {
    return this.getStringAttribute('component');
  }

  // kind - computed: true, optional: false, required: false
  public get kind() {
    return this.getStringAttribute('kind');
  }

  // health - computed: true, optional: false, required: false
  public get health() {
    return this.getStringAttribute('health');
  }

  // uri - computed: true, optional: false, required: false
  public get uri() {
    return this.getStringAttribute('uri');
  }

  // since - computed: true, optional: false, required: false
  public get since() {
    return this.getStringAttribute('since');
  }
}

export class BmcHealthList extends cdktf.ComplexList {

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
  public get(index: number): BmcHealthOutputReference {
    return new BmcHealthOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface BmcTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#create Bmc#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#read Bmc#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#update Bmc#update}
  */
  readonly update?: string;
}

export function bmcTimeoutsToTerraform(struct?: BmcTimeouts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    create: cdktf.stringToTerraform(struct!.create),
    read: cdktf.stringToTerraform(struct!.read),
    update: cdktf.stringToTerraform(struct!.update),
  }
}


export function bmcTimeoutsToHclTerraform(struct?: BmcTimeouts | cdktf.IResolvable): any {
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
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class BmcTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): BmcTimeouts | cdktf.IResolvable | undefined {
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
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: BmcTimeouts | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._create = undefined;
      this._read = undefined;
      this._update = undefined;
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
}

/**
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc rackform_bmc}
*/
export class Bmc extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_bmc";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Bmc resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Bmc to import
  * @param importFromId The id of the existing Bmc that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Bmc to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_bmc", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/bmc rackform_bmc} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options BmcConfig
  */
  public constructor(scope: Construct, id: string, config: BmcConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_bmc',
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
    this._systemId = config.systemId;
    this._expected.internalValue = config.expected;
    this._bootSourceOverrideTarget = config.bootSourceOverrideTarget;
    this._bootSourceOverrideEnabled = config.bootSourceOverrideEnabled;
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

  // system_id - computed: true, optional: true, required: false
  private _systemId?: string; 
  public get systemId() {
    return this.getStringAttribute('system_id');
  }
  public set systemId(value: string) {
    this._systemId = value;
  }
  public resetSystemId() {
    this._systemId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get systemIdInput() {
    return this._systemId;
  }

  // expected - computed: false, optional: true, required: false
  private _expected = new BmcExpectedOutputReference(this, "expected");
  public get expected() {
    return this._expected;
  }
  public putExpected(value: BmcExpected) {
    this._expected.internalValue = value;
  }
  public resetExpected() {
    this._expected.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get expectedInput() {
    return this._expected.internalValue;
  }

  // boot_source_override_target - computed: false, optional: true, required: false
  private _bootSourceOverrideTarget?: string; 
  public get bootSourceOverrideTarget() {
    return this.getStringAttribute('boot_source_override_target');
  }
  public set bootSourceOverrideTarget(value: string) {
    this._bootSourceOverrideTarget = value;
  }
  public resetBootSourceOverrideTarget() {
    this._bootSourceOverrideTarget = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bootSourceOverrideTargetInput() {
    return this._bootSourceOverrideTarget;
  }

  // boot_source_override_enabled - computed: false, optional: true, required: false
  private _bootSourceOverrideEnabled?: string; 
  public get bootSourceOverrideEnabled() {
    return this.getStringAttribute('boot_source_override_enabled');
  }
  public set bootSourceOverrideEnabled(value: string) {
    this._bootSourceOverrideEnabled = value;
  }
  public resetBootSourceOverrideEnabled() {
    this._bootSourceOverrideEnabled = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bootSourceOverrideEnabledInput() {
    return this._bootSourceOverrideEnabled;
  }

  // system_uuid - computed: true, optional: false, required: false
  public get systemUuid() {
    return this.getStringAttribute('system_uuid');
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

  // power_state - computed: true, optional: false, required: false
  public get powerState() {
    return this.getStringAttribute('power_state');
  }

  // macs - computed: true, optional: false, required: false
  public get macs() {
    return this.getListAttribute('macs');
  }

  // gpus - computed: true, optional: false, required: false
  private _gpus = new BmcGpusList(this, "gpus", false);
  public get gpus() {
    return this._gpus;
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

  // health - computed: true, optional: false, required: false
  private _health = new BmcHealthList(this, "health", false);
  public get health() {
    return this._health;
  }

  // conformant - computed: true, optional: false, required: false
  public get conformant() {
    return this.getBooleanAttribute('conformant');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new BmcTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: BmcTimeouts) {
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
      system_id: cdktf.stringToTerraform(this._systemId),
      expected: bmcExpectedToTerraform(this._expected.internalValue),
      boot_source_override_target: cdktf.stringToTerraform(this._bootSourceOverrideTarget),
      boot_source_override_enabled: cdktf.stringToTerraform(this._bootSourceOverrideEnabled),
      timeouts: bmcTimeoutsToTerraform(this._timeouts.internalValue),
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
      system_id: {
        value: cdktf.stringToHclTerraform(this._systemId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      expected: {
        value: bmcExpectedToHclTerraform(this._expected.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "BmcExpected",
      },
      boot_source_override_target: {
        value: cdktf.stringToHclTerraform(this._bootSourceOverrideTarget),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      boot_source_override_enabled: {
        value: cdktf.stringToHclTerraform(this._bootSourceOverrideEnabled),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      timeouts: {
        value: bmcTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "BmcTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
