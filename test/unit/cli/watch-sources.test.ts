/**
 * What `rackform watch` accepts as a stack (issue 27: `watch --once .` in a CDKTF project printed a rack "project"
 * with 0 nodes, and `watch --once terraform.gpu-rack.tfstate` failed "Failed to load plugin schemas"): a CDKTF
 * project folder, its cdktf.out, a stack folder and a state file all read the same rack — local state as JSON, with
 * no engine run (the engine here does not exist).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WatchModel } from "../../../src/cli/watch/model.js";
import {
  type StateResource,
  stackSources,
  stateFileResources,
  WatchSourceError,
} from "../../../src/cli/watch/sources.js";
import { ROOT } from "../../support/rackform-e2e.js";

/** The state a real 8-node rack apply left (6 joined, 2 quarantined), as `show -json` reported it. */
function shownState(): (StateResource & { provider_name?: string })[] {
  const plan = JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "plans", "partial-failure.json"), "utf8"));
  return plan.prior_state.values.root_module.resources;
}

/** The same state as the engine keeps it on disk (format 4). */
function stateFile(): string {
  const resources = shownState().map((r) => ({
    mode: r.mode,
    type: r.type,
    name: r.name,
    provider: `provider["${r.provider_name}"]`,
    instances: [
      {
        ...(r.tainted ? { status: "tainted" } : {}),
        schema_version: 0,
        attributes: r.values,
        dependencies: r.depends_on ?? [],
      },
    ],
  }));
  return JSON.stringify({ version: 4, terraform_version: "1.11.4", serial: 9, lineage: "x", outputs: {}, resources });
}

const engine = { bin: "/nonexistent/terraform", env: {} };

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "rf-watch-sources-"));
  writeFileSync(join(project, "cdktf.json"), JSON.stringify({ language: "typescript", app: "npx tsx main.ts" }));
  const stack = join(project, "cdktf.out", "stacks", "gpu-rack");
  mkdirSync(stack, { recursive: true });
  const backend = { local: { path: join(project, "terraform.gpu-rack.tfstate") } };
  writeFileSync(join(stack, "cdk.tf.json"), JSON.stringify({ terraform: { backend } }));
  writeFileSync(join(project, "terraform.gpu-rack.tfstate"), stateFile());
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

async function counts(arg: string) {
  const sources = stackSources(arg, engine);
  const reads = [];
  for (const s of sources) reads.push({ label: s.label, read: await s.read() });
  return new WatchModel().update(reads, undefined, 0).racks.map((r) => [r.label, r.nodes.length, r.counts]);
}

describe("rackform watch: every input kind reads the same rack", () => {
  const expected = [["gpu-rack", 8, { joined: 6, quarantined: 2 }]];

  it("reads a CDKTF project folder through the output folder its cdktf.json names", async () => {
    expect(await counts(project)).toEqual(expected);
  });

  it("reads its cdktf.out and one stack folder from the stack's local state file, without an engine", async () => {
    expect(await counts(join(project, "cdktf.out"))).toEqual(expected);
    expect(await counts(join(project, "cdktf.out", "stacks", "gpu-rack"))).toEqual(expected);
  });

  it("reads a .tfstate file as JSON (no provider schema needed), labelled by its stack", async () => {
    expect(await counts(join(project, "terraform.gpu-rack.tfstate"))).toEqual(expected);
    expect(await counts(`r01=${join(project, "terraform.gpu-rack.tfstate")}`)).toEqual([
      ["r01", 8, { joined: 6, quarantined: 2 }],
    ]);
  });

  it("honours a cdktf.json output folder other than cdktf.out, and names the fix when nothing was synthesized", async () => {
    const other = mkdtempSync(join(tmpdir(), "rf-watch-out-"));
    try {
      writeFileSync(join(other, "cdktf.json"), JSON.stringify({ output: "build/out" }));
      expect(() => stackSources(other, engine)).toThrow(/run cdktf synth first/);
      const stack = join(other, "build", "out", "stacks", "r07");
      mkdirSync(stack, { recursive: true });
      writeFileSync(join(stack, "cdk.tf.json"), JSON.stringify({ terraform: { backend: { local: { path: "s" } } } }));
      // no state file yet: the stack is there, with nothing recorded
      expect(await counts(other)).toEqual([["r07", 0, {}]]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("turns a state file into show -json's resources (index keys, modules, taint) and refuses what is not one", () => {
    const text = JSON.stringify({
      version: 4,
      resources: [
        {
          module: "module.r01",
          mode: "managed",
          type: "rackform_bmc",
          name: "n",
          instances: [
            { index_key: 0, attributes: { endpoint: "https://a" } },
            { index_key: "b", status: "tainted", attributes: {} },
          ],
        },
        { mode: "data", type: "rackform_image", name: "img", instances: [{ attributes: {} }] },
      ],
    });
    expect(stateFileResources(text, "x").map((r) => [r.address, r.mode, r.tainted ?? false])).toEqual([
      ["module.r01.rackform_bmc.n[0]", "managed", false],
      ['module.r01.rackform_bmc.n["b"]', "managed", true],
      ["data.rackform_image.img", "data", false],
    ]);
    expect(() => stateFileResources("{", "stack r01")).toThrow(WatchSourceError);
    expect(() => stateFileResources('{"version":3}', "stack r01")).toThrow(/format 4/);
  });
});
