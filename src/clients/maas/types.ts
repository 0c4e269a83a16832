/** Shapes of MAAS 2.0 API bodies that rackform reads; every object keeps its raw JSON for fields not modelled here. */

/** A network interface of a machine (`interface_set[]`). */
export interface MaasInterface {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly macAddress: string | null;
  readonly enabled: boolean;
  readonly vlanName?: string;
  readonly fabric?: string;
  /** IP addresses linked on this interface (`links[].ip_address`, when assigned). */
  readonly ipAddresses: readonly string[];
}

/** A machine as MAAS reports it. */
export interface MaasMachine {
  readonly systemId: string;
  readonly hostname: string;
  readonly fqdn?: string;
  /** Status id (see MAAS_STATUS); -1 for a controller, which has none. */
  readonly status: number;
  /** Status label, e.g. "Ready", "Failed deployment". */
  readonly statusName: string;
  /** MAAS's latest progress or failure message for the status; empty when none. */
  readonly statusMessage: string;
  /** Free text operators and tools leave on the machine. */
  readonly description: string;
  /** "Machine", "Region and rack controller", … (absent in MAAS 2.0 bodies). */
  readonly nodeTypeName?: string;
  readonly powerType: string;
  /** "on", "off", "unknown" or "error". */
  readonly powerState: string;
  readonly architecture: string;
  readonly osystem: string;
  readonly distroSeries: string;
  readonly cpuCount?: number;
  readonly memoryMiB?: number;
  readonly tags: readonly string[];
  readonly ipAddresses: readonly string[];
  /** MAC addresses of all interfaces (and of the legacy `macaddress_set`). */
  readonly macAddresses: readonly string[];
  readonly bootMacAddress?: string;
  readonly interfaces: readonly MaasInterface[];
  readonly owner: string | null;
  readonly pool?: string;
  readonly zone?: string;
  readonly locked?: boolean;
  /**
   * The machine's current testing script set (`current_testing_result_id`) and its summary status (`testing_status`,
   * SCRIPT_STATUS: 0 pending, 1 running, 2 passed, 3 failed, …); absent when the machine was never tested.
   */
  readonly testing?: { readonly resultId: number; readonly status: number };
  readonly raw: Readonly<Record<string, unknown>>;
}

/** A MAAS event (`GET events/?op=query`). */
export interface MaasEvent {
  readonly id: number;
  readonly node?: string;
  readonly hostname?: string;
  readonly level: string;
  readonly type: string;
  readonly description: string;
  readonly created: string;
}

/** A commissioning/testing/installation script result set (`nodes/{id}/results/`). */
export interface MaasScriptResultSet {
  readonly id: number;
  readonly systemId: string;
  readonly type: number;
  /** "Commissioning", "Testing", "Installation", "Release". */
  readonly typeName: string;
  readonly statusName: string;
  readonly results: readonly {
    readonly name: string;
    /** SCRIPT_STATUS id (-1 when the body has none). */
    readonly status: number;
    readonly statusName: string;
    /** True when MAAS counts the status as failure (failed, timed out, failed installing or applying netconf). */
    readonly failed: boolean;
    readonly exitStatus: number | null;
  }[];
  readonly raw: Readonly<Record<string, unknown>>;
}

/** A tag. */
export interface MaasTag {
  readonly name: string;
  readonly comment: string;
  readonly definition: string;
  readonly kernelOpts: string;
}

/** A boot resource (an image MAAS can deploy). */
export interface MaasBootResource {
  readonly id: number;
  /** "Synced", "Uploaded" or "Generated". */
  readonly type: string;
  /** e.g. "ubuntu/jammy". */
  readonly name: string;
  /** e.g. "amd64/ga-22.04". */
  readonly architecture: string;
  readonly subarches: readonly string[];
  /** True when at least one set is complete (only on the detail endpoint; undefined in lists). */
  readonly complete?: boolean;
  /** The newest set's first file (only on the detail endpoint): what an uploaded custom image holds. */
  readonly file?: MaasBootResourceFile;
}

/** Input of MaasCatalog.createUploadedBootResource. */
export interface MaasNewBootResource {
  /** e.g. "custom/ubuntu-gpu-2026.06.2". */
  readonly name: string;
  readonly title?: string;
  /** e.g. "amd64/generic". */
  readonly architecture: string;
  /** e.g. "tgz", "ddgz", "ddraw". */
  readonly filetype: string;
  readonly sha256: string;
  readonly size: number;
}

/** One file of a boot resource set, as `boot_resource_file_to_dict` reports it. */
export interface MaasBootResourceFile {
  readonly filename: string;
  readonly filetype: string;
  /** sha256 given at create (what MAAS checks the bytes against), lower case. */
  readonly sha256: string;
  /** Total size in bytes given at create. */
  readonly size: number;
  readonly complete: boolean;
  /**
   * MAAS's progress of an incomplete file, as it reports it: MAAS ≤ 3.3 (LargeFile.progress) total/held, a ratio ≥ 1
   * (0 when nothing is held); MAAS ≥ 3.4 (sync_progress) a percentage held. See `bytesHeld`.
   */
  readonly progress?: number;
  /** Where the remaining bytes go (PUT), for an incomplete uploaded file. */
  readonly uploadUri?: string;
}

/** Power parameters of a redfish BMC as MAAS names them (`power_parameters_*`). */
export interface MaasRedfishPower {
  readonly powerAddress: string;
  readonly powerUser: string;
  readonly powerPass: string;
  /** Redfish system id, when the BMC has several. */
  readonly nodeId?: string;
}

/** Input of MaasClient.createMachine. */
export interface MaasCreateMachine {
  readonly hostname?: string;
  /** e.g. "amd64/generic". */
  readonly architecture: string;
  readonly macAddresses: readonly string[];
  /** @default redfish with the given parameters */
  readonly power: MaasRedfishPower;
  readonly description?: string;
  readonly domain?: string;
  readonly pool?: string;
  readonly zone?: string;
  /** Start commissioning right away (MAAS default: true). */
  readonly commission?: boolean;
}

/** Input of MaasClient.updateMachine; only given fields are sent. */
export interface MaasUpdateMachine {
  readonly hostname?: string;
  readonly description?: string;
  readonly architecture?: string;
  readonly pool?: string;
  readonly zone?: string;
  readonly power?: Partial<MaasRedfishPower>;
}

/** Options of a deploy. */
export interface MaasDeployOptions {
  readonly osystem?: string;
  readonly distroSeries?: string;
  /** Cloud-init user data as text; sent base64-encoded as MAAS expects. */
  readonly userData?: string;
  readonly hweKernel?: string;
  /** Install a KVM host (MAAS ≥ 2.9). */
  readonly installKvm?: boolean;
}

/** Options of a release; erase options need MAAS disk erasing. */
export interface MaasReleaseOptions {
  readonly erase?: boolean;
  readonly secureErase?: boolean;
  readonly quickErase?: boolean;
  readonly comment?: string;
}

/** Options of commissioning. */
export interface MaasCommissionOptions {
  readonly enableSsh?: boolean;
  readonly skipNetworking?: boolean;
  readonly skipStorage?: boolean;
  readonly commissioningScripts?: readonly string[];
  /** Tests run after commissioning; `["none"]` skips them. */
  readonly testingScripts?: readonly string[];
}
