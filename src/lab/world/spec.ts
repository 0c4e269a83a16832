/**
 * The lab spec: a JSON description of racks, PDUs and nodes. Validated with ajv so that a bad file fails with the path
 * of the bad field, before anything listens.
 */
import { Ajv, type ErrorObject } from "ajv";
import { biosOverrideProblems } from "./bios.js";
import { QUIRK_NAMES, type Quirk } from "./quirks.js";

/** BMC personalities: they differ in resource ids and details so that clients must discover by links. */
export type VendorStyle = "dell" | "hpe" | "supermicro" | "lenovo" | "nvidia-dgx" | "contoso";

/** One GPU set. */
export interface GpuSpec {
  readonly model: string;
  readonly count: number;
  readonly memoryGiB: number;
  /** NVLink generation; omitted for PCIe cards without NVLink. */
  readonly nvlinkVersion?: number;
  readonly nvlinkLinksPerGpu?: number;
}

/** One NIC (possibly multi-port). */
export interface NicSpec {
  readonly name: string;
  readonly model: string;
  readonly speedMbps: number;
  readonly ports: number;
}

/** Hardware of one node. */
export interface HardwareSpec {
  readonly manufacturer: string;
  readonly model: string;
  readonly cpu: { readonly model: string; readonly sockets: number; readonly coresPerSocket: number };
  readonly memory: { readonly dimms: number; readonly dimmGiB: number };
  readonly disks: readonly { readonly model: string; readonly capacityGiB: number; readonly media: "SSD" | "HDD" }[];
  readonly nics: readonly NicSpec[];
  readonly gpus?: GpuSpec;
  /** Firmware versions by component: bmc, bios, gpu, nic. */
  readonly firmware: { readonly bmc: string; readonly bios: string; readonly gpu?: string; readonly nic: string };
  /**
   * BIOS attribute values this node starts with instead of its vendor's defaults (world/bios.ts `BIOS_FLAVOURS`), by
   * attribute name, e.g. `{ "SriovGlobalEnable": "Enabled" }`; a name outside the vendor's registry fails validation.
   * @default the vendor's initial values
   */
  readonly bios?: Readonly<Record<string, string | number | boolean>>;
}

/** A rack. `index` is used in addresses (127.10.<index>.n). */
export interface RackSpec {
  readonly name: string;
  readonly index: number;
}

/** A rack PDU with numbered outlets 1..outlets. */
export interface PduSpec {
  readonly id: string;
  readonly rack: string;
  readonly outlets: number;
  readonly address?: string;
  readonly model?: string;
}

/** A node, its position, its power feed and its BMC. */
export interface NodeSpec {
  readonly name: string;
  readonly rack: string;
  readonly u: number;
  readonly pdu: string;
  readonly outlet: number;
  readonly vendor: VendorStyle;
  readonly address?: string;
  /** Override of the Redfish system id (else the vendor's style). */
  readonly systemId?: string;
  readonly hardware: HardwareSpec;
  /** Outlet state at lab start. @default "Off" */
  readonly initialOutlet?: "On" | "Off";
  /** Vendor quirks of this node's BMC (world/quirks.ts). @default none */
  readonly quirks?: readonly Quirk[];
  /** Redfish sessions the BMC keeps before answering 503. @default the vendor's (DEFAULT_SESSION_LIMITS) */
  readonly sessionLimit?: number;
  /** BlueField-3 DPUs in the node, each with its own BMC at 127.(12+k).<rack>.<n> (world/dpu.ts). @default none */
  readonly dpus?: number;
  /** The DPUs' mode of operation at lab start. @default "DpuMode" (a BlueField-3 DPU's factory default) */
  readonly dpuMode?: "DpuMode" | "NicMode";
}

/** Concurrent Redfish sessions by vendor style, as shipping BMCs allow (far fewer than the lab's old 64). */
export const DEFAULT_SESSION_LIMITS: Readonly<Record<VendorStyle, number>> = {
  dell: 8,
  hpe: 10,
  supermicro: 10,
  lenovo: 16,
  "nvidia-dgx": 10,
  contoso: 16,
};

/** Settings of the lab's Ironic, named after the ironic.conf options they model. */
export interface IronicSpec {
  /** `[conductor]deploy_kernel` / `deploy_ramdisk`: the IPA images of nodes whose driver_info names neither. */
  readonly conductor?: { readonly deployKernel?: string; readonly deployRamdisk?: string };
}

/** The whole lab. */
export interface LabSpec {
  readonly version: 1;
  readonly credentials: { readonly username: string; readonly password: string };
  readonly racks: readonly RackSpec[];
  readonly pdus: readonly PduSpec[];
  readonly nodes: readonly NodeSpec[];
  /** @default no conductor defaults: every node's driver_info must name its deploy kernel and ramdisk */
  readonly ironic?: IronicSpec;
}

const str = { type: "string", minLength: 1 };
const int = (minimum: number, maximum?: number) => ({ type: "integer", minimum, ...(maximum ? { maximum } : {}) });
const ipv4Loopback = { type: "string", pattern: "^127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$" };
const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  additionalProperties: false,
  properties,
  required,
});

/** JSON Schema (draft-07) of a lab spec. */
export const LAB_SPEC_SCHEMA = obj(
  {
    version: { const: 1 },
    credentials: obj({ username: str, password: str }, ["username", "password"]),
    ironic: obj({ conductor: obj({ deployKernel: str, deployRamdisk: str }, []) }, []),
    racks: { type: "array", items: obj({ name: str, index: int(1, 255) }, ["name", "index"]) },
    pdus: {
      type: "array",
      items: obj({ id: str, rack: str, outlets: int(1, 96), address: ipv4Loopback, model: str }, [
        "id",
        "rack",
        "outlets",
      ]),
    },
    nodes: {
      type: "array",
      items: obj(
        {
          name: { type: "string", pattern: "^[a-z0-9][a-z0-9-]{0,62}$" },
          rack: str,
          u: int(1, 60),
          pdu: str,
          outlet: int(1, 96),
          vendor: { enum: ["dell", "hpe", "supermicro", "lenovo", "nvidia-dgx", "contoso"] },
          address: ipv4Loopback,
          systemId: { type: "string", pattern: "^[A-Za-z0-9._-]+$" },
          initialOutlet: { enum: ["On", "Off"] },
          quirks: { type: "array", uniqueItems: true, items: { enum: QUIRK_NAMES } },
          sessionLimit: int(1, 64),
          dpus: int(0, 4),
          dpuMode: { enum: ["DpuMode", "NicMode"] },
          hardware: obj(
            {
              manufacturer: str,
              model: str,
              cpu: obj({ model: str, sockets: int(1, 8), coresPerSocket: int(1, 512) }, [
                "model",
                "sockets",
                "coresPerSocket",
              ]),
              memory: obj({ dimms: int(1, 64), dimmGiB: int(1) }, ["dimms", "dimmGiB"]),
              disks: {
                type: "array",
                items: obj({ model: str, capacityGiB: int(1), media: { enum: ["SSD", "HDD"] } }, [
                  "model",
                  "capacityGiB",
                  "media",
                ]),
              },
              nics: {
                type: "array",
                minItems: 1,
                items: obj({ name: str, model: str, speedMbps: int(1), ports: int(1, 8) }, [
                  "name",
                  "model",
                  "speedMbps",
                  "ports",
                ]),
              },
              gpus: obj(
                {
                  model: str,
                  count: int(0, 16),
                  memoryGiB: int(1),
                  nvlinkVersion: int(1, 9),
                  nvlinkLinksPerGpu: int(0, 64),
                },
                ["model", "count", "memoryGiB"],
              ),
              firmware: obj({ bmc: str, bios: str, gpu: str, nic: str }, ["bmc", "bios", "nic"]),
              bios: {
                type: "object",
                additionalProperties: { type: ["string", "number", "boolean"] },
              },
            },
            ["manufacturer", "model", "cpu", "memory", "disks", "nics", "firmware"],
          ),
        },
        ["name", "rack", "u", "pdu", "outlet", "vendor", "hardware"],
      ),
    },
  },
  ["version", "credentials", "racks", "pdus", "nodes"],
);

/** A lab spec that failed validation; `problems` name each bad field by JSON path. */
export class LabSpecError extends Error {
  override readonly name = "LabSpecError";
  readonly code = "RACKFORM_ERR_LAB_SPEC_INVALID";
  constructor(readonly problems: readonly string[]) {
    super(`invalid lab spec:\n  - ${problems.join("\n  - ")}`);
  }
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateShape = ajv.compile<LabSpec>(LAB_SPEC_SCHEMA);

function describe(e: ErrorObject): string {
  const at = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "(root)";
  if (e.keyword === "additionalProperties") return `${at}: unknown field "${String(e.params.additionalProperty)}"`;
  if (e.keyword === "required") return `${at}: missing field "${String(e.params.missingProperty)}"`;
  if (e.keyword === "enum") return `${at}: ${e.message} (${(e.params.allowedValues as unknown[]).join(", ")})`;
  return `${at}: ${e.message}`;
}

/**
 * Validates shape and cross references (unique names, known racks/PDUs, outlet in range and not shared) and each
 * node's BIOS overrides against its vendor's registry.
 */
export function validateLabSpec(input: unknown): LabSpec {
  if (!validateShape(input)) throw new LabSpecError((validateShape.errors ?? []).map(describe));
  const spec = input;
  const problems: string[] = [];
  const racks = new Set<string>();
  const rackIdx = new Set<number>();
  spec.racks.forEach((r, i) => {
    if (racks.has(r.name)) problems.push(`racks.${i}.name: duplicate rack "${r.name}"`);
    if (rackIdx.has(r.index)) problems.push(`racks.${i}.index: duplicate rack index ${r.index}`);
    racks.add(r.name);
    rackIdx.add(r.index);
  });
  const pdus = new Map<string, PduSpec>();
  spec.pdus.forEach((p, i) => {
    if (pdus.has(p.id)) problems.push(`pdus.${i}.id: duplicate PDU "${p.id}"`);
    if (!racks.has(p.rack)) problems.push(`pdus.${i}.rack: unknown rack "${p.rack}"`);
    pdus.set(p.id, p);
  });
  const names = new Set<string>();
  const feeds = new Set<string>();
  const addresses = new Set<string>();
  spec.nodes.forEach((n, i) => {
    if (names.has(n.name)) problems.push(`nodes.${i}.name: duplicate node "${n.name}"`);
    names.add(n.name);
    if (!racks.has(n.rack)) problems.push(`nodes.${i}.rack: unknown rack "${n.rack}"`);
    const pdu = pdus.get(n.pdu);
    if (!pdu) problems.push(`nodes.${i}.pdu: unknown PDU "${n.pdu}"`);
    else if (n.outlet > pdu.outlets)
      problems.push(`nodes.${i}.outlet: ${n.outlet} exceeds PDU "${n.pdu}" outlets (${pdu.outlets})`);
    const feed = `${n.pdu}#${n.outlet}`;
    if (feeds.has(feed))
      problems.push(`nodes.${i}.outlet: outlet ${n.outlet} of "${n.pdu}" already feeds another node`);
    feeds.add(feed);
    if (n.address) {
      if (addresses.has(n.address)) problems.push(`nodes.${i}.address: duplicate address ${n.address}`);
      addresses.add(n.address);
    }
    for (const p of biosOverrideProblems(n.vendor, n.hardware.bios ?? {}))
      problems.push(`nodes.${i}.hardware.bios.${p.attribute}: node "${n.name}": ${p.problem}`);
  });
  if (problems.length > 0) throw new LabSpecError(problems);
  return spec;
}
