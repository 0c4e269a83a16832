/**
 * Warewulf v4 API shapes, with the field names warewulfd's JSON uses (the `json:` tags of internal/pkg/node's
 * Profile/Node structs, v4.6–4.7): spaces included ("image name", "network devices", "runtime overlay").
 */

/** One network device of a node ("network devices" map value). */
export interface WarewulfNetDev {
  readonly type?: string;
  readonly device?: string;
  /** MAC address as written (warewulfd keeps the case it was given). */
  readonly hwaddr?: string;
  readonly ipaddr?: string;
  readonly netmask?: string;
  readonly gateway?: string;
  readonly mtu?: string;
  readonly tags?: Readonly<Record<string, string>>;
}

/** The node's IPMI/BMC settings ("ipmi"); warewulfd returns the password as stored. */
export interface WarewulfIpmi {
  readonly username?: string;
  readonly password?: string;
  readonly ipaddr?: string;
  readonly port?: string;
  readonly interface?: string;
  readonly tags?: Readonly<Record<string, string>>;
}

/** Fields a node and a profile share (node.Profile). Every field is optional: warewulfd omits empty ones. */
export interface WarewulfProfileFields {
  readonly profiles?: readonly string[];
  readonly comment?: string;
  readonly "cluster name"?: string;
  readonly "image name"?: string;
  readonly "ipxe template"?: string;
  readonly "runtime overlay"?: readonly string[];
  readonly "system overlay"?: readonly string[];
  readonly kernel?: { readonly version?: string; readonly args?: readonly string[] };
  readonly ipmi?: WarewulfIpmi;
  readonly init?: string;
  readonly root?: string;
  readonly "network devices"?: Readonly<Record<string, WarewulfNetDev>>;
  readonly tags?: Readonly<Record<string, string>>;
  readonly "primary network"?: string;
}

/** A node as PUT/PATCH bodies carry it (`{"node": …}`) and GET returns it (node.Node). */
export interface WarewulfNodeFields extends WarewulfProfileFields {
  readonly discoverable?: string;
  readonly "asset key"?: string;
}

/** A node read from warewulfd, with its id (the map key of GET /api/nodes/, the path of GET /api/nodes/{id}). */
export interface WarewulfNode {
  readonly id: string;
  readonly fields: WarewulfNodeFields;
  /** MAC addresses of its network devices, lower case, sorted. */
  readonly macs: readonly string[];
}

/** An image as GET /api/images/{name} returns it (api.Image). */
export interface WarewulfImage {
  readonly name: string;
  readonly kernels: readonly string[];
  readonly size: number;
  /** Unix seconds of the last build; 0 when never built. */
  readonly buildtime: number;
  readonly writable: boolean;
}

/** One node's entry in GET /status (warewulfd.NodeStatus). */
export interface WarewulfNodeStatus {
  readonly node: string;
  /** ipxe, efiboot, grub, kernel, initramfs, image, system, runtime; "" before the node was ever seen. */
  readonly stage: string;
  /** What was sent last (a file name, or BAD_REQUEST / NOT_FOUND / BAD_ASSET). */
  readonly sent: string;
  readonly ipaddr: string;
  /** Unix seconds of the node's last request; 0 when never seen. */
  readonly lastSeen: number;
}

/** GET /status, with the server's clock (its Date header, unix seconds) to compare `lastSeen` with. */
export interface WarewulfStatus {
  readonly nodes: ReadonlyMap<string, WarewulfNodeStatus>;
  /** Unix seconds from the response's Date header; undefined when the server sent none. */
  readonly serverTime?: number;
}

/** The provisioning stages in boot order (the status `stage` values warewulfd's parser maps requests to). */
export const WAREWULF_STAGES = [
  "ipxe",
  "efiboot",
  "grub",
  "kernel",
  "initramfs",
  "image",
  "system",
  "runtime",
] as const;
