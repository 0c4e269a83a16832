/**
 * `rackform lab up`: runs the simulated datacenter in the foreground until SIGINT/SIGTERM. Prints the endpoints (never a
 * password, key or token) and writes the lab file (0600) the examples and the provider configuration read.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type JoinMode, PROFILES, startLab } from "../lab/index.js";
import { type CommandSpec, helpText, oneOf, parseCommand, positiveNumber, UsageError, wholeNumber } from "./args.js";

const JOIN_MODES: readonly JoinMode[] = ["marker", "always", "never"];

/** The options of `rackform lab up`. */
export const LAB_UP: CommandSpec = {
  name: "lab up",
  brief: "run the simulated datacenter on loopback until Ctrl-C",
  summary:
    "run the simulated datacenter (Redfish BMCs and PDUs, MAAS, Ironic, Warewulf, Slurm, Kubernetes) on loopback in the\nforeground until Ctrl-C; prints the endpoints and writes them with their credentials to the lab file",
  options: [
    { name: "--out", value: "FILE", help: "where to write the lab file (required)" },
    {
      name: "--nodes",
      value: "N",
      help: "nodes in all (default 8, or racks × nodes per rack), filling racks of --nodes-per-rack",
      parse: wholeNumber(1, 1024),
    },
    { name: "--racks", value: "N", help: "racks (default: as many as the nodes fill)", parse: wholeNumber(1, 255) },
    {
      name: "--nodes-per-rack",
      value: "N",
      help: "nodes per rack, e.g. --racks 3 --nodes-per-rack 4 (default 8)",
      parse: wholeNumber(1, 64),
    },
    {
      name: "--dpus",
      value: "N",
      help: "BlueField-3 DPUs per node of the default rack, each with its own BMC, in NicMode (default 0)",
      parse: wholeNumber(0, 4),
    },
    {
      name: "--profile",
      value: "P",
      help: `time profile: ${Object.keys(PROFILES).join(", ")} (default demo)`,
      parse: oneOf(Object.keys(PROFILES)),
    },
    { name: "--spec", value: "FILE", help: "a lab spec (JSON) instead of the default rack" },
    { name: "--speed", value: "X", help: "speed factor applied to the profile (default 1)", parse: positiveNumber },
    {
      name: "--port",
      value: "N",
      help: "the control API's port (default: any free port)",
      parse: wholeNumber(0, 65535),
    },
    { name: "--state-dir", value: "DIR", help: "where the lab keeps its state (default .rackform-lab)" },
    {
      name: "--join",
      value: "MODE",
      help: "when deployed nodes join Slurm/Kubernetes: marker (per user-data), always or never (default marker)",
      parse: oneOf(JOIN_MODES),
    },
    { name: "--no-backends", help: "serve BMCs and PDUs only: no MAAS, Ironic, Warewulf, Slurm or Kubernetes" },
    { name: "--ui", help: "serve the lab's page (PDUs, outlets, BMCs, host power, boot, faults) at <control>/ui" },
  ],
};

function readSpec(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(
      `--spec: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? "error"}); give a readable JSON file`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--spec: ${path} is not JSON (${(e as Error).message}); fix the file`);
  }
}

/** How many racks the nodes are in (a node is named <rack>-n<k>). */
function rackCount(nodes: readonly { readonly name: string }[]): number {
  return new Set(nodes.map((n) => n.name.replace(/-n\d+$/, ""))).size;
}

/** Parses `argv` (after `lab up`) and runs the lab until a signal; resolves with the exit code. */
export async function labUp(argv: readonly string[], stdout: (s: string) => void): Promise<number> {
  const { help, values } = parseCommand(LAB_UP, argv);
  if (help) {
    stdout(helpText(LAB_UP));
    return 0;
  }
  const v = values as {
    out?: string;
    nodes?: number;
    racks?: number;
    "nodes-per-rack"?: number;
    dpus?: number;
    profile?: string;
    spec?: string;
    speed?: number;
    port?: number;
    "state-dir"?: string;
    join?: JoinMode;
    "no-backends"?: boolean;
    ui?: boolean;
  };
  if (!v.out) throw new UsageError("--out is required: rackform lab up --out lab.json");
  const out = resolve(v.out);
  const perRack = v["nodes-per-rack"];
  if (v.spec && (v.nodes !== undefined || v.racks !== undefined || perRack !== undefined))
    throw new UsageError("--spec describes the racks itself; give it without --nodes, --racks or --nodes-per-rack");
  if (v.racks !== undefined && v.nodes !== undefined && v.nodes > v.racks * (perRack ?? 8))
    throw new UsageError(`--nodes ${v.nodes} do not fit --racks ${v.racks} of ${perRack ?? 8}; raise --nodes-per-rack`);
  const lab = await startLab({
    spec: v.spec ? readSpec(v.spec) : undefined,
    nodes: v.nodes,
    ...(v.racks !== undefined ? { racks: v.racks } : {}),
    ...(perRack !== undefined ? { nodesPerRack: perRack } : {}),
    dpus: v.dpus,
    profile: v.profile,
    speed: v.speed,
    port: v.port,
    stateDir: resolve(v["state-dir"] ?? ".rackform-lab"),
    backends: !v["no-backends"],
    join: v.join,
    ui: v.ui === true,
  });
  lab.writeInfo(out);
  const first = lab.info.nodes[0];
  stdout(
    [
      `lab up: ${lab.info.nodes.length} nodes in ${rackCount(lab.info.nodes)} racks, ${lab.info.pdus.length} PDUs (profile ${lab.world.time.profile.name})`,
      `  control  ${lab.info.control.url}`,
      ...(v.ui ? [`  ui       ${lab.info.control.url}/ui (outlets, BMCs, faults; flip and inject from the page)`] : []),
      `  CA       ${lab.info.ca}`,
      `  images   ${lab.images.url} (golden images <name>-<version>.qcow2, ipa.kernel, ipa.initramfs)`,
      first ? `  BMC      ${first.name} ${first.bmc.url} (user ${first.bmc.username}; password in the lab file)` : "",
      ...(first?.dpus?.[0]
        ? [`  DPU BMC  ${first.dpus[0].id} ${first.dpus[0].url} (same account; every node's in the lab file)`]
        : []),
      ...(lab.info.maas ? [`  MAAS     ${lab.info.maas.url} (API key in the lab file)`] : []),
      ...(lab.info.ironic ? [`  Ironic   ${lab.info.ironic.url} (noauth, API 1.87)`] : []),
      ...(lab.info.warewulf
        ? [`  Warewulf ${lab.info.warewulf.url} (user ${lab.info.warewulf.username}; password in the lab file)`]
        : []),
      ...(lab.info.bcm
        ? [
            `  BCM      ${lab.info.bcm.url}/json (cmdaemon JSON-RPC; user ${lab.info.bcm.username}, password in the lab file)`,
          ]
        : []),
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
