/**
 * data rackform_inventory: discover many BMCs (a list, or the rack's CSV sheet) into hardware facts, with bounded
 * parallelism. A BMC that cannot be read is a row with reachable = false and its error, not a failed read: a discovery
 * sweep over a new rack is exactly where some BMCs are still unplugged or mis-cabled, and one of them must not hide the
 * facts of all the others (nor block every plan that uses this data source). Configuration mistakes (bad CSV, duplicate
 * names, malformed URLs) do fail, before any BMC is contacted.
 */
import { isClientError } from "../../clients/errors.js";
import { mapLimit } from "../../clients/http/index.js";
import {
  attr,
  conflictsWith,
  type DataSource,
  Diagnostics,
  getNumber,
  getString,
  isKnown,
  listSize,
  numberBetween,
  type ObjectValue,
  parseDuration,
  path,
  stringLength,
  type Value,
  validator,
} from "../../framework/index.js";
import { discover, firmwareMap, gpuModels, isUnreachable } from "../resources/bmc-discovery.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { redfishEndpoint } from "../shared/endpoint.js";
import { formatCsvProblem, type InventoryEntry, parseInventoryCsv } from "./inventory-csv.js";

const DEFAULT_CONCURRENCY = 16;
const DEFAULT_BMC_TIMEOUT = "60s";

const duration = validator("a duration such as 30s or 2m", (req, resp) => {
  if (typeof req.value !== "string") return;
  try {
    parseDuration(req.value);
  } catch (e) {
    resp.diagnostics.error("Invalid duration", (e as Error).message, req.path);
  }
});

/** Why an endpoint is unusable (the same rules as every Redfish endpoint attribute), or undefined. */
export function endpointProblem(endpoint: string): string | undefined {
  const d = new Diagnostics();
  void redfishEndpoint.validate({ value: endpoint, path: [], parent: {}, config: null }, { diagnostics: d });
  return d.items[0]?.detail;
}

const ROW = {
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

/** The BMCs a configuration names; problems go to `diags` with the attribute path and line/column. */
function entriesOf(config: ObjectValue, diags: Diagnostics): InventoryEntry[] | undefined {
  if (!isKnown(config, "bmcs") || !isKnown(config, "csv")) return undefined;
  const csv = getString(config, "csv");
  const bmcs = config.bmcs;
  if (csv === null && bmcs === null) {
    diags.error("No BMCs to discover", 'Set bmcs = [{ name = …, endpoint = … }] or csv = file("bmcs.csv").');
    return undefined;
  }
  if (csv !== null) {
    const { entries, problems } = parseInventoryCsv(csv, endpointProblem);
    for (const p of problems) diags.error("Invalid inventory CSV", `${formatCsvProblem(p)}.`, path("csv"));
    return problems.length > 0 ? undefined : entries;
  }
  if (!Array.isArray(bmcs)) return undefined;
  const out: InventoryEntry[] = [];
  const seen = new Map<string, number>();
  bmcs.forEach((b: Value, i: number) => {
    if (!isKnown(b, "name") || !isKnown(b, "endpoint")) return;
    const name = getString(b, "name")!;
    if (seen.has(name)) {
      diags.error(
        "Duplicate BMC name",
        `bmcs[${i}].name "${name}" is already used by bmcs[${seen.get(name)}]; names identify rows and must be unique.`,
        path("bmcs", i, "name"),
      );
    } else seen.set(name, i);
    out.push({ name, endpoint: getString(b, "endpoint")!, where: `bmcs[${i}]` });
  });
  return out;
}

type Row = Record<keyof typeof ROW, Value>;

function emptyRow(e: InventoryEntry): Row {
  return {
    name: e.name,
    endpoint: e.endpoint,
    rack: e.rack ?? null,
    u: e.u ?? null,
    reachable: false,
    error: null,
    system_id: null,
    serial: null,
    model: null,
    manufacturer: null,
    gpu_model: null,
    gpu_count: null,
    memory_gib: null,
    cpu_count: null,
    macs: null,
    firmware: null,
    bios_version: null,
    bmc_firmware_version: null,
  };
}

/** The rackform_inventory data source; one instance per provider process. */
export function inventoryDataSource(): DataSource {
  const slot = providerDataSlot("rackform_inventory");
  return {
    typeName: "rackform_inventory",
    schema: {
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
    },

    configure: slot.configure,

    validateConfig(req, resp) {
      entriesOf(req.config, resp.diagnostics);
    },

    async read(req, resp) {
      const entries = entriesOf(req.config, resp.diagnostics);
      if (!entries || resp.diagnostics.hasError()) return;
      const pd = slot.get();
      const limit = getNumber(req.config, "concurrency") ?? DEFAULT_CONCURRENCY;
      const ms = parseDuration(getString(req.config, "bmc_timeout") ?? DEFAULT_BMC_TIMEOUT);
      // Dead links each BMC skipped, by entry index: reported after the reads, in input order.
      const skipped: (readonly string[] | undefined)[] = [];
      const rows = await mapLimit(entries, limit, async (e, i): Promise<Row> => {
        const row = emptyRow(e);
        // Plain http would send the Redfish password in clear: that row is refused, the others are read.
        if (!pd.redfish.allowHttp && /^http:\/\//i.test(e.endpoint.trim()))
          return { ...row, error: "plain http:// refused (use https://, or set allow_http = true in redfish)" };
        try {
          const client = pd.redfishClient(new URL(e.endpoint).origin);
          const { inv } = await discover(req.context, client, undefined, { ms, op: "read", waitForReady: false });
          skipped[i] = inv.warnings;
          return {
            ...row,
            reachable: true,
            system_id: inv.systemId,
            serial: inv.serial ?? null,
            model: inv.model ?? null,
            manufacturer: inv.manufacturer ?? null,
            gpu_model: gpuModels(inv),
            gpu_count: inv.gpus.length,
            memory_gib: inv.memoryGiB ?? null,
            cpu_count: inv.cpus.length,
            macs: [...inv.macs],
            firmware: firmwareMap(inv),
            bios_version: inv.biosVersion ?? null,
            bmc_firmware_version: inv.bmcFirmwareVersion ?? null,
          };
        } catch (err) {
          const code = isClientError(err) ? ` (${err.code})` : "";
          req.context.log.warn("BMC not read", { name: e.name, endpoint: e.endpoint, code });
          return { ...row, reachable: !isUnreachable(err), error: `${(err as Error).message}${code}` };
        }
      });
      entries.forEach((e, i) => {
        const w = skipped[i];
        if (!w?.length) return;
        resp.diagnostics.warning(
          // One summary per node: the engines fold warnings of one summary into the first.
          `BMC inventory incomplete: ${e.name}`,
          `${e.name} (${e.endpoint}): some linked resources could not be read and were left out of its row:\n${w.join("\n")}\nThe node's identity (system, MACs, serial) was read; check the BMC's firmware if a count looks low.`,
        );
      });
      resp.state = { ...req.config, nodes: rows };
    },
  };
}
