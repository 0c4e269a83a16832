// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface ImageConfig extends cdktf.TerraformMetaArguments {
  /**
  * Where the image must be: "maas" (uploaded) or "ironic" (URL checked). Changing it replaces the image.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#backend Image#backend}
  */
  readonly backend: string;
  /**
  * Image name, e.g. "ubuntu-gpu" (the deployments' image.name). Changing it replaces the image.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#name Image#name}
  */
  readonly name: string;
  /**
  * Image version, e.g. "2026.06.2". A change uploads the new version in place (MAAS: custom/<name>-<version>); the deployments that use it are reimaged by their own change.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#version Image#version}
  */
  readonly version: string;
  /**
  * sha256 of the image's bytes (64 hex digits). MAAS refuses an upload whose bytes differ.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#sha256 Image#sha256}
  */
  readonly sha256: string;
  /**
  * Where the image is served, an http or https URL: MAAS uploads stream from it (a GET with Range when resuming); Ironic requires it and downloads it at deploy. Credentials in the URL (user:password@) are sent as HTTP basic auth and never shown. For MAAS set url or source_file.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#url Image#url}
  */
  readonly url?: string;
  /**
  * MAAS only: a local file to upload instead of url, on the machine running Terraform/OpenTofu (read as a stream, from the resume offset).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#source_file Image#source_file}
  */
  readonly sourceFile?: string;
  /**
  * MAAS only: the boot resource's architecture. Changing it replaces the image. @default "amd64/generic"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#architecture Image#architecture}
  */
  readonly architecture?: string;
  /**
  * MAAS only: the file type MAAS records for the upload: "tgz" (a root tarball, MAAS's default), "ddtgz", "ddgz", "ddraw", "ddxz", "ddbz2", "ddtar", "ddtbz", "ddtxz". Changing it replaces the image. @default "tgz"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#filetype Image#filetype}
  */
  readonly filetype?: string;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#timeouts Image#timeouts}
  */
  readonly timeouts?: ImageTimeouts;
}
export interface ImageTimeouts {
  /**
  * How long create may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#create Image#create}
  */
  readonly create?: string;
  /**
  * How long read may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#read Image#read}
  */
  readonly read?: string;
  /**
  * How long update may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#update Image#update}
  */
  readonly update?: string;
  /**
  * How long delete may take, as a duration such as "20m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#delete Image#delete}
  */
  readonly delete?: string;
}

export function imageTimeoutsToTerraform(struct?: ImageTimeouts | cdktf.IResolvable): any {
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


export function imageTimeoutsToHclTerraform(struct?: ImageTimeouts | cdktf.IResolvable): any {
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

export class ImageTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): ImageTimeouts | cdktf.IResolvable | undefined {
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

  public set internalValue(value: ImageTimeouts | cdktf.IResolvable | undefined) {
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
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image rackform_image}
*/
export class Image extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform_image";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Image resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Image to import
  * @param importFromId The id of the existing Image that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Image to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform_image", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs/resources/image rackform_image} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options ImageConfig
  */
  public constructor(scope: Construct, id: string, config: ImageConfig) {
    super(scope, id, {
      terraformResourceType: 'rackform_image',
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
    this._backend = config.backend;
    this._name = config.name;
    this._version = config.version;
    this._sha256 = config.sha256;
    this._url = config.url;
    this._sourceFile = config.sourceFile;
    this._architecture = config.architecture;
    this._filetype = config.filetype;
    this._timeouts.internalValue = config.timeouts;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // backend - computed: false, optional: false, required: true
  private _backend?: string; 
  public get backend() {
    return this.getStringAttribute('backend');
  }
  public set backend(value: string) {
    this._backend = value;
  }
  // Temporarily expose input value. Use with caution.
  public get backendInput() {
    return this._backend;
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

  // source_file - computed: false, optional: true, required: false
  private _sourceFile?: string; 
  public get sourceFile() {
    return this.getStringAttribute('source_file');
  }
  public set sourceFile(value: string) {
    this._sourceFile = value;
  }
  public resetSourceFile() {
    this._sourceFile = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get sourceFileInput() {
    return this._sourceFile;
  }

  // architecture - computed: true, optional: true, required: false
  private _architecture?: string; 
  public get architecture() {
    return this.getStringAttribute('architecture');
  }
  public set architecture(value: string) {
    this._architecture = value;
  }
  public resetArchitecture() {
    this._architecture = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get architectureInput() {
    return this._architecture;
  }

  // filetype - computed: true, optional: true, required: false
  private _filetype?: string; 
  public get filetype() {
    return this.getStringAttribute('filetype');
  }
  public set filetype(value: string) {
    this._filetype = value;
  }
  public resetFiletype() {
    this._filetype = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get filetypeInput() {
    return this._filetype;
  }

  // backend_image - computed: true, optional: false, required: false
  public get backendImage() {
    return this.getStringAttribute('backend_image');
  }

  // size_bytes - computed: true, optional: false, required: false
  public get sizeBytes() {
    return this.getNumberAttribute('size_bytes');
  }

  // verified_sha256 - computed: true, optional: false, required: false
  public get verifiedSha256() {
    return this.getStringAttribute('verified_sha256');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new ImageTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: ImageTimeouts) {
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
      backend: cdktf.stringToTerraform(this._backend),
      name: cdktf.stringToTerraform(this._name),
      version: cdktf.stringToTerraform(this._version),
      sha256: cdktf.stringToTerraform(this._sha256),
      url: cdktf.stringToTerraform(this._url),
      source_file: cdktf.stringToTerraform(this._sourceFile),
      architecture: cdktf.stringToTerraform(this._architecture),
      filetype: cdktf.stringToTerraform(this._filetype),
      timeouts: imageTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      backend: {
        value: cdktf.stringToHclTerraform(this._backend),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      version: {
        value: cdktf.stringToHclTerraform(this._version),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      sha256: {
        value: cdktf.stringToHclTerraform(this._sha256),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      url: {
        value: cdktf.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      source_file: {
        value: cdktf.stringToHclTerraform(this._sourceFile),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      architecture: {
        value: cdktf.stringToHclTerraform(this._architecture),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      filetype: {
        value: cdktf.stringToHclTerraform(this._filetype),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      timeouts: {
        value: imageTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "ImageTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
