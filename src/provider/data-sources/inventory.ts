/**
 * data rackform_inventory: discover many BMCs (a list, or the rack's CSV sheet) into hardware facts, with bounded
 * parallelism. A BMC that cannot be read is a row with reachable = false and its error, not a failed read: a discovery
 * sweep over a new rack is exactly where some BMCs are still unplugged or mis-cabled, and one of them must not hide the
 * facts of all the others (nor block every plan that uses this data source). Configuration mistakes (bad CSV, duplicate
 * names, malformed URLs) do fail, before any BMC is contacted. Schema in inventory-schema.ts.
 */
import { isClientError } from "../../clients/errors.js";
import { mapLimit } from "../../clients/http/index.js";
import type { RedfishClient } from "../../clients/redfish/index.js";
import {
  type Context,
  type DataSource,
  Diagnostics,
  defineDataSource,
  isUnknownValue,
  parseDuration,
  path,
  type TypedRequest,
  type Unknowable,
} from "../../framework/index.js";
import type { ProviderData } from "../config/config.js";
import { discover, firmwareMap, gpuModels, isUnreachable } from "../resources/bmc-discovery.js";
import { redfishEndpoint } from "../shared/endpoint.js";
import { formatCsvProblem, type InventoryEntry, parseInventoryCsv } from "./inventory-csv.js";
import {
  DEFAULT_BMC_TIMEOUT,
  DEFAULT_CONCURRENCY,
  type InventoryBmcConfig,
  type InventoryConfig,
  type InventoryModel,
  type InventoryRow,
  inventorySchema,
} from "./inventory-schema.js";

/** What the inventory's read uses: whether plain http is allowed, and the shared Redfish client of a BMC. */
export interface InventoryDeps {
  readonly allowHttp: boolean;
  redfishClient(origin: string): RedfishClient;
}

/** The deps of the configured provider. */
export function inventoryDeps(providerData: unknown): InventoryDeps {
  const data = providerData as ProviderData;
  return {
    allowHttp: data.redfish.allowHttp,
    redfishClient: (origin) => data.redfishClient(origin),
  };
}

/** Why an endpoint is unusable (the same rules as every Redfish endpoint attribute), or undefined. */
export function endpointProblem(endpoint: string): string | undefined {
  const d = new Diagnostics();
  void redfishEndpoint.validate({ value: endpoint, path: [], parent: {}, config: null }, { diagnostics: d });
  return d.items[0]?.detail;
}

/** The BMCs a configuration names; problems go to `diags` with the attribute path and line/column. */
function entriesOf(config: InventoryConfig, diags: Diagnostics): InventoryEntry[] | undefined {
  const { csv, bmcs } = config;
  if (isUnknownValue(bmcs) || isUnknownValue(csv)) return undefined;
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
  return listedEntries(bmcs, diags);
}

/** The bmcs list's known entries; a name used twice is an error at the second. */
function listedEntries(bmcs: readonly InventoryBmcConfig[], diags: Diagnostics): InventoryEntry[] {
  const out: InventoryEntry[] = [];
  const seen = new Map<string, number>();
  bmcs.forEach((b, i) => {
    // An element, or its name or endpoint, may not be known yet at validation: it is checked at read.
    if (isUnknownValue(b as Unknowable<typeof b>)) return;
    const [name, endpoint] = [b.name, b.endpoint];
    if (isUnknownValue(name) || isUnknownValue(endpoint)) return;
    if (seen.has(name)) {
      diags.error(
        "Duplicate BMC name",
        `bmcs[${i}].name "${name}" is already used by bmcs[${seen.get(name)}]; names identify rows and must be unique.`,
        path("bmcs", i, "name"),
      );
    } else seen.set(name, i);
    out.push({ name, endpoint, where: `bmcs[${i}]` });
  });
  return out;
}

function emptyRow(e: InventoryEntry): InventoryRow {
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

/** One BMC's row; what it could not read is its row's error. `skipped` gets the dead links of a BMC that was read. */
async function readRow(
  ctx: Context,
  deps: InventoryDeps,
  e: InventoryEntry,
  bounds: { readonly ms: number; readonly skipped: (w: readonly string[] | undefined) => void },
): Promise<InventoryRow> {
  const row = emptyRow(e);
  // Plain http would send the Redfish password in clear: that row is refused, the others are read.
  if (!deps.allowHttp && /^http:\/\//i.test(e.endpoint.trim()))
    return { ...row, error: "plain http:// refused (use https://, or set allow_http = true in redfish)" };
  try {
    const client = deps.redfishClient(new URL(e.endpoint).origin);
    const { inv } = await discover(ctx, client, undefined, { ms: bounds.ms, op: "read", waitForReady: false });
    bounds.skipped(inv.warnings);
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
      // Component Id → version: every value is a version string.
      firmware: firmwareMap(inv) as Readonly<Record<string, string>>,
      bios_version: inv.biosVersion ?? null,
      bmc_firmware_version: inv.bmcFirmwareVersion ?? null,
    };
  } catch (err) {
    const code = isClientError(err) ? ` (${err.code})` : "";
    ctx.log.warn("BMC not read", { name: e.name, endpoint: e.endpoint, code });
    return { ...row, reachable: !isUnreachable(err), error: `${(err as Error).message}${code}` };
  }
}

/** Reads every BMC the config names, `concurrency` at a time; rows in input order, incomplete ones with a warning. */
export async function readInventory(
  r: TypedRequest & { config: InventoryModel },
  deps: InventoryDeps,
): Promise<InventoryModel | undefined> {
  const entries = entriesOf(r.config, r.diagnostics);
  if (!entries || r.diagnostics.hasError()) return undefined;
  const limit = r.config.concurrency ?? DEFAULT_CONCURRENCY;
  const ms = parseDuration(r.config.bmc_timeout ?? DEFAULT_BMC_TIMEOUT);
  // Dead links each BMC skipped, by entry index: reported after the reads, in input order.
  const skipped: (readonly string[] | undefined)[] = [];
  const rows = await mapLimit(entries, limit, (e, i) =>
    readRow(r.context, deps, e, { ms, skipped: (w) => void (skipped[i] = w) }),
  );
  entries.forEach((e, i) => {
    const w = skipped[i];
    if (!w?.length) return;
    r.diagnostics.warning(
      // One summary per node: the engines fold warnings of one summary into the first.
      `BMC inventory incomplete: ${e.name}`,
      `${e.name} (${e.endpoint}): some linked resources could not be read and were left out of its row:\n${w.join("\n")}\nThe node's identity (system, MACs, serial) was read; check the BMC's firmware if a count looks low.`,
    );
  });
  return { ...r.config, nodes: rows };
}

/** The config's checks before any BMC is contacted: a source of BMCs, a valid CSV, unique names. */
export function validateInventory(r: TypedRequest & { config: InventoryConfig }): void {
  entriesOf(r.config, r.diagnostics);
}

/** The rackform_inventory data source; `deps` replaces the configured provider's (tests hand fakes). */
export function inventoryDataSource(deps: (providerData: unknown) => InventoryDeps = inventoryDeps): DataSource {
  return defineDataSource({
    typeName: "rackform_inventory",
    schema: inventorySchema,
    deps,
    read: readInventory,
    validateConfig: validateInventory,
  });
}
