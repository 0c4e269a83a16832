// https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface RackformProviderConfig {
  /**
  * Alias name
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#alias RackformProvider#alias}
  */
  readonly alias?: string;
  /**
  * redfish block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#redfish RackformProvider#redfish}
  */
  readonly redfish?: RackformProviderRedfish;
  /**
  * maas block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#maas RackformProvider#maas}
  */
  readonly maas?: RackformProviderMaas;
  /**
  * ironic block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#ironic RackformProvider#ironic}
  */
  readonly ironic?: RackformProviderIronic;
  /**
  * warewulf block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#warewulf RackformProvider#warewulf}
  */
  readonly warewulf?: RackformProviderWarewulf;
  /**
  * slurm block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#slurm RackformProvider#slurm}
  */
  readonly slurm?: RackformProviderSlurm;
  /**
  * kubernetes block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#kubernetes RackformProvider#kubernetes}
  */
  readonly kubernetes?: RackformProviderKubernetes;
  /**
  * bcm block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#bcm RackformProvider#bcm}
  */
  readonly bcm?: RackformProviderBcm;
}
export interface RackformProviderRedfish {
  /**
  * User name for Redfish sessions (HTTP Basic auth at a BMC whose service root offers no SessionService, or that has reached its session limit). Falls back to RACKFORM_REDFISH_USERNAME.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#username RackformProvider#username}
  */
  readonly username?: string;
  /**
  * Password for Redfish sessions. Falls back to RACKFORM_REDFISH_PASSWORD. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#password RackformProvider#password}
  */
  readonly password?: string;
  /**
  * PEM file of the CA that signed the BMCs' certificates. Falls back to RACKFORM_REDFISH_CA_FILE; else Node.js's root store with the certificates of NODE_EXTRA_CA_CERTS.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#ca_file RackformProvider#ca_file}
  */
  readonly caFile?: string;
  /**
  * Skip TLS verification. Only for a lab you trust; not together with ca_file. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#insecure RackformProvider#insecure}
  */
  readonly insecure?: boolean | cdktf.IResolvable;
  /**
  * Accept plain http:// BMC and PDU endpoints (each plan then warns). Unsafe: the Redfish password and every reply travel unencrypted, and a conformant Redfish service serves HTTPS; only for a device that cannot. Without it an http:// endpoint is refused at plan. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#allow_http RackformProvider#allow_http}
  */
  readonly allowHttp?: boolean | cdktf.IResolvable;
  /**
  * Requests in flight to one BMC or PDU at a time (BMCs serve few). @default 4
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#max_concurrent_per_bmc RackformProvider#max_concurrent_per_bmc}
  */
  readonly maxConcurrentPerBmc?: number;
  /**
  * Minimum spacing between two outlet power-ons on the same rack PDU (one circuit), to limit inrush current (e.g. "500ms"). Power-ons on different PDUs run in parallel. The spacing holds within one provider process (one stack): stacks applied at the same time that share a PDU must split it (see docs/hcl.md). @default "250ms"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#power_on_interval RackformProvider#power_on_interval}
  */
  readonly powerOnInterval?: string;
}

export function rackformProviderRedfishToTerraform(struct?: RackformProviderRedfish | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    username: cdktf.stringToTerraform(struct!.username),
    password: cdktf.stringToTerraform(struct!.password),
    ca_file: cdktf.stringToTerraform(struct!.caFile),
    insecure: cdktf.booleanToTerraform(struct!.insecure),
    allow_http: cdktf.booleanToTerraform(struct!.allowHttp),
    max_concurrent_per_bmc: cdktf.numberToTerraform(struct!.maxConcurrentPerBmc),
    power_on_interval: cdktf.stringToTerraform(struct!.powerOnInterval),
  }
}


export function rackformProviderRedfishToHclTerraform(struct?: RackformProviderRedfish | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    username: {
      value: cdktf.stringToHclTerraform(struct!.username),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    password: {
      value: cdktf.stringToHclTerraform(struct!.password),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    ca_file: {
      value: cdktf.stringToHclTerraform(struct!.caFile),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    insecure: {
      value: cdktf.booleanToHclTerraform(struct!.insecure),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    allow_http: {
      value: cdktf.booleanToHclTerraform(struct!.allowHttp),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    max_concurrent_per_bmc: {
      value: cdktf.numberToHclTerraform(struct!.maxConcurrentPerBmc),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    power_on_interval: {
      value: cdktf.stringToHclTerraform(struct!.powerOnInterval),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export interface RackformProviderMaas {
  /**
  * MAAS region URL, e.g. "http://maas:5240/MAAS/". Falls back to RACKFORM_MAAS_URL.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#url RackformProvider#url}
  */
  readonly url?: string;
  /**
  * MAAS API key `consumer_key:token_key:token_secret`. Falls back to RACKFORM_MAAS_API_KEY. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#api_key RackformProvider#api_key}
  */
  readonly apiKey?: string;
}

export function rackformProviderMaasToTerraform(struct?: RackformProviderMaas | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    api_key: cdktf.stringToTerraform(struct!.apiKey),
  }
}


export function rackformProviderMaasToHclTerraform(struct?: RackformProviderMaas | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    api_key: {
      value: cdktf.stringToHclTerraform(struct!.apiKey),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export interface RackformProviderIronic {
  /**
  * Ironic API endpoint, e.g. "http://ironic:6385". Falls back to RACKFORM_IRONIC_URL.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#url RackformProvider#url}
  */
  readonly url?: string;
  /**
  * HTTP basic user name (with password). Falls back to RACKFORM_IRONIC_USERNAME. @default noauth
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#username RackformProvider#username}
  */
  readonly username?: string;
  /**
  * HTTP basic password (with username). Falls back to RACKFORM_IRONIC_PASSWORD. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#password RackformProvider#password}
  */
  readonly password?: string;
  /**
  * Keystone token (X-Auth-Token), instead of basic auth. Falls back to RACKFORM_IRONIC_TOKEN.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#token RackformProvider#token}
  */
  readonly token?: string;
  /**
  * URL of the deploy (IPA) kernel, written to each node's driver_info when rackform_machine enrolls it (before manage, inspect and provide), so the automated cleaning of provide boots the ramdisk. Needed when ironic.conf has no `[conductor]deploy_kernel`: without either, cleaning ends in clean failed + maintenance. Set it with deploy_ramdisk. A change is written to existing nodes in place. rackform_deployment's deploy_kernel overrides it for one deployment. @default not written (the conductor's default applies)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#deploy_kernel RackformProvider#deploy_kernel}
  */
  readonly deployKernel?: string;
  /**
  * URL of the deploy (IPA) ramdisk, written to each node's driver_info with deploy_kernel (see there). @default not written (the conductor's default applies)
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#deploy_ramdisk RackformProvider#deploy_ramdisk}
  */
  readonly deployRamdisk?: string;
}

export function rackformProviderIronicToTerraform(struct?: RackformProviderIronic | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    username: cdktf.stringToTerraform(struct!.username),
    password: cdktf.stringToTerraform(struct!.password),
    token: cdktf.stringToTerraform(struct!.token),
    deploy_kernel: cdktf.stringToTerraform(struct!.deployKernel),
    deploy_ramdisk: cdktf.stringToTerraform(struct!.deployRamdisk),
  }
}


export function rackformProviderIronicToHclTerraform(struct?: RackformProviderIronic | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    username: {
      value: cdktf.stringToHclTerraform(struct!.username),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    password: {
      value: cdktf.stringToHclTerraform(struct!.password),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    token: {
      value: cdktf.stringToHclTerraform(struct!.token),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    deploy_kernel: {
      value: cdktf.stringToHclTerraform(struct!.deployKernel),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    deploy_ramdisk: {
      value: cdktf.stringToHclTerraform(struct!.deployRamdisk),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export interface RackformProviderWarewulf {
  /**
  * warewulfd API URL, e.g. "http://ww-head:9873" (api.enabled in warewulf.conf, this host in its allowed subnets). Falls back to RACKFORM_WAREWULF_URL.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#url RackformProvider#url}
  */
  readonly url?: string;
  /**
  * An API user of warewulfd's auth.conf. Falls back to RACKFORM_WAREWULF_USERNAME.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#username RackformProvider#username}
  */
  readonly username?: string;
  /**
  * That user's password (auth.conf holds its bcrypt hash). Falls back to RACKFORM_WAREWULF_PASSWORD. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#password RackformProvider#password}
  */
  readonly password?: string;
  /**
  * Skip TLS verification of an https:// warewulfd. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#insecure RackformProvider#insecure}
  */
  readonly insecure?: boolean | cdktf.IResolvable;
  /**
  * The Warewulf profile every node rackform defines gets. @default "default"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#profile RackformProvider#profile}
  */
  readonly profile?: string;
}

export function rackformProviderWarewulfToTerraform(struct?: RackformProviderWarewulf | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    username: cdktf.stringToTerraform(struct!.username),
    password: cdktf.stringToTerraform(struct!.password),
    insecure: cdktf.booleanToTerraform(struct!.insecure),
    profile: cdktf.stringToTerraform(struct!.profile),
  }
}


export function rackformProviderWarewulfToHclTerraform(struct?: RackformProviderWarewulf | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    username: {
      value: cdktf.stringToHclTerraform(struct!.username),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    password: {
      value: cdktf.stringToHclTerraform(struct!.password),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    insecure: {
      value: cdktf.booleanToHclTerraform(struct!.insecure),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    profile: {
      value: cdktf.stringToHclTerraform(struct!.profile),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export interface RackformProviderSlurm {
  /**
  * slurmrestd base URL, e.g. "http://slurmctl:6820". Falls back to RACKFORM_SLURM_URL.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#url RackformProvider#url}
  */
  readonly url?: string;
  /**
  * Slurm user the JWT was issued to (a Slurm operator or admin). Falls back to RACKFORM_SLURM_USER.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#user RackformProvider#user}
  */
  readonly user?: string;
  /**
  * Slurm JWT (`scontrol token`). Falls back to RACKFORM_SLURM_TOKEN. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#token RackformProvider#token}
  */
  readonly token?: string;
}

export function rackformProviderSlurmToTerraform(struct?: RackformProviderSlurm | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    user: cdktf.stringToTerraform(struct!.user),
    token: cdktf.stringToTerraform(struct!.token),
  }
}


export function rackformProviderSlurmToHclTerraform(struct?: RackformProviderSlurm | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    user: {
      value: cdktf.stringToHclTerraform(struct!.user),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    token: {
      value: cdktf.stringToHclTerraform(struct!.token),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export interface RackformProviderKubernetes {
  /**
  * Kubernetes API server URL, e.g. "https://10.0.0.1:6443". Falls back to RACKFORM_KUBERNETES_URL.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#url RackformProvider#url}
  */
  readonly url?: string;
  /**
  * Bearer token allowed to patch nodes, list pods and create pods/eviction. Falls back to RACKFORM_KUBERNETES_TOKEN. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#token RackformProvider#token}
  */
  readonly token?: string;
  /**
  * PEM file of the API server's CA. Falls back to RACKFORM_KUBERNETES_CA_FILE. @default the system store
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#ca_file RackformProvider#ca_file}
  */
  readonly caFile?: string;
}

export function rackformProviderKubernetesToTerraform(struct?: RackformProviderKubernetes | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    token: cdktf.stringToTerraform(struct!.token),
    ca_file: cdktf.stringToTerraform(struct!.caFile),
  }
}


export function rackformProviderKubernetesToHclTerraform(struct?: RackformProviderKubernetes | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    token: {
      value: cdktf.stringToHclTerraform(struct!.token),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    ca_file: {
      value: cdktf.stringToHclTerraform(struct!.caFile),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export interface RackformProviderBcm {
  /**
  * Head node base URL of cmdaemon, e.g. "https://bcm-head:8081" (rackform posts to <url>/json). Falls back to RACKFORM_BCM_URL.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#url RackformProvider#url}
  */
  readonly url?: string;
  /**
  * BCM user (cmsh/Base View login). Falls back to RACKFORM_BCM_USERNAME.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#username RackformProvider#username}
  */
  readonly username?: string;
  /**
  * BCM password. Falls back to RACKFORM_BCM_PASSWORD. Never logged.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#password RackformProvider#password}
  */
  readonly password?: string;
  /**
  * PEM file of the CA that signed cmdaemon's certificate. Falls back to RACKFORM_BCM_CA_FILE. @default the system store
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#ca_file RackformProvider#ca_file}
  */
  readonly caFile?: string;
  /**
  * Skip TLS verification of the head node. Only for a lab you trust. @default false
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#insecure RackformProvider#insecure}
  */
  readonly insecure?: boolean | cdktf.IResolvable;
  /**
  * Category new devices join. Falls back to RACKFORM_BCM_CATEGORY. @default "default"
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#category RackformProvider#category}
  */
  readonly category?: string;
}

export function rackformProviderBcmToTerraform(struct?: RackformProviderBcm | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    url: cdktf.stringToTerraform(struct!.url),
    username: cdktf.stringToTerraform(struct!.username),
    password: cdktf.stringToTerraform(struct!.password),
    ca_file: cdktf.stringToTerraform(struct!.caFile),
    insecure: cdktf.booleanToTerraform(struct!.insecure),
    category: cdktf.stringToTerraform(struct!.category),
  }
}


export function rackformProviderBcmToHclTerraform(struct?: RackformProviderBcm | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    username: {
      value: cdktf.stringToHclTerraform(struct!.username),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    password: {
      value: cdktf.stringToHclTerraform(struct!.password),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    ca_file: {
      value: cdktf.stringToHclTerraform(struct!.caFile),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    insecure: {
      value: cdktf.booleanToHclTerraform(struct!.insecure),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    category: {
      value: cdktf.stringToHclTerraform(struct!.category),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}


/**
* Represents a {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs rackform}
*/
export class RackformProvider extends cdktf.TerraformProvider {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "rackform";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a RackformProvider resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the RackformProvider to import
  * @param importFromId The id of the existing RackformProvider that should be imported. Refer to the {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the RackformProvider to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "rackform", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/rackform/rackform/0.1.0/docs rackform} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options RackformProviderConfig = {}
  */
  public constructor(scope: Construct, id: string, config: RackformProviderConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'rackform',
      terraformGeneratorMetadata: {
        providerName: 'rackform',
        providerVersion: '0.1.0'
      },
      terraformProviderSource: 'registry.terraform.io/rackform/rackform'
    });
    this._alias = config.alias;
    this._redfish = config.redfish;
    this._maas = config.maas;
    this._ironic = config.ironic;
    this._warewulf = config.warewulf;
    this._slurm = config.slurm;
    this._kubernetes = config.kubernetes;
    this._bcm = config.bcm;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // alias - computed: false, optional: true, required: false
  private _alias?: string; 
  public get alias() {
    return this._alias;
  }
  public set alias(value: string | undefined) {
    this._alias = value;
  }
  public resetAlias() {
    this._alias = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get aliasInput() {
    return this._alias;
  }

  // redfish - computed: false, optional: true, required: false
  private _redfish?: RackformProviderRedfish; 
  public get redfish() {
    return this._redfish;
  }
  public set redfish(value: RackformProviderRedfish | undefined) {
    this._redfish = value;
  }
  public resetRedfish() {
    this._redfish = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get redfishInput() {
    return this._redfish;
  }

  // maas - computed: false, optional: true, required: false
  private _maas?: RackformProviderMaas; 
  public get maas() {
    return this._maas;
  }
  public set maas(value: RackformProviderMaas | undefined) {
    this._maas = value;
  }
  public resetMaas() {
    this._maas = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maasInput() {
    return this._maas;
  }

  // ironic - computed: false, optional: true, required: false
  private _ironic?: RackformProviderIronic; 
  public get ironic() {
    return this._ironic;
  }
  public set ironic(value: RackformProviderIronic | undefined) {
    this._ironic = value;
  }
  public resetIronic() {
    this._ironic = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get ironicInput() {
    return this._ironic;
  }

  // warewulf - computed: false, optional: true, required: false
  private _warewulf?: RackformProviderWarewulf; 
  public get warewulf() {
    return this._warewulf;
  }
  public set warewulf(value: RackformProviderWarewulf | undefined) {
    this._warewulf = value;
  }
  public resetWarewulf() {
    this._warewulf = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get warewulfInput() {
    return this._warewulf;
  }

  // slurm - computed: false, optional: true, required: false
  private _slurm?: RackformProviderSlurm; 
  public get slurm() {
    return this._slurm;
  }
  public set slurm(value: RackformProviderSlurm | undefined) {
    this._slurm = value;
  }
  public resetSlurm() {
    this._slurm = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get slurmInput() {
    return this._slurm;
  }

  // kubernetes - computed: false, optional: true, required: false
  private _kubernetes?: RackformProviderKubernetes; 
  public get kubernetes() {
    return this._kubernetes;
  }
  public set kubernetes(value: RackformProviderKubernetes | undefined) {
    this._kubernetes = value;
  }
  public resetKubernetes() {
    this._kubernetes = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get kubernetesInput() {
    return this._kubernetes;
  }

  // bcm - computed: false, optional: true, required: false
  private _bcm?: RackformProviderBcm; 
  public get bcm() {
    return this._bcm;
  }
  public set bcm(value: RackformProviderBcm | undefined) {
    this._bcm = value;
  }
  public resetBcm() {
    this._bcm = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bcmInput() {
    return this._bcm;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      alias: cdktf.stringToTerraform(this._alias),
      redfish: rackformProviderRedfishToTerraform(this._redfish),
      maas: rackformProviderMaasToTerraform(this._maas),
      ironic: rackformProviderIronicToTerraform(this._ironic),
      warewulf: rackformProviderWarewulfToTerraform(this._warewulf),
      slurm: rackformProviderSlurmToTerraform(this._slurm),
      kubernetes: rackformProviderKubernetesToTerraform(this._kubernetes),
      bcm: rackformProviderBcmToTerraform(this._bcm),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      alias: {
        value: cdktf.stringToHclTerraform(this._alias),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      redfish: {
        value: rackformProviderRedfishToHclTerraform(this._redfish),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderRedfish",
      },
      maas: {
        value: rackformProviderMaasToHclTerraform(this._maas),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderMaas",
      },
      ironic: {
        value: rackformProviderIronicToHclTerraform(this._ironic),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderIronic",
      },
      warewulf: {
        value: rackformProviderWarewulfToHclTerraform(this._warewulf),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderWarewulf",
      },
      slurm: {
        value: rackformProviderSlurmToHclTerraform(this._slurm),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderSlurm",
      },
      kubernetes: {
        value: rackformProviderKubernetesToHclTerraform(this._kubernetes),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderKubernetes",
      },
      bcm: {
        value: rackformProviderBcmToHclTerraform(this._bcm),
        isBlock: true,
        type: "struct",
        storageClassType: "RackformProviderBcm",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
