/**
 * Reference docs generated from the provider schema and the error catalogue: docs/index.md (provider block),
 * docs/resources/<name>.md (one page per resource), docs/data-sources/<name>.md, docs/errors.md.
 * A test regenerates them in memory and fails when the committed pages are stale.
 */
import { ERROR_CODES } from "../clients/errors.js";
import type { WireAttribute, WireBlock, WireSchema } from "../framework/wire-schema.js";
import { CONSTRUCT_ERROR_CODES, PROVIDER_ERROR_CODES } from "../provider/error-codes.js";
import type { GetProviderSchemaResponse } from "../server/rpc.js";

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

const IMPORT: Record<string, string> = {
  rackform_acceptance:
    "## Import\n\nBy the machine's id; the state then holds the latest gate result the backend reports (or passed = false when there is none, so the plan runs the gate):\n\n```sh\nterraform import rackform_acceptance.x maas:4y3h7n\n```\n",
  rackform_bmc:
    "## Import\n\nBy the BMC's address (its only system) or by the system's Redfish URL:\n\n```sh\nterraform import rackform_bmc.x https://10.0.0.5\nterraform import rackform_bmc.x https://10.0.0.5/redfish/v1/Systems/1\n```\n",
  rackform_cluster_member:
    "## Import\n\nBy the scheduler and the node's name there:\n\n```sh\nterraform import rackform_cluster_member.x slurm:r01-n01\nterraform import rackform_cluster_member.x kubernetes:r01-n01\n```\n\nAfter a Slurm import `features` holds the node's current features; Kubernetes labels and taints start unmanaged.\n",
  rackform_deployment:
    "## Import\n\nBy the deployed machine's id (as rackform_machine records it):\n\n```sh\nterraform import rackform_deployment.x maas:4y3h7n\nterraform import rackform_deployment.x ironic:1be26c0b-03f2-4d2e-ae87-c02d7f33c123\n```\n\nThe image, user data and other settings are then taken from the configuration without a reimage, unless the backend reports another image (then the plan replaces the deployment).\n",
  rackform_machine:
    "## Import\n\nBy the backend and the machine's id there (MAAS system_id, Ironic node uuid):\n\n```sh\nterraform import rackform_machine.x maas:4y3h7n\nterraform import rackform_machine.x ironic:1be26c0b-03f2-4d2e-ae87-c02d7f33c123\n```\n",
  rackform_pdu_outlet:
    "## Import\n\nBy the outlet's Redfish URL:\n\n```sh\nterraform import rackform_pdu_outlet.x https://10.0.0.9/redfish/v1/PowerEquipment/RackPDUs/1/Outlets/A1\n```\n",
};

/** Every generated page, keyed by its path under docs/. */
export function renderDocs(s: GetProviderSchemaResponse): Map<string, string> {
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
  out.set("index.md", page('Provider "rackform"', s.provider, index));
  for (const r of resources)
    out.set(`resources/${r.replace(/^rackform_/, "")}.md`, page(r, s.resourceSchemas[r], IMPORT[r] ?? ""));
  for (const d of dataSources)
    out.set(`data-sources/${d.replace(/^rackform_/, "")}.md`, page(`${d} (data source)`, s.dataSourceSchemas[d], ""));
  out.set(
    "errors.md",
    [
      "# Error codes",
      "",
      "<!-- Generated from src/clients/errors.ts and src/provider/error-codes.ts by `npm run docs`; do not edit. -->",
      "",
      "Diagnostics end with the code of the failure that caused them, e.g. `(RACKFORM_ERR_HTTP_CONNECT)`.",
      "",
      "| code | meaning |",
      "|---|---|",
      ...Object.entries({ ...ERROR_CODES, ...PROVIDER_ERROR_CODES, ...CONSTRUCT_ERROR_CODES }).map(
        ([c, d]) => `| \`${c}\` | ${cell(d)} |`,
      ),
      "",
    ].join("\n"),
  );
  return out;
}
