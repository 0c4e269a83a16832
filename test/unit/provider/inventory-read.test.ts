/**
 * data rackform_inventory's read and checks called directly with fake deps: which BMCs a config names (list or CSV),
 * the problems found before any BMC is contacted, and the rows of BMCs that cannot be read. No lab.
 */
import { describe, expect, it } from "vitest";
import { HttpConnectError } from "../../../src/clients/errors.js";
import type { RedfishClient } from "../../../src/clients/redfish/index.js";
import { UNKNOWN } from "../../../src/framework/index.js";
import { type InventoryDeps, readInventory, validateInventory } from "../../../src/provider/data-sources/inventory.js";
import type { InventoryConfig, InventoryModel } from "../../../src/provider/data-sources/inventory-schema.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

/** Every BMC refuses the connection; `asked` records the origins clients were made for. */
function deadBmcs(allowHttp = false) {
  const asked: string[] = [];
  const client = new Proxy({} as RedfishClient, {
    get: (_t, prop) =>
      prop === "then" ? undefined : () => Promise.reject(new HttpConnectError("connect ECONNREFUSED", {})),
  });
  const deps: InventoryDeps = {
    allowHttp,
    redfishClient(origin) {
      asked.push(origin);
      return client;
    },
  };
  return { deps, asked };
}

const req = () => typedRequest();
const lines = diagnosticLines;

const config = (o: Partial<InventoryModel> = {}): InventoryModel => ({
  bmcs: null,
  csv: null,
  concurrency: null,
  bmc_timeout: "1s",
  nodes: null,
  ...o,
});

describe("rackform_inventory read with fake deps", () => {
  it("reports an unreachable BMC in its row and refuses plain http in its row, reading the rest", async () => {
    const { deps, asked } = deadBmcs();
    const r = req();
    const s = await readInventory(
      {
        ...r,
        config: config({
          bmcs: [
            { name: "n1", endpoint: "https://10.0.0.5" },
            { name: "n2", endpoint: "http://10.0.0.6" },
          ],
        }),
      },
      deps,
    );
    expect(lines(r.diagnostics)).toEqual([]);
    expect(asked).toEqual(["https://10.0.0.5"]);
    expect(s?.nodes?.map((n) => [n.name, n.reachable, n.error?.split(":")[0]])).toEqual([
      ["n1", false, "connect ECONNREFUSED (RACKFORM_ERR_HTTP_CONNECT)"],
      ["n2", false, "plain http"],
    ]);
    // The state is the config with its rows.
    expect(s?.bmc_timeout).toBe("1s");
  });

  it("reads the CSV's rows with their rack and u", async () => {
    const { deps } = deadBmcs();
    const r = req();
    const s = await readInventory(
      { ...r, config: config({ csv: "name,endpoint,rack,u\nn1,https://10.0.0.5,r01,3\n" }) },
      deps,
    );
    expect(s?.nodes?.[0]).toMatchObject({ name: "n1", endpoint: "https://10.0.0.5", rack: "r01", u: 3 });
  });

  it("fails before any BMC is contacted: no BMCs, a bad CSV, a duplicate name", async () => {
    const { deps, asked } = deadBmcs();
    const cases: [Partial<InventoryModel>, string][] = [
      [{}, "error No BMCs to discover @ "],
      [{ csv: "name,endpoint\nn1,ftp://x\n" }, "error Invalid inventory CSV @ csv"],
      [
        {
          bmcs: [
            { name: "n1", endpoint: "https://10.0.0.5" },
            { name: "n1", endpoint: "https://10.0.0.6" },
          ],
        },
        "error Duplicate BMC name @ bmcs[1].name",
      ],
    ];
    for (const [set, line] of cases) {
      const r = req();
      expect(await readInventory({ ...r, config: config(set) }, deps)).toBeUndefined();
      expect(lines(r.diagnostics)).toEqual([line]);
    }
    expect(asked).toEqual([]);
  });
});

describe("rackform_inventory validation", () => {
  const validate = (c: Partial<InventoryConfig>) => {
    const r = req();
    validateInventory({ ...r, config: { ...config(), ...c } });
    return lines(r.diagnostics);
  };

  it("skips what is not known yet, and names a duplicate among the known entries", () => {
    expect(validate({ bmcs: UNKNOWN })).toEqual([]);
    expect(validate({ csv: UNKNOWN })).toEqual([]);
    expect(
      validate({
        bmcs: [
          { name: "a", endpoint: UNKNOWN },
          { name: UNKNOWN, endpoint: "https://x" },
          { name: "b", endpoint: "https://10.0.0.5" },
          { name: "b", endpoint: "https://10.0.0.6" },
        ],
      }),
    ).toEqual(["error Duplicate BMC name @ bmcs[3].name"]);
  });
});
