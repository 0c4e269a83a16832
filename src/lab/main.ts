/**
 * `node dist/lab/main.js up [--spec FILE] [--nodes N] [--profile P] [--speed X] [--port N] [--state-dir DIR]
 *   [--join marker|always|never] [--no-backends] --out lab.json`
 * Runs the lab in the foreground until SIGINT/SIGTERM. Prints endpoints (never passwords) and writes the lab file.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { JoinMode } from "./glue/joins.js";
import { startLab } from "./lab.js";

const USAGE =
  "usage: lab up [--spec FILE] [--nodes N] [--profile instant|demo|realistic] [--speed X] [--port N] [--state-dir DIR] [--join marker|always|never] [--no-backends] --out lab.json";

function joinMode(v: string | undefined): JoinMode | undefined {
  if (v === undefined || v === "marker" || v === "always" || v === "never") return v;
  throw new Error(`--join: must be marker, always or never, got ${v}`);
}

/** Parses the command line and runs the lab; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      spec: { type: "string" },
      nodes: { type: "string" },
      profile: { type: "string" },
      speed: { type: "string" },
      port: { type: "string" },
      "state-dir": { type: "string" },
      join: { type: "string" },
      "no-backends": { type: "boolean" },
      out: { type: "string" },
    },
  });
  if (positionals[0] !== "up" || !values.out) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const num = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`--${name}: not a number: ${v}`);
    return n;
  };
  const out = resolve(values.out);
  const lab = await startLab({
    spec: values.spec ? JSON.parse(readFileSync(values.spec, "utf8")) : undefined,
    nodes: num("nodes", values.nodes),
    profile: values.profile,
    speed: num("speed", values.speed),
    port: num("port", values.port),
    stateDir: resolve(values["state-dir"] ?? ".rackform-lab"),
    backends: !values["no-backends"],
    join: joinMode(values.join),
  });
  lab.writeInfo(out);
  const first = lab.info.nodes[0];
  process.stdout.write(
    [
      `lab up: ${lab.info.nodes.length} nodes, ${lab.info.pdus.length} PDUs (profile ${lab.world.time.profile.name})`,
      `  control  ${lab.info.control.url}`,
      `  CA       ${lab.info.ca}`,
      `  images   ${lab.images.url} (golden images <name>-<version>.qcow2, ipa.kernel, ipa.initramfs)`,
      first ? `  BMC      ${first.name} ${first.bmc.url} (user ${first.bmc.username}; password in the lab file)` : "",
      ...(lab.info.maas ? [`  MAAS     ${lab.info.maas.url} (API key in the lab file)`] : []),
      ...(lab.info.ironic ? [`  Ironic   ${lab.info.ironic.url} (noauth, API 1.87)`] : []),
      ...(lab.info.slurm
        ? [`  Slurm    ${lab.info.slurm.url} (user ${lab.info.slurm.user}; token in the lab file)`]
        : []),
      ...(lab.info.kubernetes ? [`  k8s API  ${lab.info.kubernetes.url} (bearer token in the lab file)`] : []),
      `  lab file ${out}`,
      "",
    ].join("\n"),
  );
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await lab.close();
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`lab: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
