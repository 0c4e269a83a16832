/**
 * A flavor: the hardware profile and firmware baseline every node of a rack must match before it is enrolled
 * (rackform_bmc `expected`; images and BIOS settings converged by rackform_firmware), and the fabric whose line rate
 * sets the acceptance gate's NCCL threshold.
 */
import { Construct } from "constructs";
import type { BmcExpected } from "../gen/providers/rackform/bmc/index.js";
import { DPUS_SCHEMA } from "./private/dpu-spec.js";
import {
  BIOS_SCHEMA,
  biosProblems,
  biosText,
  FIRMWARE_SCHEMA,
  type FirmwareSettings,
  imagesOf,
  versionsOf,
} from "./private/firmware-spec.js";
import { certificateProblems, digestProblems } from "./private/trust-spec.js";
import { type PropsSchema, validateProps } from "./private/validate.js";

/** The GPUs a node must have. */
export interface GpuSpec {
  /** Text every GPU model must contain, case-insensitive, e.g. "H100". */
  readonly model: string;
  /** Exact number of GPUs, 1..64. */
  readonly count: number;
}

/** The scale-out fabric: rails of NICs, usually one per GPU. */
export interface FabricSpec {
  /** Line rate of one rail in Gb/s. @default 400 */
  readonly railGbps?: number;
  /** Number of rails. @default the GPU count */
  readonly rails?: number;
}

/** A BlueField boot stream (BFB) pinned by version, URL and checksum. */
export interface BfbSpec {
  /** The version FirmwareInventory/DPU_OS reports once it runs, e.g. "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod". */
  readonly version: string;
  /** Where the DPU's BMC downloads the .bfb from (http or https). */
  readonly url: string;
  /** sha256 of the .bfb, 64 hex digits (recorded: a rebuilt image under the same version is a visible change). */
  readonly sha256: string;
}

/** A firmware image pinned by version, URL and checksum, flashed through the node's BMC (rackform_firmware). */
export interface FirmwareImage {
  /** The version the FirmwareInventory item reports once the image runs, e.g. "2.3.1" (letters, digits, . _ + - :). */
  readonly version: string;
  /** Where rackform reads the image from (http or https); it is streamed to the BMC. */
  readonly url: string;
  /** sha256 of the image, 64 hex digits, checked before anything is sent to the BMC. */
  readonly sha256: string;
}

/** A BIOS setting's value; numbers and booleans are written as text ("4", "true"), as the provider takes them. */
export type BiosValue = string | number | boolean;

/** The BlueField-3 DPUs every node carries, each converged through its own BMC (rackform_dpu). */
export interface DpuSpec {
  /** DPUs per node, 1..4; each node of a Rack gives that many DPU BMC addresses (RackNode.dpus). */
  readonly count: number;
  /** Mode of operation; a change power-cycles the host. @default "DpuMode" */
  readonly mode?: "DpuMode" | "NicMode";
  /** The BFB every DPU runs. */
  readonly bfb: BfbSpec;
  /** Who holds the rshim once converged: "bmc" or "host". @default "bmc" */
  readonly rshim?: "bmc" | "host";
}

/** UEFI Secure Boot as every node must run it, converged by its rackform_firmware. */
export interface SecureBootSpec {
  /** Secure Boot enforced. */
  readonly enabled: boolean;
  /** Certificates (PEM) that must be in `db`, e.g. the key that signs your golden image's boot chain. @default none */
  readonly db?: readonly string[];
  /** Certificates (PEM) that must be in `KEK`. @default none */
  readonly kek?: readonly string[];
  /** SHA-256 digests (hex) that must be in `dbx` (revoked binaries). @default none */
  readonly dbx?: readonly string[];
}

/** Properties of a Flavor. */
export interface FlavorProps {
  /** The GPUs every node must have. */
  readonly gpus: GpuSpec;
  /** Least system memory in GiB. @default not checked */
  readonly minMemoryGiB?: number;
  /** Exact number of CPU sockets. @default not checked */
  readonly cpuSockets?: number;
  /** Exact number of network ports with a MAC address. @default not checked */
  readonly nicCount?: number;
  /**
   * Firmware baseline by component, named as the BMC's FirmwareInventory names it (an item's Id or Name, e.g. "BIOS",
   * "iDRAC firmware"). A version (`{ BIOS: "2.3.1" }`) is checked by the node's rackform_bmc: a node running another
   * fails before enrollment. An image (`{ BIOS: { version, url, sha256 } }`) is flashed by the node's
   * rackform_firmware after its BMC and before its enrollment, and on a node in service by its cluster member inside
   * the disruption budget. @default not checked
   */
  readonly firmware?: Readonly<Record<string, string | FirmwareImage>>;
  /**
   * BIOS settings by AttributeRegistry name, e.g. { ProcVirtualization: "Enabled", SriovGlobalEnable: "Enabled" },
   * staged by the node's rackform_firmware and applied at its one reset; settings not named are left as they are.
   * @default not set
   */
  readonly bios?: Readonly<Record<string, BiosValue>>;
  /** The scale-out fabric. @default one 400 Gb/s rail per GPU */
  readonly fabric?: FabricSpec;
  /** BlueField-3 DPUs every node carries: mode, pinned BFB, rshim policy. @default none */
  readonly dpus?: DpuSpec;
  /**
   * UEFI Secure Boot: certificates enrolled and enforcement set by each node's rackform_firmware, activated by the
   * node's one reset with the firmware and BIOS settings (on a node in service, by its cluster member inside the
   * disruption budget). The golden image must be signed by a key in db. @default not managed
   */
  readonly secureBoot?: SecureBootSpec;
}

const count = (what: string, max: number) => ({
  type: "integer",
  minimum: 1,
  maximum: max,
  expect: `a whole number of ${what} in 1..${max}`,
  fix: `give the ${what} every node has, e.g. 8`,
});

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["gpus"],
  properties: {
    gpus: {
      type: "object",
      additionalProperties: false,
      required: ["model", "count"],
      fix: 'describe the GPUs, e.g. { model: "H100", count: 8 }',
      properties: {
        model: { type: "string", minLength: 1, expect: "a GPU model", fix: 'name the model, e.g. "H100"' },
        count: count("GPUs", 64),
      },
    },
    minMemoryGiB: count("GiB", 1 << 20),
    cpuSockets: count("CPU sockets", 16),
    nicCount: count("NICs", 256),
    firmware: FIRMWARE_SCHEMA,
    bios: BIOS_SCHEMA,
    fabric: {
      type: "object",
      additionalProperties: false,
      properties: {
        railGbps: {
          type: "number",
          exclusiveMinimum: 0,
          maximum: 3200,
          expect: "a rail line rate in Gb/s (0 < rate ≤ 3200)",
          fix: "give one rail's line rate, e.g. 400",
        },
        rails: count("rails", 64),
      },
    },
    dpus: DPUS_SCHEMA,
    secureBoot: {
      type: "object",
      additionalProperties: false,
      required: ["enabled"],
      fix: "give { enabled: true } and any certificates to enrol: { enabled, db, kek, dbx }",
      properties: {
        enabled: { type: "boolean" },
        db: { type: "array", items: { type: "string" } },
        kek: { type: "array", items: { type: "string" } },
        dbx: { type: "array", items: { type: "string" } },
      },
    },
  },
};

/** Secure Boot's certificate and digest problems. */
function secureBootProblems(base: string, sb: SecureBootSpec | undefined) {
  if (!sb) return [];
  const fix = 'give one PEM certificate per entry, e.g. readFileSync("db.pem", "utf8")';
  return [
    ...certificateProblems(`${base}/secureBoot.db`, sb.db, false, fix),
    ...certificateProblems(`${base}/secureBoot.kek`, sb.kek, false, fix),
    ...digestProblems(`${base}/secureBoot.dbx`, sb.dbx),
  ];
}

/** A hardware profile and firmware baseline, validated at synth; it creates no resource. */
export class Flavor extends Construct {
  /** The GPUs every node must have. */
  readonly gpus: GpuSpec;
  /** Least system memory in GiB, if checked. */
  readonly minMemoryGiB: number | undefined;
  /** CPU sockets, if checked. */
  readonly cpuSockets: number | undefined;
  /** NIC count, if checked. */
  readonly nicCount: number | undefined;
  /** The firmware baseline as given: versions the BMC checks, images rackform_firmware flashes (may be empty). */
  readonly firmware: Readonly<Record<string, string | FirmwareImage>>;
  /** The BIOS settings as rackform_firmware takes them, values as text (may be empty). */
  readonly bios: Readonly<Record<string, string>>;
  /** Fabric line rate in GB/s, as NCCL reports bus bandwidth: rails × railGbps / 8 (400 GB/s for 8 × 400 Gb/s). */
  readonly fabricLineRateGBps: number;
  /** The DPUs every node carries, defaults filled in; undefined when the flavor has none. */
  readonly dpus: Required<DpuSpec> | undefined;
  /** UEFI Secure Boot as nodes must run it; undefined when not managed. */
  readonly secureBoot: SecureBootSpec | undefined;

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: FlavorProps) {
    super(scope, id);
    validateProps(this, SCHEMA, props, (base) => [
      ...biosProblems(base, props.bios),
      ...secureBootProblems(base, props.secureBoot),
    ]);
    this.gpus = { ...props.gpus };
    this.minMemoryGiB = props.minMemoryGiB;
    this.cpuSockets = props.cpuSockets;
    this.nicCount = props.nicCount;
    this.firmware = Object.fromEntries(
      Object.entries(props.firmware ?? {}).map(([name, v]) => [name, typeof v === "string" ? v : { ...v }]),
    );
    this.bios = Object.fromEntries(Object.entries(props.bios ?? {}).map(([name, v]) => [name, biosText(v)]));
    this.fabricLineRateGBps = ((props.fabric?.rails ?? props.gpus.count) * (props.fabric?.railGbps ?? 400)) / 8;
    const d = props.dpus;
    this.dpus = d && { count: d.count, mode: d.mode ?? "DpuMode", bfb: { ...d.bfb }, rshim: d.rshim ?? "bmc" };
    const sb = props.secureBoot;
    this.secureBoot = sb && {
      enabled: sb.enabled,
      db: [...(sb.db ?? [])],
      kek: [...(sb.kek ?? [])],
      dbx: [...(sb.dbx ?? [])],
    };
  }

  /**
   * What each node's rackform_firmware converges: the components given as images, the BIOS settings and Secure Boot;
   * undefined when the flavor has none of them (a Rack then adds no rackform_firmware).
   */
  toFirmwareSettings(): FirmwareSettings | undefined {
    const components = imagesOf(this.firmware);
    const bios = Object.keys(this.bios).length > 0 ? { ...this.bios } : undefined;
    const sb = this.secureBoot;
    if (!components && !bios && !sb) return undefined;
    const secureBoot = sb && {
      enabled: sb.enabled,
      ...(sb.db?.length ? { db: [...sb.db] } : {}),
      ...(sb.kek?.length ? { kek: [...sb.kek] } : {}),
      ...(sb.dbx?.length ? { dbx: [...sb.dbx] } : {}),
    };
    return { ...(components ? { components } : {}), ...(bios ? { bios } : {}), ...(secureBoot ? { secureBoot } : {}) };
  }

  /**
   * The rackform_bmc `expected` block, plus the node's own MACs when given. Its firmware is the components given as
   * versions: one given as an image is not checked there, since the BMC is read before rackform_firmware flashes it.
   */
  toBmcExpected(macs?: readonly string[]): BmcExpected {
    const versions = versionsOf(this.firmware);
    return {
      gpuModel: this.gpus.model,
      gpuCount: this.gpus.count,
      ...(this.minMemoryGiB !== undefined ? { minMemoryGib: this.minMemoryGiB } : {}),
      ...(this.cpuSockets !== undefined ? { cpuCount: this.cpuSockets } : {}),
      ...(this.nicCount !== undefined ? { nicCount: this.nicCount } : {}),
      ...(macs && macs.length > 0 ? { macs: [...macs] } : {}),
      ...(Object.keys(versions).length > 0 ? { firmware: versions } : {}),
      ...(this.dpus ? { dpuCount: this.dpus.count } : {}),
    };
  }
}
