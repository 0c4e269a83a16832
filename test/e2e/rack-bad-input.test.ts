/**
 * Bad input at rack level, under the real engines: the demo's valid two-node rack with one mistake at a time — in the
 * provider block, a BMC, a machine, a deployment, an acceptance gate, a cluster member, an inventory, or across
 * resources (duplicates). Each fails `plan` and `apply` with a diagnostic that names the attribute (the engine echoes
 * its source line) and the fix, prints no secret, and sends nothing to any BMC, PDU, MAAS, Ironic, Slurm or
 * Kubernetes endpoint (proved from the lab's request logs). The unmodified rack plans cleanly, so each failure is the
 * mutation's.
 *
 * Each case runs `plan` and `apply` under one engine, the engines taking the cases in turn (both engines for every
 * case took four minutes on the shared CI machine); the control runs under both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoConfig } from "../../src/cli/demo-config.js";
import type { Lab } from "../../src/lab/index.js";
import { ALL_ENGINES, ENGINES, engine, type RunResult, Workdir } from "../support/engines.js";
import { GOLDEN_IMAGE } from "../support/rack.js";
import { builtProvider, freshInstall, testLab } from "../support/rackform-e2e.js";

const SECRETS = {
  TF_VAR_redfish_password: "rf-pw-Zq81-do-not-print",
  TF_VAR_maas_api_key: "rfConsumerKq7:rfTokenKx2:rfSecretSECRETx9w",
  TF_VAR_slurm_token: "rf-slurm-jwt-Wd3-do-not-print",
};

let lab: Lab;
let cliConfig: string;
let maasRack: string;
let ironicRack: string;
// The lab names its nodes r<rack>-n<index>; the cases name them literally (checked in beforeAll).
const n1 = "r01-n01";
const n2 = "r01-n02";

beforeAll(async () => {
  lab = await testLab(2);
  cliConfig = await freshInstall([builtProvider()]);
  expect(lab.info.nodes.map((n) => n.name)).toEqual([n1, n2]);
  maasRack = demoConfig(lab.info, GOLDEN_IMAGE, { backend: "maas" });
  ironicRack = demoConfig(lab.info, GOLDEN_IMAGE, { backend: "ironic" });
});
afterAll(async () => {
  await lab?.close();
});

/** Replaces the one occurrence of `from` (the case fails loudly if the demo configuration no longer has it). */
function swap(hcl: string, from: string | RegExp, to: string, times = 1): string {
  const re = typeof from === "string" ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : from;
  const found = hcl.match(new RegExp(re.source, "g"))?.length ?? 0;
  if (found < times) throw new Error(`the base configuration has ${found} of ${String(from)}, expected ${times}`);
  let left = times;
  return hcl.replace(new RegExp(re.source, "g"), (m) => (left-- > 0 ? to : m));
}

/** The text of resource block `type.name` in `hcl`, and a function that writes it back changed. */
function inBlock(hcl: string, type: string, name: string, edit: (block: string) => string): string {
  const start = hcl.indexOf(`resource "${type}" "${name}" {`);
  if (start < 0) throw new Error(`no ${type}.${name} in the base configuration`);
  const end = hcl.indexOf("\n}\n", start) + 3;
  return hcl.slice(0, start) + edit(hcl.slice(start, end)) + hcl.slice(end);
}

const id = (node: string) => node.replaceAll("-", "_");

interface Case {
  readonly name: string;
  readonly rack?: "maas" | "ironic";
  readonly env?: Record<string, string>;
  readonly mutate: (hcl: string) => string;
  /** Matched against stderr with whitespace folded (the engines wrap at ~78 columns). */
  readonly expect: readonly RegExp[];
}

const CASES: readonly Case[] = [
  // ---- provider block
  {
    name: "a MAAS API key not of the form consumer:token:secret",
    env: { TF_VAR_maas_api_key: "rfMalformedSECRETkey9" },
    mutate: (h) => h,
    expect: [/Invalid MAAS API key/, /consumer_key:token_key:token_secret/, /api_key = var\.maas_api_key/],
  },
  {
    name: "a MAAS URL that is not a URL",
    mutate: (h) => swap(h, /url {5}= "http:\/\/127\.0\.0\.1:\d+\/MAAS\/"/, 'url     = "maas-region:5240"'),
    expect: [
      /Invalid service URL/,
      /has the scheme maas-region, not http or https/,
      /http:\/\/maas:5240\/MAAS\//,
      /url\s+= "maas-region:5240"/,
    ],
  },
  {
    name: "a Slurm URL with an unsupported scheme",
    mutate: (h) => swap(h, /url {3}= "http:\/\/127\.0\.0\.1:(\d+)"/, 'url   = "ftp://127.0.0.1:6820"'),
    expect: [/Invalid service URL/, /scheme ftp, not http or https/, /url\s+= "ftp:\/\/127\.0\.0\.1:6820"/],
  },
  {
    name: "an Ironic token together with a basic-auth user name (Ironic rack)",
    rack: "ironic",
    mutate: (h) => swap(h, "  ironic {\n", '  ironic {\n    username = "ironic"\n    token    = var.slurm_token\n'),
    expect: [
      /Conflicting configuration arguments/,
      /token cannot be set together with "username"/,
      /token\s+= var\.slurm_token/,
    ],
  },
  {
    name: "insecure = true together with ca_file",
    mutate: (h) => swap(h, "    power_on_interval", "    insecure          = true\n    power_on_interval"),
    expect: [/insecure conflicts with ca_file/, /Remove insecure/, /insecure\s+= true/],
  },
  {
    name: "a power-on interval that is not a duration",
    mutate: (h) => swap(h, 'power_on_interval = "250ms"', 'power_on_interval = "a while"'),
    expect: [/Invalid duration/, /power_on_interval\s+= "a while"/],
  },
  {
    name: "a Redfish concurrency out of range",
    mutate: (h) => swap(h, "    power_on_interval", "    max_concurrent_per_bmc = 0\n    power_on_interval"),
    expect: [/max_concurrent_per_bmc must be between 1 and 64, got 0/, /max_concurrent_per_bmc = 0/],
  },
  // ---- bmc
  {
    name: "a BMC endpoint with an unsupported scheme",
    mutate: (h) => inBlock(h, "rackform_bmc", id(n1), (b) => swap(b, /endpoint = "https:/, 'endpoint = "ftp:')),
    expect: [/Invalid Redfish endpoint/, /the scheme ftp: is not https/, /endpoint = "ftp:/],
  },
  {
    name: "a BMC endpoint over plain http (no allow_http)",
    mutate: (h) => inBlock(h, "rackform_bmc", id(n1), (b) => swap(b, /endpoint = "https:/, 'endpoint = "http:')),
    expect: [/Plain HTTP Redfish endpoint refused/, /would send the Redfish password in clear/, /allow_http = true/],
  },
  {
    name: "a PDU endpoint over plain http (no allow_http)",
    mutate: (h) =>
      inBlock(h, "rackform_pdu_outlet", id(n1), (b) => swap(b, /endpoint\s*= "https:/, 'endpoint = "http:')),
    expect: [/Plain HTTP Redfish endpoint refused/, /rackform_pdu_outlet/],
  },
  {
    name: "an expected GPU count below zero",
    mutate: (h) => swap(h, "gpu_count = 8, min_memory_gib", "gpu_count = -8, min_memory_gib"),
    expect: [/expected\.gpu_count must be between 0 and 1024, got -8/],
  },
  {
    name: "a boot override target Redfish does not have",
    mutate: (h) =>
      inBlock(h, "rackform_bmc", id(n2), (b) =>
        swap(b, "  expected =", '  boot_source_override_target = "Floppy"\n  expected ='),
      ),
    expect: [/boot_source_override_target must be one of "None", "Pxe"/, /boot_source_override_target = "Floppy"/],
  },
  // ---- machine
  {
    name: "an unknown backend",
    mutate: (h) =>
      inBlock(h, "rackform_machine", id(n1), (b) => swap(b, 'backend      = "maas"', 'backend      = "xcat"')),
    expect: [/backend must be one of "maas", "ironic"(, "[a-z]+")*, got "xcat"/, /backend\s+= "xcat"/],
  },
  {
    name: "a malformed MAC",
    mutate: (h) =>
      inBlock(h, "rackform_machine", id(n2), (b) => swap(b, /macs {9}= \[.*\]/, 'macs         = ["3c:ec:ef:00:00"]')),
    expect: [/Invalid MAC address/, /"3c:ec:ef:00:00" is not a MAC address/, /six pairs of hex digits/],
  },
  {
    name: "a machine name that is not a DNS label",
    mutate: (h) => swap(h, `name         = "${n1}"`, 'name         = "R01_N01"'),
    expect: [/name must be a lower-case DNS label/, /got "R01_N01"/, /name\s+= "R01_N01"/],
  },
  {
    name: "a MAAS machine without any MAC",
    mutate: (h) => inBlock(h, "rackform_machine", id(n1), (b) => swap(b, /\n {2}macs {9}= \[.*\]/, "")),
    expect: [/MAAS needs a MAC address/, /list at least one MAC in macs/],
  },
  // ---- deployment
  {
    name: "a sha256 that is not 64 hex digits",
    mutate: (h) =>
      swap(h, `sha256  = "${GOLDEN_IMAGE.sha256}"`, `sha256  = "sha256:${GOLDEN_IMAGE.sha256.slice(0, 56)}"`),
    // The value comes through local.image, so the engine highlights the resource and the detail names the path.
    expect: [/image\.sha256 must be a sha256 digest of 64 hex digits/, /got "sha256:/],
  },
  {
    name: "an image URL with an unsupported scheme",
    mutate: (h) => swap(h, /url {5}= "http:\/\/127\.0\.0\.1:\d+\/images\//, 'url     = "ftp://images.example/'),
    expect: [/Invalid image URL/, /"ftp:\/\/images\.example\/ubuntu-gpu-[^"]+" has the scheme ftp, not http or https/],
  },
  {
    name: "an image version with a space",
    mutate: (h) => swap(h, `version = "${GOLDEN_IMAGE.version}"`, 'version = "2026 06"'),
    expect: [/image\.version must be a version such as 2026\.06\.2/, /got "2026 06"/],
  },
  {
    name: "an IPA kernel that is not a URL (Ironic rack)",
    rack: "ironic",
    mutate: (h) => swap(h, /deploy_kernel {2}= "[^"]+"/, 'deploy_kernel  = "ipa.kernel"'),
    expect: [/deploy_kernel must be an http\(s\):\/\/ or file:\/\/ URL/, /deploy_kernel\s+= "ipa\.kernel"/],
  },
  {
    name: "a create timeout that is not a duration",
    mutate: (h) =>
      inBlock(h, "rackform_deployment", id(n1), (b) =>
        swap(b, "  user_data  =", '  timeouts {\n    create = "3 days"\n  }\n  user_data  ='),
      ),
    expect: [/Invalid duration/, /create = "3 days"/],
  },
  // ---- acceptance
  {
    name: "a DCGM level out of range",
    mutate: (h) => swap(h, "dcgm_level          = 3", "dcgm_level          = 5"),
    expect: [/dcgm_level must be between 1 and 4, got 5/, /dcgm_level\s+= 5/],
  },
  {
    name: "a fractional DCGM level",
    mutate: (h) => swap(h, "dcgm_level          = 3", "dcgm_level          = 2.5"),
    expect: [/Expected a whole number, got 2\.5/, /dcgm_level\s+= 2\.5/],
  },
  {
    name: "a negative NCCL threshold",
    mutate: (h) => swap(h, "nccl_min_busbw_gbps = 370", "nccl_min_busbw_gbps = -370"),
    expect: [/nccl_min_busbw_gbps must be between 1 and 10000, got -370/, /nccl_min_busbw_gbps = -370/],
  },
  {
    name: 'a burn-in of "3 days"',
    mutate: (h) => swap(h, 'burn_in             = "72h"', 'burn_in             = "3 days"'),
    expect: [/Invalid burn-in duration/, /burn_in\s+= "3 days"/],
  },
  {
    name: "an expected GPU count of zero",
    mutate: (h) => swap(h, "expected_gpu_count  = 8", "expected_gpu_count  = 0"),
    expect: [/expected_gpu_count must be between 1 and 64, got 0/, /expected_gpu_count\s+= 0/],
  },
  // ---- cluster member
  {
    name: "an unknown scheduler",
    mutate: (h) => swap(h, 'scheduler  = "slurm"', 'scheduler  = "pbs"'),
    expect: [/scheduler must be one of "slurm", "kubernetes", got "pbs"/, /scheduler\s+= "pbs"/],
  },
  {
    name: "a Slurm node name that is a host list",
    mutate: (h) => swap(h, `node       = "${n1}"`, 'node       = "r01-n[01-02]"'),
    expect: [/Invalid Slurm node name/, /one rackform_cluster_member per node/, /node\s+= "r01-n\[01-02\]"/],
  },
  {
    name: "Kubernetes labels on a Slurm member",
    mutate: (h) => swap(h, '  features   = ["h100"]', '  features   = ["h100"]\n  labels     = { gpu = "h100" }'),
    expect: [/labels is Kubernetes-only/, /use features for Slurm/, /labels\s+= \{ gpu = "h100" \}/],
  },
  // ---- inventory
  {
    name: "an inventory listing one name twice",
    mutate: (h) =>
      `${h}
data "rackform_inventory" "rack" {
  bmcs = [
    { name = "a", endpoint = "https://127.10.1.1" },
    { name = "a", endpoint = "https://127.10.1.2" },
  ]
}
`,
    expect: [/Duplicate BMC name/, /bmcs\[1\]\.name "a" is already used by bmcs\[0\]/],
  },
  {
    name: "an inventory CSV without an endpoint column",
    mutate: (h) =>
      `${h}
data "rackform_inventory" "sheet" {
  csv = "name,address\\nr01-n01,https://127.10.1.1\\n"
}
`,
    expect: [/Invalid inventory CSV/, /endpoint/],
  },
  // ---- across resources
  {
    name: "two machines with the same name",
    mutate: (h) => swap(h, `name         = "${n2}"`, `name         = "${n1}"`),
    expect: [
      /Duplicate maas machine name/,
      new RegExp(`name = "${n1}" is already claimed by another rackform_machine`),
    ],
  },
  {
    name: "two machines with the same MAC",
    mutate: (h) => swap(h, /macs {9}= \[.*\]/, 'macs         = ["3c:ec:ef:00:00:01"]', 2),
    expect: [/Duplicate machine MAC address/, /macs\[0\] = "3c:ec:ef:00:00:01" is already claimed/],
  },
  {
    name: "two cluster members for the same node",
    mutate: (h) =>
      inBlock(h, "rackform_cluster_member", id(n2), (b) =>
        swap(swap(b, `node       = "${n2}"`, `node       = "${n1}"`), '["h100"]', '["h100", "nvlink"]'),
      ),
    expect: [
      /Duplicate slurm node/,
      new RegExp(`node = "${n1}" is already claimed by another rackform_cluster_member`),
    ],
  },
];

/** Requests every lab endpoint has received so far: BMCs and PDUs, MAAS, Ironic, slurmrestd, Kubernetes. */
function requestsSoFar(): Record<string, number> {
  const b = lab.backends!;
  return {
    redfish: lab.requests.last(),
    maas: b.maas.requests.length,
    ironic: b.ironic.requests.length,
    slurm: b.slurm.requests.length,
    kubernetes: b.kubernetes.requests.length,
  };
}

const folded = (text: string) => text.replace(/\s+/g, " ");
const all = (r: RunResult) => r.stdout + r.stderr;

describe.each(ENGINES.map((n) => [n, ALL_ENGINES.indexOf(n)] as const))(
  "bad input at rack level under %s",
  (name, engineIndex) => {
    const dirs: Partial<Record<"maas" | "ironic", Workdir>> = {};
    async function workdir(rack: "maas" | "ironic"): Promise<Workdir> {
      let w = dirs[rack];
      if (!w) {
        w = await Workdir.create(
          engine(name),
          cliConfig,
          { "main.tf": rack === "maas" ? maasRack : ironicRack },
          SECRETS,
        );
        await w.ok(["init", "-no-color"]);
        dirs[rack] = w;
      }
      return w;
    }

    it.each(["maas", "ironic"] as const)("plans the unmodified %s rack cleanly (the control)", async (rack) => {
      const w = await workdir(rack);
      await w.write({ "main.tf": rack === "maas" ? maasRack : ironicRack });
      const r = await w.run(["plan", "-no-color"]);
      expect(r.code, all(r)).toBe(0);
      expect(r.stdout).toContain("Plan: 12 to add, 0 to change, 0 to destroy.");
    });

    const mine = CASES.filter((_, i) => i % ALL_ENGINES.length === engineIndex);
    it.each(mine.map((c) => [c.name, c] as const))(
      "fails plan and apply on %s, naming the attribute and the fix, before any request, printing no secret",
      async (_name, c) => {
        const rack = c.rack ?? "maas";
        const w = await workdir(rack);
        await w.write({ "main.tf": c.mutate(rack === "maas" ? maasRack : ironicRack) });
        const before = requestsSoFar();
        const runs = [
          await w.run(["plan", "-no-color"], { env: c.env }),
          await w.run(["apply", "-auto-approve", "-no-color"], { env: c.env }),
        ];
        for (const r of runs) {
          expect(r.code, all(r)).toBe(1);
          for (const re of c.expect) expect(folded(r.stderr)).toMatch(re);
          for (const secret of [...Object.values(SECRETS), ...Object.values(c.env ?? {})]) {
            expect(all(r)).not.toContain(secret);
          }
        }
        expect(requestsSoFar(), "requests reached the lab").toEqual(before);
      },
    );
  },
);

it(`has at least 20 distinct cases, each engine taking its share`, () => {
  expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  expect(CASES.length).toBeGreaterThanOrEqual(20);
});
