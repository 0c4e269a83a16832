/** The inventory CSV: what spreadsheets write is read correctly, and every problem names its line and column. */
import { describe, expect, it } from "vitest";
import { endpointProblem } from "../../../src/provider/data-sources/inventory.js";
import { formatCsvProblem, parseInventoryCsv, readCsv } from "../../../src/provider/data-sources/inventory-csv.js";

const parse = (text: string) => parseInventoryCsv(text, endpointProblem);
const problems = (text: string) => parse(text).problems.map(formatCsvProblem);

describe("readCsv", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks", () => {
    const { records, problems: p } = readCsv('a,b\n"x, y","say ""hi"""\n"multi\nline",z\n');
    expect(p).toEqual([]);
    expect(records).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'say "hi"'] },
      { line: 3, fields: ["multi\nline", "z"] },
    ]);
  });

  it("reads CRLF, a BOM, blank lines and a missing final newline", () => {
    const { records } = readCsv("\uFEFFname,endpoint\r\n\r\nn1,https://a\r\nn2,https://b");
    expect(records.map((r) => [r.line, ...r.fields])).toEqual([
      [1, "name", "endpoint"],
      [3, "n1", "https://a"],
      [4, "n2", "https://b"],
    ]);
  });

  it("fails on an unterminated quote, naming the line it opened on", () => {
    expect(readCsv('a,b\n1,"oops\n2,3\n').problems).toEqual([
      { line: 2, message: 'a quoted field is never closed (missing ")' },
    ]);
  });
});

describe("parseInventoryCsv", () => {
  it("reads name, endpoint, rack and u in any column order and case, ignoring other columns", () => {
    const { entries, problems: p } = parse(
      'U,Notes,Endpoint,Name,Rack\r\n2,"racked, ok",https://127.10.1.1,r01-n01,r01\r\n7,,https://127.10.1.2:8443,r01-n02,r01\r\n',
    );
    expect(p).toEqual([]);
    expect(entries).toEqual([
      { name: "r01-n01", endpoint: "https://127.10.1.1", rack: "r01", u: 2, where: "line 2" },
      { name: "r01-n02", endpoint: "https://127.10.1.2:8443", rack: "r01", u: 7, where: "line 3" },
    ]);
  });

  it("accepts the two required columns alone", () => {
    expect(parse("name,endpoint\nn1,https://10.0.0.5\n").entries).toEqual([
      { name: "n1", endpoint: "https://10.0.0.5", where: "line 2" },
    ]);
  });

  it("fails on missing columns, naming each", () => {
    expect(problems("name,address\nn1,https://a\n")).toEqual([
      'line 1, column "endpoint": the header has no "endpoint" column (it has: name, address); the first line must name the columns, e.g. name,endpoint,rack,u',
    ]);
  });

  it("fails on an empty CSV", () => {
    expect(problems("\uFEFF\r\n")).toEqual(["line 1: the CSV is empty; write a header line: name,endpoint,rack,u"]);
  });

  it("fails on duplicate names, malformed URLs, bad units and short rows — each with line and column", () => {
    const out = problems(
      [
        "name,endpoint,rack,u",
        "n1,https://127.10.1.1,r01,2",
        "n1,https://127.10.1.2,r01,7",
        "n3,127.10.1.3,r01,12",
        "n4,https://admin:pw@127.10.1.4,r01,17",
        "n5,https://127.10.1.5,r01,1.5",
        "n6,https://127.10.1.6",
        ",https://127.10.1.7,r01,3",
      ].join("\n"),
    );
    expect(out).toHaveLength(6);
    expect(out[0]).toBe('line 3, column "name": duplicate name "n1" (first on line 2)');
    expect(out[1]).toMatch(/^line 4, column "endpoint": .*is not a URL/);
    expect(out[2]).toMatch(/^line 5, column "endpoint": .*contains credentials/);
    expect(out.join("\n")).not.toContain("pw@");
    expect(out[3]).toBe('line 6, column "u": "1.5" is not a rack unit (a whole number)');
    expect(out[4]).toBe("line 7: has 2 fields, but the header has 4");
    expect(out[5]).toBe('line 8, column "name": is empty; every BMC needs a name');
    expect(parse("name,endpoint\nn1,https://a\nn1,https://b\n").entries).toEqual([]);
  });
});
