/**
 * The reference pages' examples as a user runs them: for every page under docs/ with an "Example usage" section, the
 * HCL block is taken from the committed page (kept fresh by test/unit/cli/docs.test.ts), its variables are filled with
 * the values of a fresh lab, and one engine runs init, plan, apply and a plan that must be empty. Then the page's own
 * resource is imported again by its id, which must have one of the forms the page's Import section shows, and the
 * plan neither creates nor destroys anything. Pages are split between the engines (each e2e project runs this file
 * under one engine), so each page runs once per `npm test`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec, type Lab, labFirmwareFile, startLab } from "../../src/lab/index.js";
import {
  BFB,
  BIOS_IMAGE,
  EXAMPLE_VARIABLES,
  type ExampleVariableName,
  IMAGE,
  IMAGE_ID,
  NODE,
} from "../../src/provider/docs/hcl-parts.js";
import { ENGINES, type Engine, engine, Workdir } from "../support/engines.js";
import { GOLDEN_IMAGE, shownState } from "../support/rack.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";

/** A whole chain on a loaded 2-core machine takes a while; this only stops a hung test. */
const PAGE_TIMEOUT_MS = 300_000;

/** What a page's lab needs beyond one Dell node r01-n07 on outlet 7 of r01-pdu-a. */
interface PageLab {
  /** Outlet on at start (the inventory reads BMCs of a powered rack). */
  readonly powered?: boolean;
  /** ironic.conf [conductor]deploy_kernel/deploy_ramdisk set (the example leaves them out). */
  readonly conductorDefaults?: boolean;
  /** The node carries one BlueField-3 DPU (its BMC at var.dpu_endpoint). */
  readonly dpu?: boolean;
}

interface Page {
  readonly file: string;
  /** The page's own resource type (imported again by its id); absent for the provider and data source pages. */
  readonly type?: string;
  /** The resource's name in the example. @default NODE.id */
  readonly name?: string;
  readonly lab?: PageLab;
  /** An output of the example and what each of its values must match (the data source really read the node). */
  readonly output?: { readonly name: string; readonly each: RegExp };
}

/** Pages by the engine that runs them: about the same work on each side. */
const PAGES: Record<Engine["name"], readonly Page[]> = {
  terraform: [
    { file: "index.md" },
    { file: "resources/pdu_outlet.md", type: "rackform_pdu_outlet" },
    { file: "resources/deployment.md", type: "rackform_deployment" },
    { file: "resources/cluster_member.md", type: "rackform_cluster_member", lab: { conductorDefaults: true } },
    { file: "resources/dpu.md", type: "rackform_dpu", lab: { dpu: true } },
    { file: "resources/image.md", type: "rackform_image", name: IMAGE_ID },
  ],
  tofu: [
    { file: "data-sources/inventory.md", lab: { powered: true }, output: { name: "gpus", each: /^8 x .*H100/ } },
    { file: "resources/bmc.md", type: "rackform_bmc" },
    { file: "resources/machine.md", type: "rackform_machine" },
    // No hand upload: the example's rackform_image puts the image in MAAS before the deployment.
    { file: "resources/acceptance.md", type: "rackform_acceptance" },
    { file: "resources/firmware.md", type: "rackform_firmware" },
  ],
};

/** The fenced block of `lang` under the page's `## <heading>`. */
function section(page: string, heading: string, lang: string): string | undefined {
  const at = page.indexOf(`\n## ${heading}\n`);
  if (at < 0) return undefined;
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(page.slice(at));
  return m?.[1];
}

/** An import id with its site-specific parts (the service address, a backend's own id) replaced by placeholders. */
const idForm = (id: string) => id.replace(/^https?:\/\/[^/]+/, "<address>").replace(/^(maas|ironic):.+$/, "$1:<id>");

let cliConfig: string;
let imageServer: Server;
let imageUrl: string;

beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  // The golden image's bytes, served as an image server would (sha256 as the examples say).
  const bytes = Buffer.from(`${IMAGE.name}-${IMAGE.version}`);
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(IMAGE.sha256);
  expect(GOLDEN_IMAGE.sha256).toBe(IMAGE.sha256);
  // The firmware example's BIOS image: the lab's image of that version (its sha256 as the example pins it).
  const bios = labFirmwareFile("bios", BIOS_IMAGE.version);
  expect(bios.sha256).toBe(BIOS_IMAGE.sha256);
  const files = new Map([
    [`/${IMAGE.name}-${IMAGE.version}.qcow2`, bytes],
    [`/${bios.name}`, bios.bytes],
  ]);
  imageServer = createServer((req, res) => {
    const body = files.get(req.url ?? "");
    res.writeHead(body ? 200 : 404, { "Content-Length": body ? body.length : 0 });
    res.end(body && req.method !== "HEAD" ? body : undefined);
  });
  await new Promise<void>((r) => imageServer.listen(0, "127.0.0.1", r));
  imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/${IMAGE.name}-${IMAGE.version}.qcow2`;
});
afterAll(async () => {
  await new Promise((r) => imageServer?.close(r));
  if (cliConfig) await rm(dirname(cliConfig), { recursive: true, force: true });
});

/** One Dell node named and fed as the examples say. */
async function pageLab(o: PageLab, stateDir: string): Promise<Lab> {
  const base = defaultSpec({ nodes: 1, vendors: ["dell"] });
  const spec = {
    ...base,
    nodes: [
      {
        ...base.nodes[0],
        name: NODE.name,
        pdu: NODE.pdu,
        outlet: NODE.outlet,
        initialOutlet: o.powered ? "On" : "Off",
        ...(o.dpu ? { dpus: 1 } : {}),
      },
    ],
    ...(o.conductorDefaults
      ? {
          ironic: {
            conductor: {
              deployKernel: "http://images.lab/ipa.kernel",
              deployRamdisk: "http://images.lab/ipa.initramfs",
            },
          },
        }
      : {}),
  };
  return startLab({ spec, profile: "instant", stateDir });
}

/** The lab's value of every variable an example may declare. */
function labValues(lab: Lab): Record<ExampleVariableName, string> {
  const node = lab.info.nodes[0];
  return {
    redfish_password: node.bmc.password,
    redfish_ca_file: lab.info.ca,
    pdu_endpoint: lab.info.pdus.find((p) => p.id === node.pdu)!.url,
    bmc_endpoint: node.bmc.url,
    maas_url: lab.info.maas!.url,
    maas_api_key: lab.info.maas!.apiKey,
    ironic_url: lab.info.ironic!.url,
    slurm_url: lab.info.slurm!.url,
    slurm_token: lab.info.slurm!.token,
    image_url: imageUrl,
    dpu_endpoint: node.dpus?.[0]?.url ?? "https://127.0.0.1:1",
    bfb_url: `${new URL(imageUrl).origin}/${BFB.version}.bfb`,
    bios_image_url: new URL(`firmware-bios-${BIOS_IMAGE.version}.rfimg`, imageUrl).href,
  };
}

const planText = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

describe.each(ENGINES)("the docs/ examples under %s", (name) => {
  for (const page of PAGES[name]) {
    it(
      `docs/${page.file}: the example converges against the lab, the next plan is empty${page.type ? ", and the documented import id form imports the resource" : ""}`,
      async () => {
        // GIVEN the page's example, its variables set to a fresh lab's values
        const text = readFileSync(join(ROOT, "docs", page.file), "utf8");
        const hcl = section(text, "Example usage", "hcl");
        expect(hcl, `docs/${page.file} has no Example usage`).toBeDefined();
        const declared = [...hcl!.matchAll(/^variable "(\w+)"/gm)].map((m) => m[1]);
        for (const v of declared) expect(Object.keys(EXAMPLE_VARIABLES), `variable ${v}`).toContain(v);
        const stateDir = await mkdtemp(join(tmpdir(), "rf-docs-lab-"));
        let lab: Lab | undefined;
        let w: Workdir | undefined;
        try {
          lab = await pageLab(page.lab ?? {}, stateDir);
          const values = labValues(lab);
          const tfvars = Object.fromEntries(declared.map((v) => [v, values[v as ExampleVariableName]]));
          w = await Workdir.create(engine(name), cliConfig, {
            "main.tf": hcl!,
            "terraform.tfvars.json": JSON.stringify(tfvars),
          });

          // WHEN init, plan and apply run
          await w.ok(["init", "-no-color"]);
          const first = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
          expect([0, 2], planText(first)).toContain(first.code);
          await w.ok(["apply", "-auto-approve", "-no-color"]);

          // THEN the next plan is empty
          const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
          expect(again.code, planText(again)).toBe(0);
          if (page.output) {
            const out = JSON.parse((await w.ok(["output", "-json", page.output.name])).stdout) as Record<
              string,
              string
            >;
            expect(Object.keys(out)).toEqual([NODE.name]);
            expect(out[NODE.name]).toMatch(page.output.each);
          }
          if (!page.type) return;

          // AND the resource's id has a form the Import section shows, and importing it plans no create or destroy
          const address = `${page.type}.${page.name ?? NODE.id}`;
          const shown = (await shownState(w)).find((r) => r.address === address);
          expect(shown, `${address} in state`).toBeDefined();
          const id = String(shown!.values.id);
          const documented = [...(section(text, "Import", "sh") ?? "").matchAll(/^terraform import (\S+) (\S+)$/gm)];
          expect(documented.map((m) => m[1])).toContain(address);
          expect(documented.map((m) => idForm(m[2]))).toContain(idForm(id));
          await w.ok(["state", "rm", "-no-color", address]);
          await w.ok(["import", "-no-color", address, id]);
          const afterImport = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
          expect([0, 2], planText(afterImport)).toContain(afterImport.code);
          if (afterImport.code === 2)
            expect(afterImport.stdout).toMatch(/Plan: 0 to add, \d+ to change, 0 to destroy\./);
        } finally {
          await lab?.close();
          await rm(stateDir, { recursive: true, force: true });
          if (w) await rm(w.dir, { recursive: true, force: true });
        }
      },
      PAGE_TIMEOUT_MS,
    );
  }
});
