/** Unit: the event log's query options — `$top`, `$skip` and the `$filter` subset (redfish/log-query.ts). */
import { describe, expect, it } from "vitest";
import { RedfishError } from "../../../src/lab/redfish/errors.js";
import { parseFilter, parseLogQuery, passes } from "../../../src/lab/redfish/log-query.js";

const entry = (id: number, severity: string, created: string) => (prop: string) =>
  ({ Id: String(id), Severity: severity, Created: created, MessageId: "MEM0001", EntryType: "SEL" })[prop] ?? "";

describe("event log query options", () => {
  it("compares Id as a number, strings as strings; and binds tighter than or; '' escapes a quote", () => {
    const f = parseFilter("Id gt '9' and Severity eq 'Critical' or MessageId eq 'O''Brien'");
    expect(passes(f, entry(10, "Critical", ""))).toBe(true);
    expect(passes(f, entry(10, "Warning", ""))).toBe(false);
    expect(passes(f, entry(2, "Critical", ""))).toBe(false);
    expect(parseFilter("MessageId eq 'O''Brien'")[0][0].value).toBe("O'Brien");
    const since = parseFilter("Created ge '2026-01-01T00:00:05+00:00'");
    expect(passes(since, entry(1, "OK", "2026-01-01T00:00:05+00:00"))).toBe(true);
    expect(passes(since, entry(1, "OK", "2026-01-01T00:00:04+00:00"))).toBe(false);
    expect(passes(undefined, entry(1, "OK", ""))).toBe(true);
  });

  it("refuses what it does not parse with 400, and $filter with 501 or silence as the vendor does", () => {
    for (const bad of ["Id gt", "(Id gt '1')", "not Id eq '1'", "Name eq 'x'", "Id like '1'"]) {
      expect(() => parseFilter(bad)).toThrow(RedfishError);
    }
    expect(() => parseLogQuery("$skip=x", "yes")).toThrow(/\$skip/);
    expect(parseLogQuery("$top=3&$skip=2", "yes")).toEqual({ top: 3, skip: 2 });
    const refused = (() => {
      try {
        parseLogQuery("$filter=Id%20gt%20'1'", "501");
      } catch (e) {
        return e as RedfishError;
      }
    })();
    expect([refused?.status, refused?.key]).toEqual([501, "QueryParameterUnsupported"]);
    expect(parseLogQuery("$filter=Id%20gt%20'1'", "ignored").filter).toBeUndefined();
    expect(parseLogQuery("$filter=Id%20gt%20'1'", "yes").rawFilter).toBe("Id gt '1'");
  });
});
