/**
 * The DMTF Redfish JSON schemas of ../shared/fixtures/redfish/dmtf (DSP8010, BSD-3) in one ajv, and the validator of
 * the schema version a payload's @odata.type names. References to schema files outside the fixture subset become
 * accept-anything stubs, so a payload is still checked strictly by every schema that is present.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { FIXTURES } from "./fixtures.js";

/** Where the fixture schemas live. */
export const SCHEMA_DIR = join(FIXTURES, "redfish/dmtf/json-schema");
/** Schemas of resources the shared fixtures lack, copied into the repository (provenance.jsonl there). */
export const REPO_SCHEMA_DIR = join(import.meta.dirname, "..", "fixtures", "redfish-schema");
const SCHEMA_DIRS = [SCHEMA_DIR, REPO_SCHEMA_DIR];

/** Whether a schema file (e.g. `Processor.v1_22_0.json`) is in the fixtures. */
export const schemaPresent = (file: string) => SCHEMA_DIRS.some((d) => existsSync(join(d, file)));
const BASE = "http://redfish.dmtf.org/schemas/v1/";

/** An ajv holding every fixture schema. */
export function loadDmtfSchemas(): Ajv {
  if (!existsSync(SCHEMA_DIR)) throw new Error(`DMTF JSON schemas not found at ${SCHEMA_DIR}`);
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  const present = new Set<string>();
  const refs = new Map<string, Set<string>>();
  for (const dir of SCHEMA_DIRS) {
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
      if (f === "redfish-schema-v1.json" || present.has(`${BASE}${f}`)) continue;
      const text = readFileSync(join(dir, f), "utf8");
      ajv.addSchema(JSON.parse(text), `${BASE}${f}`);
      present.add(`${BASE}${f}`);
      for (const m of text.matchAll(/"\$ref": "(http[^"#]+)#\/definitions\/([^"]+)"/g)) {
        const defs = refs.get(m[1]) ?? new Set<string>();
        defs.add(m[2]);
        refs.set(m[1], defs);
      }
    }
  }
  for (const [url, defs] of refs) {
    if (!present.has(url)) ajv.addSchema({ $id: url, definitions: Object.fromEntries([...defs].map((d) => [d, {}])) });
  }
  return ajv;
}

/** The validator of the versioned schema an @odata.type names (throws when the fixtures lack it). */
export function dmtfValidator(ajv: Ajv, odataType: string): ValidateFunction {
  const m = /^#([A-Za-z]+)\.(?:(v\d+_\d+_\d+)\.)?([A-Za-z]+)$/.exec(odataType);
  if (!m) throw new Error(`unexpected @odata.type ${odataType}`);
  const file = m[2] ? `${m[1]}.${m[2]}.json` : `${m[1]}.json`;
  if (!schemaPresent(file)) throw new Error(`no schema file ${file} in fixtures for ${odataType}`);
  const v = ajv.getSchema(`${BASE}${file}#/definitions/${m[3]}`);
  if (!v) throw new Error(`schema ${file} has no definition ${m[3]}`);
  return v;
}

/** "label (type): errors" for every payload that fails the schema its @odata.type names, or has none. */
export function schemaFailures(ajv: Ajv, payloads: ReadonlyMap<string, unknown>): string[] {
  const failures: string[] = [];
  for (const [label, body] of payloads) {
    const type = (body as Record<string, unknown>)["@odata.type"];
    if (typeof type !== "string") {
      failures.push(`${label}: no @odata.type`);
      continue;
    }
    const validate = dmtfValidator(ajv, type);
    if (!validate(body)) failures.push(`${label} (${type}): ${ajv.errorsText(validate.errors, { separator: "; " })}`);
  }
  return failures;
}
