// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface FirmwareConfig extends cdktf.TerraformMetaArguments {
  /**
  * Address of the node's BMC, usually rackform_bmc.x.endpoint (which also orders this after the BMC). Another spelling of the same address plans nothing; a new address is followed in place.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#endpoint Firmware#endpoint}
  */
  readonly endpoint: string;
  /**
  * The firmware baseline by component, named as the BMC's FirmwareInventory names it (an item's Id or Name, e.g. "BIOS", "iDRAC firmware", "GPU firmware"): each entry is the version the node must run and its image. A component the node does not have fails the apply before anything is sent.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#components Firmware#components}
  */
  readonly components?: { [key: string]: FirmwareComponents } | cdktf.IResolvable;
  /**
  * BIOS settings by AttributeRegistry name, e.g. { SriovGlobalEnable = "Enabled", ProcVirtualization = "Enabled" }; values are written as the registry types them (Integer and Boolean attributes from their text). Settings not named here are left as they are. A setting changed by hand plans an in-place fix of that setting only.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#bios Firmware#bios}
  */
  readonly bios?: { [key: string]: string };
  /**
  * UEFI Secure Boot as part of the node's flavor, converged through Redfish (Systems/{id}/SecureBoot and its SecureBootDatabases): the certificates and revocations enrolled, then Secure Boot enabled, all activated by the same single reset as the firmware and BIOS settings. Read back on every refresh: Secure Boot turned off by hand, or a certificate removed, plans an in-place fix (and moves `ref`, so the node's cluster member and gate follow). A node in Setup Mode (no Platform Key) cannot enforce Secure Boot: the apply fails before any write, naming the fix. The golden image must be signed by a key in db, or the node will not boot it.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#secure_boot Firmware#secure_boot}
  */
  readonly secureBoot?: FirmwareSecureBoot;
  /**
  * The node is (or may be) in service: when its host is powered on, apply stages the updates and settings and leaves the reset to the node's rackform_cluster_member (its `firmware_ref` = this `ref`), which runs it inside the disruption budget. A powered-off host (a node not yet enrolled) is converged here at once. The Rack construct sets it when the rack has a cluster. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#rolling Firmware#rolling}
  */
  readonly rolling?: boolean | cdktf.IResolvable;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#timeouts Firmware#timeouts}
  */
  readonly timeouts?: FirmwareTimeouts;
}
export interface FirmwareComponents {
  /**
  * The version the inventory item reports once the image runs, e.g. "2.3.1".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#version Firmware#version}
  */
  readonly version: string;
  /**
  * Where rackform reads the image from (http or https); it is streamed to the BMC.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#url Firmware#url}
  */
  readonly url: string;
  /**
  * sha256 of the image (64 hex digits), checked in one streamed pass before anything is sent to the BMC.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#sha256 Firmware#sha256}
  */
  readonly sha256: string;
}

export function firmwareComponentsToTerraform(struct?: FirmwareComponents | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    version: cdktf.stringToTerraform(struct!.version),
    url: cdktf.stringToTerraform(struct!.url),
    sha256: cdktf.stringToTerraform(struct!.sha256),
  }
}


export function firmwareComponentsToHclTerraform(struct?: FirmwareComponents | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    version: {
      value: cdktf.stringToHclTerraform(struct!.version),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    sha256: {
      value: cdktf.stringToHclTerraform(struct!.sha256),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class FirmwareComponentsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): FirmwareComponents | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._version !== undefined) {
      hasAnyValues = true;
      internalValueResult.version = this._version;
    }
    if (this._url !== undefined) {
      hasAnyValues = true;
      internalValueResult.url = this._url;
    }
    if (this._sha256 !== undefined) {
      hasAnyValues = true;
      internalValueResult.sha256 = this._sha256;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: FirmwareComponents | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._version = undefined;
      this._url = undefined;
      this._sha256 = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._version = value.version;
      this._url = value.url;
      this._sha256 = value.sha256;
    }
  }

  // version - computed: false, optional: false, required: true
  private _version?: string; 
  public get version() {
    return this.getStringAttribute('version');
  }
  public set version(value: string) {
    this._version = value;
  }
  // Temporarily expose input value. Use with caution.
  public get versionInput() {
    return this._version;
  }

  // url - computed: false, optional: false, required: true
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // sha256 - computed: false, optional: false, required: true
  private _sha256?: string; 
  public get sha256() {
    return this.getStringAttribute('sha256');
  }
  public set sha256(value: string) {
    this._sha256 = value;
  }
  // Temporarily expose input value. Use with caution.
  public get sha256Input() {
    return this._sha256;
  }
}

export class FirmwareComponentsMap extends cdktf.ComplexMap {
  public internalValue? : { [key: string]: FirmwareComponents } | cdktf.IResolvable

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  constructor(protected terraformResource: cdktf.IInterpolatingParent, protected terraformAttribute: string) {
    super(terraformResource, terraformAttribute)
  }

  /**
  * @param key the key of the item to return
  */
  public get(key: string): FirmwareComponentsOutputReference {
    return new FirmwareComponentsOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}
export interface FirmwareSecureBoot {
  /**
  * UEFI Secure Boot enforced (SecureBootEnable). Turned on or off at the node's next reset, the one this apply runs for the firmware baseline (or its cluster member runs inside the disruption budget).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#enabled Firmware#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
  /**
  * Certificates (PEM) that must be in the allowed-signature database `db`, e.g. the key that signs your golden image's boot chain. Enrolled when missing; certificates already there stay.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#db Firmware#db}
  */
  readonly db?: string[];
  /**
  * Certificates (PEM) that must be in the Key Exchange Key database `KEK`. Enrolled when missing, before db.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#kek Firmware#kek}
  */
  readonly kek?: string[];
  /**
  * SHA-256 digests (hex) of binaries that must be in the forbidden-signature database `dbx` (revocations). Added when missing.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#dbx Firmware#dbx}
  */
  readonly dbx?: string[];
}

export function firmwareSecureBootToTerraform(struct?: FirmwareSecureBoot | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
    db: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.db),
    kek: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.kek),
    dbx: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.dbx),
  }
}


export function firmwareSecureBootToHclTerraform(struct?: FirmwareSecureBoot | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    db: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.db),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    kek: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.kek),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    dbx: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.dbx),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class FirmwareSecureBootOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): FirmwareSecureBoot | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    if (this._db !== undefined) {
      hasAnyValues = true;
      internalValueResult.db = this._db;
    }
    if (this._kek !== undefined) {
      hasAnyValues = true;
      internalValueResult.kek = this._kek;
    }
    if (this._dbx !== undefined) {
      hasAnyValues = true;
      internalValueResult.dbx = this._dbx;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: FirmwareSecureBoot | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
      this._db = undefined;
      this._kek = undefined;
      this._dbx = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
      this._db = value.db;
      this._kek = value.kek;
      this._dbx = value.dbx;
    }
  }

  // enabled - computed: false, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }

  // db - computed: false, optional: true, required: false
  private _db?: string[]; 
  public get db() {
    return this.getListAttribute('db');
  }
  public set db(value: string[]) {
    this._db = value;
  }
  public resetDb() {
    this._db = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dbInput() {
    return this._db;
  }

  // kek - computed: false, optional: true, required: false
  private _kek?: string[]; 
  public get kek() {
    return this.getListAttribute('kek');
  }
  public set kek(value: string[]) {
    this._kek = value;
  }
  public resetKek() {
    this._kek = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get kekInput() {
    return this._kek;
  }

  // dbx - computed: false, optional: true, required: false
  private _dbx?: string[]; 
  public get dbx() {
    return this.getListAttribute('dbx');
  }
  public set dbx(value: string[]) {
    this._dbx = value;
  }
  public resetDbx() {
    this._dbx = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dbxInput() {
    return this._dbx;
  }
}
export interface FirmwareSecureBootStatus {
}

export function firmwareSecureBootStatusToTerraform(struct?: FirmwareSecureBootStatus): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function firmwareSecureBootStatusToHclTerraform(struct?: FirmwareSecureBootStatus): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class FirmwareSecureBootStatusOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): FirmwareSecureBootStatus | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: FirmwareSecureBootStatus | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // enabled - computed: true, optional: false, required: false
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }

  // current_boot - computed: true, optional: false, required: false
  public get currentBoot() {
    return this.getStringAttribute('current_boot');
  }

  // mode - computed: true, optional: false, required: false
  public get mode() {
    return this.getStringAttribute('mode');
  }

  // missing - computed: true, optional: false, required: false
  public get missing() {
    return this.getListAttribute('missing');
  }
}
export interface FirmwareTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#create Firmware#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#read Firmware#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#update Firmware#update}
  */
  readonly update?: string;
}

export function firmwareTimeoutsToTerraform(struct?: FirmwareTimeouts | cdktf.IResolvable): any {
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


export function firmwareTimeoutsToHclTerraform(struct?: FirmwareTimeouts | cdktf.IResolvable): any {
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

export class FirmwareTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): FirmwareTimeouts | cdktf.IResolvable | undefined {
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

  public set internalValue(value: FirmwareTimeouts | cdktf.IResolvable | undefined) {
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
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware rackform_firmware}
*/
export class Firmware extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_firmware";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Firmware resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Firmware to import
  * @param importFromId The id of the existing Firmware that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Firmware to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_firmware", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/firmware rackform_firmware} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options FirmwareConfig
  */
  public constructor(scope: Construct, id: string, config: FirmwareConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_firmware',
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
    this._components.internalValue = config.components;
    this._bios = config.bios;
    this._secureBoot.internalValue = config.secureBoot;
    this._rolling = config.rolling;
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

  // components - computed: false, optional: true, required: false
  private _components = new FirmwareComponentsMap(this, "components");
  public get components() {
    return this._components;
  }
  public putComponents(value: { [key: string]: FirmwareComponents } | cdktf.IResolvable) {
    this._components.internalValue = value;
  }
  public resetComponents() {
    this._components.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get componentsInput() {
    return this._components.internalValue;
  }

  // bios - computed: false, optional: true, required: false
  private _bios?: { [key: string]: string }; 
  public get bios() {
    return this.getStringMapAttribute('bios');
  }
  public set bios(value: { [key: string]: string }) {
    this._bios = value;
  }
  public resetBios() {
    this._bios = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get biosInput() {
    return this._bios;
  }

  // secure_boot - computed: false, optional: true, required: false
  private _secureBoot = new FirmwareSecureBootOutputReference(this, "secure_boot");
  public get secureBoot() {
    return this._secureBoot;
  }
  public putSecureBoot(value: FirmwareSecureBoot) {
    this._secureBoot.internalValue = value;
  }
  public resetSecureBoot() {
    this._secureBoot.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secureBootInput() {
    return this._secureBoot.internalValue;
  }

  // secure_boot_status - computed: true, optional: false, required: false
  private _secureBootStatus = new FirmwareSecureBootStatusOutputReference(this, "secure_boot_status");
  public get secureBootStatus() {
    return this._secureBootStatus;
  }

  // rolling - computed: true, optional: true, required: false
  private _rolling?: boolean | cdktf.IResolvable; 
  public get rolling() {
    return this.getBooleanAttribute('rolling');
  }
  public set rolling(value: boolean | cdktf.IResolvable) {
    this._rolling = value;
  }
  public resetRolling() {
    this._rolling = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get rollingInput() {
    return this._rolling;
  }

  // versions - computed: true, optional: false, required: false
  private _versions = new cdktf.StringMap(this, "versions");
  public get versions() {
    return this._versions;
  }

  // bios_settings - computed: true, optional: false, required: false
  private _biosSettings = new cdktf.StringMap(this, "bios_settings");
  public get biosSettings() {
    return this._biosSettings;
  }

  // bios_pending - computed: true, optional: false, required: false
  private _biosPending = new cdktf.StringMap(this, "bios_pending");
  public get biosPending() {
    return this._biosPending;
  }

  // ref - computed: true, optional: false, required: false
  public get ref() {
    return this.getStringAttribute('ref');
  }

  // update_order - computed: true, optional: false, required: false
  public get updateOrder() {
    return this.getListAttribute('update_order');
  }

  // last_update_messages - computed: true, optional: false, required: false
  public get lastUpdateMessages() {
    return this.getListAttribute('last_update_messages');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new FirmwareTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: FirmwareTimeouts) {
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
      components: cdktf.hashMapper(firmwareComponentsToTerraform)(this._components.internalValue),
      bios: cdktf.hashMapper(cdktf.stringToTerraform)(this._bios),
      secure_boot: firmwareSecureBootToTerraform(this._secureBoot.internalValue),
      rolling: cdktf.booleanToTerraform(this._rolling),
      timeouts: firmwareTimeoutsToTerraform(this._timeouts.internalValue),
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
      components: {
        value: cdktf.hashMapperHcl(firmwareComponentsToHclTerraform)(this._components.internalValue),
        isBlock: true,
        type: "map",
        storageClassType: "FirmwareComponentsMap",
      },
      bios: {
        value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(this._bios),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      secure_boot: {
        value: firmwareSecureBootToHclTerraform(this._secureBoot.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "FirmwareSecureBoot",
      },
      rolling: {
        value: cdktf.booleanToHclTerraform(this._rolling),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      timeouts: {
        value: firmwareTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "FirmwareTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
