/** data rackform_inventory's schema; its model (ModelOf) is what the read in inventory.ts gets and returns. */
import {
  attr,
  conflictsWith,
  listSize,
  type ModelOf,
  numberBetween,
  parseDuration,
  stringLength,
  type Unknown,
  validator,
} from "../../framework/index.js";
import { redfishEndpoint } from "../shared/endpoint.js";

export const DEFAULT_CONCURRENCY = 16;
export const DEFAULT_BMC_TIMEOUT = "60s";

const duration = validator("a duration such as 30s or 2m", (req, resp) => {
  if (typeof req.value !== "string") return;
  try {
    parseDuration(req.value);
  } catch (e) {
    resp.diagnostics.error("Invalid duration", (e as Error).message, req.path);
  }
});

/** The object type of one row of `nodes`. */
export const ROW = {
  name: "string",
  endpoint: "string",
  rack: "string",
  u: "number",
  reachable: "bool",
  error: "string",
  system_id: "string",
  serial: "string",
  model: "string",
  manufacturer: "string",
  gpu_model: "string",
  gpu_count: "number",
  memory_gib: "number",
  cpu_count: "number",
  macs: ["list", "string"],
  firmware: ["map", "string"],
  bios_version: "string",
  bmc_firmware_version: "string",
} as const;

/** The rackform_inventory schema. */
export const inventorySchema = {
  description:
    "Discovers BMCs (a list, or a CSV sheet with columns name,endpoint[,rack,u]) into hardware facts, reading " +
    "`concurrency` BMCs at a time. An unreachable BMC is reported in its row (reachable = false, error = why) rather " +
    "than failing the read, so one unplugged node does not hide the facts of the rest of the rack.",
  attributes: {
    bmcs: attr.listNested(
      {
        name: attr.string({
          required: true,
          description: "Name of the node.",
          validators: [stringLength({ min: 1 })],
        }),
        endpoint: attr.string({
          required: true,
          description: 'Address of its BMC, e.g. "https://10.0.0.5".',
          validators: [redfishEndpoint],
        }),
      },
      {
        optional: true,
        description: "The BMCs to discover. Set this or csv.",
        validators: [conflictsWith("csv"), listSize({ min: 1 })],
      },
    ),
    csv: attr.string({
      optional: true,
      description:
        'CSV text with a header line naming the columns name, endpoint and optionally rack and u (other columns are ignored), e.g. csv = file("bmcs.csv"). Set this or bmcs.',
    }),
    concurrency: attr.number({
      optional: true,
      description: `BMCs read at the same time. @default ${DEFAULT_CONCURRENCY}`,
      validators: [numberBetween(1, 256)],
    }),
    bmc_timeout: attr.string({
      optional: true,
      description: `How long one BMC may take before its row reports it unreachable. @default "${DEFAULT_BMC_TIMEOUT}"`,
      validators: [duration],
    }),
    nodes: attr.list(["object", ROW], {
      computed: true,
      description:
        "One row per BMC, in input order: name, endpoint, rack, u, reachable, error (null when the BMC was read), system_id, serial, model, manufacturer, gpu_model, gpu_count, memory_gib, cpu_count, macs, firmware (component Id → version), bios_version, bmc_firmware_version. Hardware fields are null when the BMC could not be read.",
    }),
  },
} as const;

/** The config at read time (wholly known) and the state the read returns. */
export type InventoryModel = ModelOf<typeof inventorySchema>;
/** The config at validation: any attribute may be unknown. */
export type InventoryConfig = ModelOf<typeof inventorySchema, "config">;
/** One row of `nodes`. */
export type InventoryRow = InventoryModel["nodes"] extends readonly (infer R)[] | null ? R : never;
/** One entry of the bmcs list at validation (its name or endpoint may be unknown). */
export type InventoryBmcConfig = Exclude<InventoryConfig["bmcs"], Unknown | null>[number];
