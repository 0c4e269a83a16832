// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface DeploymentConfig extends cdktf.TerraformMetaArguments {
  /**
  * The rackform_machine id, e.g. "maas:4y3h7n" or "ironic:<uuid>". Changing it replaces the deployment.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#machine_id Deployment#machine_id}
  */
  readonly machineId: string;
  /**
  * The golden image: name, version, url, sha256, signature, and whether apply checks the url.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#image Deployment#image}
  */
  readonly image: DeploymentImage;
  /**
  * cloud-init user data. A line `rackform-join: slurm` (or `kubernetes`, or both comma-separated) asks the booted node to register with the scheduler; rackform_cluster_member then admits it. Changing it reimages.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#user_data Deployment#user_data}
  */
  readonly userData?: string;
  /**
  * MAAS osystem (MAAS only). @default "custom" (an uploaded custom image)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#osystem Deployment#osystem}
  */
  readonly osystem?: string;
  /**
  * MAAS distro_series (MAAS only), e.g. "noble". @default "<image.name>-<image.version>" (the custom image uploaded under that name)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#distro_series Deployment#distro_series}
  */
  readonly distroSeries?: string;
  /**
  * Ironic only: URL of the deploy (IPA) kernel for this deployment, written to the node's driver_info before the deploy, overriding the provider's ironic.deploy_kernel (which every node gets at enrollment, so provide's cleaning can boot the ramdisk: set the images there). It stays in driver_info, so the tear-down's cleaning boots it too. Set it together with deploy_ramdisk: Ironic takes the conductor's `[conductor]deploy_kernel` defaults only when driver_info names neither. @default not written (the provider's images, else the conductor's defaults)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#deploy_kernel Deployment#deploy_kernel}
  */
  readonly deployKernel?: string;
  /**
  * Ironic only: URL of the deploy (IPA) ramdisk for this deployment, overriding the provider's ironic.deploy_ramdisk; set it together with deploy_kernel (see there). @default not written (the provider's images, else the conductor's defaults)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#deploy_ramdisk Deployment#deploy_ramdisk}
  */
  readonly deployRamdisk?: string;
  /**
  * Erase the disks when the deployment is destroyed (MAAS release with erase). Ironic always undeploys through its automated cleaning. @default true
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#erase_on_destroy Deployment#erase_on_destroy}
  */
  readonly eraseOnDestroy?: boolean | cdktf.IResolvable;
  /**
  * Reimage in place, one node at a time, through the node's rackform_cluster_member: a new image name, version, url or sha256 is recorded here in place (the plan reads "update in-place", not "must be replaced"), and the member whose image_ref references this deployment's carries the reimage out in one step within its disruption budget (drain, release and deploy, the gate of the rackform_acceptance whose image_ref references it too, rejoin). Until the backend reports the new image, deployed_image shows the old one and each plan offers the reimage again. It takes effect from the change after the one that records it (a rack switched to rolling in the same change as its image still reimages by replacement, since its members have no image_ref recorded yet). The Rack construct sets it with a disruption budget; without a member referencing image_ref nothing would carry the reimage out. User data and backend settings still replace. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#rolling Deployment#rolling}
  */
  readonly rolling?: boolean | cdktf.IResolvable;
  /**
  * The components the node's BMC reports not healthy, usually rackform_bmc.x.health, concatenated with data.rackform_scheduler_health.x.findings["<node>"] where the scheduler's own marks count too (an OS hang shows there, not on the BMC): while one is Critical the deployment plans the node's next remediation step (see remediation). Warnings are shown, never acted on. @default not followed (no remediation)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#bmc_health Deployment#bmc_health}
  */
  readonly bmcHealth?: DeploymentBmcHealth[] | cdktf.IResolvable;
  /**
  * The ladder's steps before quarantine for repair, in order: "power_cycle" (a power cycle through the backend, then the gate again) and "reimage" (the pinned image deployed again, then the gate again). An empty list quarantines a node for repair at its first Critical finding. @default ["power_cycle", "reimage"]
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#remediation_steps Deployment#remediation_steps}
  */
  readonly remediationSteps?: string[];
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#timeouts Deployment#timeouts}
  */
  readonly timeouts?: DeploymentTimeouts;
}
export interface DeploymentImage {
  /**
  * Image name, e.g. "ubuntu-gpu".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#name Deployment#name}
  */
  readonly name: string;
  /**
  * Image version, e.g. "2026.06.2". Changing it reimages the machine.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#version Deployment#version}
  */
  readonly version: string;
  /**
  * Where the image is served, an http or https URL; required by Ironic (instance_info.image_source), unused by MAAS (which deploys the boot resource uploaded under distro_series). Credentials in the URL (user:password@) are sent as HTTP basic auth and never shown. For Ironic, apply first checks that the URL answers (see check_url).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#url Deployment#url}
  */
  readonly url?: string;
  /**
  * Before an Ironic deploy, ask the image server whether image.url answers (a HEAD, or a one-byte ranged GET when the server refuses HEAD), trusting the CA bundle the provider trusts (redfish.ca_file) and its insecure setting; a 404, a refused connection or a timeout fails the apply with a diagnostic on image.url, and nothing is sent to Ironic. Set false when only the backend's provisioning network reaches the URL. Unset means true, so existing deployments plan no change; a change is recorded in place. @default true
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#check_url Deployment#check_url}
  */
  readonly checkUrl?: boolean | cdktf.IResolvable;
  /**
  * sha256 of the image (64 hex digits); Ironic checks it when it writes the image. Changing it reimages.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#sha256 Deployment#sha256}
  */
  readonly sha256: string;
  /**
  * Detached signature of the image, recorded with the deployment (a change does not reimage).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#signature Deployment#signature}
  */
  readonly signature?: string;
}

export function deploymentImageToTerraform(struct?: DeploymentImage | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    name: cdktf.stringToTerraform(struct!.name),
    version: cdktf.stringToTerraform(struct!.version),
    url: cdktf.stringToTerraform(struct!.url),
    check_url: cdktf.booleanToTerraform(struct!.checkUrl),
    sha256: cdktf.stringToTerraform(struct!.sha256),
    signature: cdktf.stringToTerraform(struct!.signature),
  }
}


export function deploymentImageToHclTerraform(struct?: DeploymentImage | cdktf.IResolvable): any {
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
    check_url: {
      value: cdktf.booleanToHclTerraform(struct!.checkUrl),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    sha256: {
      value: cdktf.stringToHclTerraform(struct!.sha256),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    signature: {
      value: cdktf.stringToHclTerraform(struct!.signature),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class DeploymentImageOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DeploymentImage | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._name !== undefined) {
      hasAnyValues = true;
      internalValueResult.name = this._name;
    }
    if (this._version !== undefined) {
      hasAnyValues = true;
      internalValueResult.version = this._version;
    }
    if (this._url !== undefined) {
      hasAnyValues = true;
      internalValueResult.url = this._url;
    }
    if (this._checkUrl !== undefined) {
      hasAnyValues = true;
      internalValueResult.checkUrl = this._checkUrl;
    }
    if (this._sha256 !== undefined) {
      hasAnyValues = true;
      internalValueResult.sha256 = this._sha256;
    }
    if (this._signature !== undefined) {
      hasAnyValues = true;
      internalValueResult.signature = this._signature;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DeploymentImage | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._name = undefined;
      this._version = undefined;
      this._url = undefined;
      this._checkUrl = undefined;
      this._sha256 = undefined;
      this._signature = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._name = value.name;
      this._version = value.version;
      this._url = value.url;
      this._checkUrl = value.checkUrl;
      this._sha256 = value.sha256;
      this._signature = value.signature;
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

  // url - computed: false, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // check_url - computed: false, optional: true, required: false
  private _checkUrl?: boolean | cdktf.IResolvable; 
  public get checkUrl() {
    return this.getBooleanAttribute('check_url');
  }
  public set checkUrl(value: boolean | cdktf.IResolvable) {
    this._checkUrl = value;
  }
  public resetCheckUrl() {
    this._checkUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get checkUrlInput() {
    return this._checkUrl;
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

  // signature - computed: false, optional: true, required: false
  private _signature?: string; 
  public get signature() {
    return this.getStringAttribute('signature');
  }
  public set signature(value: string) {
    this._signature = value;
  }
  public resetSignature() {
    this._signature = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get signatureInput() {
    return this._signature;
  }
}
export interface DeploymentBmcHealth {
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#component Deployment#component}
  */
  readonly component?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#kind Deployment#kind}
  */
  readonly kind?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#health Deployment#health}
  */
  readonly health?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#uri Deployment#uri}
  */
  readonly uri?: string;
  /**
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#since Deployment#since}
  */
  readonly since?: string;
}

export function deploymentBmcHealthToTerraform(struct?: DeploymentBmcHealth | cdktf.IResolvable): any {
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


export function deploymentBmcHealthToHclTerraform(struct?: DeploymentBmcHealth | cdktf.IResolvable): any {
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

export class DeploymentBmcHealthOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): DeploymentBmcHealth | cdktf.IResolvable | undefined {
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

  public set internalValue(value: DeploymentBmcHealth | cdktf.IResolvable | undefined) {
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

export class DeploymentBmcHealthList extends cdktf.ComplexList {
  public internalValue? : DeploymentBmcHealth[] | cdktf.IResolvable

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
  public get(index: number): DeploymentBmcHealthOutputReference {
    return new DeploymentBmcHealthOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface DeploymentTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#create Deployment#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#read Deployment#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#update Deployment#update}
  */
  readonly update?: string;
  /**
  * How long delete may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#delete Deployment#delete}
  */
  readonly delete?: string;
}

export function deploymentTimeoutsToTerraform(struct?: DeploymentTimeouts | cdktf.IResolvable): any {
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


export function deploymentTimeoutsToHclTerraform(struct?: DeploymentTimeouts | cdktf.IResolvable): any {
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

export class DeploymentTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DeploymentTimeouts | cdktf.IResolvable | undefined {
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

  public set internalValue(value: DeploymentTimeouts | cdktf.IResolvable | undefined) {
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
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment rackform_deployment}
*/
export class Deployment extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_deployment";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Deployment resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Deployment to import
  * @param importFromId The id of the existing Deployment that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Deployment to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_deployment", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/deployment rackform_deployment} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DeploymentConfig
  */
  public constructor(scope: Construct, id: string, config: DeploymentConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_deployment',
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
    this._image.internalValue = config.image;
    this._userData = config.userData;
    this._osystem = config.osystem;
    this._distroSeries = config.distroSeries;
    this._deployKernel = config.deployKernel;
    this._deployRamdisk = config.deployRamdisk;
    this._eraseOnDestroy = config.eraseOnDestroy;
    this._rolling = config.rolling;
    this._bmcHealth.internalValue = config.bmcHealth;
    this._remediationSteps = config.remediationSteps;
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

  // image - computed: false, optional: false, required: true
  private _image = new DeploymentImageOutputReference(this, "image");
  public get image() {
    return this._image;
  }
  public putImage(value: DeploymentImage) {
    this._image.internalValue = value;
  }
  // Temporarily expose input value. Use with caution.
  public get imageInput() {
    return this._image.internalValue;
  }

  // user_data - computed: false, optional: true, required: false
  private _userData?: string; 
  public get userData() {
    return this.getStringAttribute('user_data');
  }
  public set userData(value: string) {
    this._userData = value;
  }
  public resetUserData() {
    this._userData = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get userDataInput() {
    return this._userData;
  }

  // osystem - computed: false, optional: true, required: false
  private _osystem?: string; 
  public get osystem() {
    return this.getStringAttribute('osystem');
  }
  public set osystem(value: string) {
    this._osystem = value;
  }
  public resetOsystem() {
    this._osystem = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get osystemInput() {
    return this._osystem;
  }

  // distro_series - computed: false, optional: true, required: false
  private _distroSeries?: string; 
  public get distroSeries() {
    return this.getStringAttribute('distro_series');
  }
  public set distroSeries(value: string) {
    this._distroSeries = value;
  }
  public resetDistroSeries() {
    this._distroSeries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get distroSeriesInput() {
    return this._distroSeries;
  }

  // deploy_kernel - computed: false, optional: true, required: false
  private _deployKernel?: string; 
  public get deployKernel() {
    return this.getStringAttribute('deploy_kernel');
  }
  public set deployKernel(value: string) {
    this._deployKernel = value;
  }
  public resetDeployKernel() {
    this._deployKernel = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deployKernelInput() {
    return this._deployKernel;
  }

  // deploy_ramdisk - computed: false, optional: true, required: false
  private _deployRamdisk?: string; 
  public get deployRamdisk() {
    return this.getStringAttribute('deploy_ramdisk');
  }
  public set deployRamdisk(value: string) {
    this._deployRamdisk = value;
  }
  public resetDeployRamdisk() {
    this._deployRamdisk = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deployRamdiskInput() {
    return this._deployRamdisk;
  }

  // erase_on_destroy - computed: true, optional: true, required: false
  private _eraseOnDestroy?: boolean | cdktf.IResolvable; 
  public get eraseOnDestroy() {
    return this.getBooleanAttribute('erase_on_destroy');
  }
  public set eraseOnDestroy(value: boolean | cdktf.IResolvable) {
    this._eraseOnDestroy = value;
  }
  public resetEraseOnDestroy() {
    this._eraseOnDestroy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get eraseOnDestroyInput() {
    return this._eraseOnDestroy;
  }

  // rolling - computed: false, optional: true, required: false
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

  // image_ref - computed: true, optional: false, required: false
  public get imageRef() {
    return this.getStringAttribute('image_ref');
  }

  // deployed_image - computed: true, optional: false, required: false
  public get deployedImage() {
    return this.getStringAttribute('deployed_image');
  }

  // status - computed: true, optional: false, required: false
  public get status() {
    return this.getStringAttribute('status');
  }

  // power_state - computed: true, optional: false, required: false
  public get powerState() {
    return this.getStringAttribute('power_state');
  }

  // bmc_health - computed: false, optional: true, required: false
  private _bmcHealth = new DeploymentBmcHealthList(this, "bmc_health", false);
  public get bmcHealth() {
    return this._bmcHealth;
  }
  public putBmcHealth(value: DeploymentBmcHealth[] | cdktf.IResolvable) {
    this._bmcHealth.internalValue = value;
  }
  public resetBmcHealth() {
    this._bmcHealth.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bmcHealthInput() {
    return this._bmcHealth.internalValue;
  }

  // remediation_steps - computed: false, optional: true, required: false
  private _remediationSteps?: string[]; 
  public get remediationSteps() {
    return this.getListAttribute('remediation_steps');
  }
  public set remediationSteps(value: string[]) {
    this._remediationSteps = value;
  }
  public resetRemediationSteps() {
    this._remediationSteps = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get remediationStepsInput() {
    return this._remediationSteps;
  }

  // remediation - computed: true, optional: false, required: false
  public get remediation() {
    return this.getStringAttribute('remediation');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new DeploymentTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: DeploymentTimeouts) {
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
      image: deploymentImageToTerraform(this._image.internalValue),
      user_data: cdktf.stringToTerraform(this._userData),
      osystem: cdktf.stringToTerraform(this._osystem),
      distro_series: cdktf.stringToTerraform(this._distroSeries),
      deploy_kernel: cdktf.stringToTerraform(this._deployKernel),
      deploy_ramdisk: cdktf.stringToTerraform(this._deployRamdisk),
      erase_on_destroy: cdktf.booleanToTerraform(this._eraseOnDestroy),
      rolling: cdktf.booleanToTerraform(this._rolling),
      bmc_health: cdktf.listMapper(deploymentBmcHealthToTerraform, false)(this._bmcHealth.internalValue),
      remediation_steps: cdktf.listMapper(cdktf.stringToTerraform, false)(this._remediationSteps),
      timeouts: deploymentTimeoutsToTerraform(this._timeouts.internalValue),
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
      image: {
        value: deploymentImageToHclTerraform(this._image.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "DeploymentImage",
      },
      user_data: {
        value: cdktf.stringToHclTerraform(this._userData),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      osystem: {
        value: cdktf.stringToHclTerraform(this._osystem),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      distro_series: {
        value: cdktf.stringToHclTerraform(this._distroSeries),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      deploy_kernel: {
        value: cdktf.stringToHclTerraform(this._deployKernel),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      deploy_ramdisk: {
        value: cdktf.stringToHclTerraform(this._deployRamdisk),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      erase_on_destroy: {
        value: cdktf.booleanToHclTerraform(this._eraseOnDestroy),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      rolling: {
        value: cdktf.booleanToHclTerraform(this._rolling),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      bmc_health: {
        value: cdktf.listMapperHcl(deploymentBmcHealthToHclTerraform, false)(this._bmcHealth.internalValue),
        isBlock: true,
        type: "list",
        storageClassType: "DeploymentBmcHealthList",
      },
      remediation_steps: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._remediationSteps),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      timeouts: {
        value: deploymentTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "DeploymentTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
