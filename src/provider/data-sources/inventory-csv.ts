/**
 * The inventory CSV ("name,endpoint[,rack,u]", as a rack's delivery sheet has it): an RFC 4180 reader that tolerates
 * what spreadsheets write (a UTF-8 BOM, CRLF, quoted fields with commas, quotes and line breaks) and a checker whose
 * every problem names the line and the column, so a 500-row sheet can be fixed without guessing.
 */

/** One record as text, with the line of the file it starts on (1-based). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

/** A problem in the CSV; `line` is the file line (the header is line 1), `column` the header name when known. */
export interface CsvProblem {
  readonly line: number;
  readonly column?: string;
  readonly message: string;
}

/** A BMC to discover. */
export interface InventoryEntry {
  readonly name: string;
  readonly endpoint: string;
  readonly rack?: string;
  readonly u?: number;
  /** Where it came from, for messages: `line 4` of the CSV or `bmcs[3]`. */
  readonly where: string;
}

/** Splits CSV text into records. Blank lines are skipped; an unterminated quote is a problem at its line. */
export function readCsv(text: string): { records: CsvRecord[]; problems: CsvProblem[] } {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let quoteLine = 0;
  let touched = false;
  const endField = () => {
    fields.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    if (touched || fields.length > 1 || fields[0] !== "") records.push({ line: start, fields });
    fields = [];
    touched = false;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === "") {
      quoted = true;
      quoteLine = line;
      touched = true;
      field = "";
    } else if (c === ",") {
      endField();
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && s[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted)
    return { records, problems: [{ line: quoteLine, message: 'a quoted field is never closed (missing ")' }] };
  endRecord();
  return { records, problems: [] };
}

const REQUIRED = ["name", "endpoint"] as const;
const OPTIONAL = ["rack", "u"] as const;

/**
 * Parses and checks an inventory CSV: header with at least name and endpoint (any order, any case; other columns are
 * ignored), one BMC per row, unique names. `checkEndpoint` returns why an endpoint is unusable, or undefined.
 */
export function parseInventoryCsv(
  text: string,
  checkEndpoint: (endpoint: string) => string | undefined,
): { entries: InventoryEntry[]; problems: CsvProblem[] } {
  const { records, problems } = readCsv(text);
  if (problems.length > 0) return { entries: [], problems };
  if (records.length === 0)
    return {
      entries: [],
      problems: [{ line: 1, message: "the CSV is empty; write a header line: name,endpoint,rack,u" }],
    };
  const header = records[0].fields.map((h) => h.trim().toLowerCase());
  const col: Record<string, number> = {};
  header.forEach((h, i) => {
    if ([...REQUIRED, ...OPTIONAL].includes(h as never) && col[h] === undefined) col[h] = i;
  });
  const missing = REQUIRED.filter((r) => col[r] === undefined);
  if (missing.length > 0) {
    return {
      entries: [],
      problems: missing.map((m) => ({
        line: records[0].line,
        column: m,
        message: `the header has no "${m}" column (it has: ${header.join(", ") || "nothing"}); the first line must name the columns, e.g. name,endpoint,rack,u`,
      })),
    };
  }
  const out: InventoryEntry[] = [];
  const seen = new Map<string, number>();
  for (const r of records.slice(1)) {
    if (r.fields.length !== header.length) {
      problems.push({ line: r.line, message: `has ${r.fields.length} fields, but the header has ${header.length}` });
      continue;
    }
    const get = (c: string) => (col[c] === undefined ? "" : r.fields[col[c]].trim());
    const name = get("name");
    const endpoint = get("endpoint");
    const bad = (column: string, message: string) => problems.push({ line: r.line, column, message });
    if (name === "") bad("name", "is empty; every BMC needs a name");
    else if (seen.has(name)) bad("name", `duplicate name "${name}" (first on line ${seen.get(name)})`);
    else seen.set(name, r.line);
    const why = endpoint === "" ? "is empty; write the BMC's address, e.g. https://10.0.0.5" : checkEndpoint(endpoint);
    if (why) bad("endpoint", why);
    const uText = get("u");
    const u = uText === "" ? undefined : Number(uText);
    if (u !== undefined && !(Number.isInteger(u) && u >= 0)) bad("u", `"${uText}" is not a rack unit (a whole number)`);
    const rack = get("rack");
    if (name !== "" && !why && (u === undefined || Number.isInteger(u))) {
      out.push({
        name,
        endpoint,
        ...(rack ? { rack } : {}),
        ...(u !== undefined ? { u } : {}),
        where: `line ${r.line}`,
      });
    }
  }
  return { entries: problems.length > 0 ? [] : out, problems };
}

/** `line 4, column "endpoint": …` */
export function formatCsvProblem(p: CsvProblem): string {
  return `line ${p.line}${p.column ? `, column "${p.column}"` : ""}: ${p.message}`;
}
