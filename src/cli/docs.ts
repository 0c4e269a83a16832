/**
 * Reference docs generated from the provider schema, each page's example and import ids (src/provider/docs) and the
 * error catalogue: docs/index.md (provider block), docs/resources/<name>.md (one page per resource),
 * docs/data-sources/<name>.md, docs/errors.md.
 * A test regenerates them in memory and fails when the committed pages are stale.
 */
import { ERROR_CODES } from "../clients/errors.js";
import type { WireAttribute, WireBlock, WireSchema } from "../framework/wire-schema.js";
import { PAGE_DOCS, type PageDocs } from "../provider/docs/pages.js";
import { CONSTRUCT_ERROR_CODES, PROVIDER_ERROR_CODES } from "../provider/errors/error-codes.js";
import type { GetProviderSchemaResponse } from "../server/rpc.js";
import { CLI_ERROR_CODES } from "./args.js";

function typeText(a: WireAttribute): string {
  if (a.nestedType) return `${a.nestedType.nesting === "single" ? "object" : `${a.nestedType.nesting} of object`}`;
  const t = a.type!;
  return typeof t === "string" ? t : JSON.stringify(t);
}

function flags(a: WireAttribute): string {
  const f = [
    a.required ? "required" : a.optional && a.computed ? "optional, computed" : a.optional ? "optional" : "computed",
  ];
  if (a.sensitive) f.push("sensitive");
  if (a.writeOnly) f.push("write-only");
  if (a.deprecated) f.push("deprecated");
  return f.join(", ");
}

function cell(s: string): string {
  return s.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function attributes(block: WireBlock, prefix: string): string[] {
  const rows: string[] = [];
  for (const a of block.attributes) {
    rows.push(`| \`${prefix}${a.name}\` | ${typeText(a)} | ${flags(a)} | ${cell(a.description)} |`);
    if (a.nestedType)
      rows.push(
        ...attributes({ ...block, attributes: a.nestedType.attributes, blockTypes: [] }, `${prefix}${a.name}.`),
      );
  }
  for (const b of block.blockTypes) {
    const n = b.nesting === "single" || b.nesting === "group" ? "block" : `${b.nesting} of blocks`;
    const limits = b.maxItems ? ` (${b.minItems}–${b.maxItems})` : b.minItems ? ` (at least ${b.minItems})` : "";
    rows.push(`| \`${prefix}${b.typeName}\` | ${n}${limits} | optional | ${cell(b.block.description)} |`);
    rows.push(...attributes(b.block, `${prefix}${b.typeName}.`));
  }
  return rows;
}

function page(title: string, s: WireSchema, extra: string): string {
  return [
    `# ${title}`,
    "",
    "<!-- Generated from the provider schema by `npm run docs`; do not edit. -->",
    "",
    s.block.description,
    "",
    extra,
    "## Attributes",
    "",
    "| name | type | flags | description |",
    "|---|---|---|---|",
    ...attributes(s.block, ""),
    "",
  ].join("\n");
}

/** The Example usage and Import sections of a page. */
function sections(d: PageDocs | undefined): string {
  if (!d) return "";
  const example = `## Example usage\n\n\`\`\`hcl\n${d.example.trimEnd()}\n\`\`\`\n`;
  return d.import ? `${example}\n## Import\n\n${d.import}` : example;
}

/** Every generated page, keyed by its path under docs/. */
export function renderDocs(
  s: GetProviderSchemaResponse,
  docs: Readonly<Record<string, PageDocs>> = PAGE_DOCS,
): Map<string, string> {
  const out = new Map<string, string>();
  const resources = Object.keys(s.resourceSchemas).sort();
  const dataSources = Object.keys(s.dataSourceSchemas).sort();
  const index = [
    "Resources:",
    "",
    ...resources.map((r) => `- [${r}](resources/${r.replace(/^rackform_/, "")}.md)`),
    ...(dataSources.length
      ? ["", "Data sources:", "", ...dataSources.map((d) => `- [${d}](data-sources/${d.replace(/^rackform_/, "")}.md)`)]
      : []),
    "",
    "Errors: [every RACKFORM_ERR_* code](errors.md).",
    "",
  ].join("\n");
  out.set("index.md", page('Provider "rackform"', s.provider, `${index}\n${sections(docs.provider)}`));
  for (const r of resources)
    out.set(`resources/${r.replace(/^rackform_/, "")}.md`, page(r, s.resourceSchemas[r], sections(docs[r])));
  for (const d of dataSources)
    out.set(
      `data-sources/${d.replace(/^rackform_/, "")}.md`,
      page(`${d} (data source)`, s.dataSourceSchemas[d], sections(docs[d])),
    );
  out.set(
    "errors.md",
    [
      "# Error codes",
      "",
      "<!-- Generated from src/clients/errors.ts, src/provider/errors/error-codes.ts and src/cli/args.ts by `npm run docs`; do not edit. -->",
      "",
      "Diagnostics end with the code of the failure that caused them, e.g. `(RACKFORM_ERR_HTTP_CONNECT)`.",
      "",
      "| code | meaning |",
      "|---|---|",
      ...Object.entries({ ...ERROR_CODES, ...PROVIDER_ERROR_CODES, ...CONSTRUCT_ERROR_CODES, ...CLI_ERROR_CODES }).map(
        ([c, d]) => `| \`${c}\` | ${cell(d)} |`,
      ),
      "",
    ].join("\n"),
  );
  return out;
}
