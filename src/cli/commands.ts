/** The command lines of the `rackform` subcommands and the overview `rackform --help` prints. */
import { PROFILES } from "../lab/index.js";
import type { CommandSpec } from "./args.js";
import { oneOf, wholeNumber } from "./args.js";
import { ATTEST_VERIFY } from "./attest-command.js";
import { LAB_UP } from "./lab-up.js";
import { PLAN_SUMMARY } from "./plan-summary/command.js";
import { WATCH } from "./watch/command.js";

/** `rackform install`. */
export const INSTALL: CommandSpec = {
  name: "install",
  brief: "install the provider into a filesystem mirror for Terraform and OpenTofu",
  summary:
    "put the provider into a filesystem mirror (under both registry hosts) and write a CLI config for it;\nprints the `export TF_CLI_CONFIG_FILE=...` line to paste",
  options: [{ name: "--dir", value: "DIR", help: "where to install (default $RACKFORM_HOME or ./.rackform)" }],
};

/** `rackform docs`. */
export const DOCS: CommandSpec = {
  name: "docs",
  brief: "write the reference pages generated from the schema",
  summary: "write the reference pages (provider, resources, data sources, error codes) generated from the schema",
  options: [{ name: "--out", value: "DIR", help: "where to write them (default ./docs)" }],
};

/** `rackform schema`. */
export const SCHEMA: CommandSpec = {
  name: "schema",
  brief: "print the provider schema as JSON",
  summary: "print the provider schema as `terraform providers schema -json` does (with provider_versions)",
  options: [],
};

/** `rackform demo`. */
export const DEMO: CommandSpec = {
  name: "demo",
  brief: "start the lab and deploy an example rack through a real engine",
  summary:
    "start the lab, print the plan summary and `cdktf deploy` an example from outlet-off to joined in Slurm\nthrough a real engine; exits 0 when every node joined and `cdktf diff` then shows no changes",
  options: [
    {
      name: "--nodes",
      value: "N",
      help: "lab nodes, in racks of 8 (default 8); above 8 the demo deploys every rack (fleet-rollout)",
      parse: wholeNumber(1, 1024),
    },
    {
      name: "--engine",
      value: "E",
      help: "terraform or tofu (default: terraform if on PATH, else the OpenTofu build)",
      parse: oneOf(["terraform", "tofu"]),
    },
    {
      name: "--example",
      value: "NAME",
      help: "the app under examples/ to deploy (default gpu-rack; fleet-rollout above 8 nodes, with a local PostgreSQL)",
    },
    {
      name: "--profile",
      value: "P",
      help: `the lab's time profile: ${Object.keys(PROFILES).join(", ")} (default demo)`,
      parse: oneOf(Object.keys(PROFILES)),
    },
    { name: "--dir", value: "DIR", help: "the demo's working directory, emptied first (default ./.rackform/demo)" },
    { name: "--keep", help: "keep the lab running after the deploy, until Ctrl-C" },
  ],
};

/** Every subcommand, in the order `rackform --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  INSTALL,
  DOCS,
  SCHEMA,
  LAB_UP,
  DEMO,
  PLAN_SUMMARY,
  WATCH,
  ATTEST_VERIFY,
];

/** `rackform --help`: one entry per subcommand with its first summary line. */
export function usage(): string {
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(14)}${c.brief}`);
  return [
    "usage: rackform <command> [options]",
    "",
    ...rows,
    "",
    "`rackform <command> --help` lists a command's options. Exit codes: 0 done, 1 failed, 2 usage (bad option or value).",
    "",
  ].join("\n");
}
