/**
 * plan-summary over a whole fleet change (issue 27): three stacks of one Slurm partition with max_unavailable = 1, a
 * canary and a second wave from cdktf's manifest, and a golden-image version bump in the canary's stack. The summary
 * states the order and the partition's budget for the whole change (not "at most 1" per rack, which three stacks
 * applied at once would make false), shows the image bump as such, and prints no runner-local path.
 */
import { describe, expect, it } from "vitest";
import { planSummary, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { imageChanges, imageText, wavesOf } from "../../../src/cli/plan-summary/order.js";
import { image, plan, rc } from "../../support/plan-json.js";

const flat = (text: string) => text.replace(/ {2,}/g, " ");

/** A Slurm member of partition gpu replaced under max_unavailable = 1 (a reimage's drain and rejoin). */
const member = (node: string) => {
  const state = { node, scheduler: "slurm", partitions: ["gpu"], max_unavailable: 1, drain_on_destroy: true };
  return rc("rackform_cluster_member", node.replace("-", "_"), ["delete", "create"], state, state);
};
const deployment = (node: string) =>
  rc(
    "rackform_deployment",
    node.replace("-", "_"),
    ["delete", "create"],
    { machine_id: `m-${node}`, image: image("2026.06.2") },
    { machine_id: `m-${node}`, image: image("2026.07.1") },
  );
const imageResource = (actions: string[], from: string | null, to: string | null) =>
  rc(
    "rackform_image",
    `ubuntu_gpu_${(to ?? from ?? "").replaceAll(".", "_")}`,
    actions,
    from ? { name: "ubuntu-gpu", version: from, backend: "maas", url: `http://i/${from}`, sha256: "aa" } : null,
    to ? { name: "ubuntu-gpu", version: to, backend: "maas", url: `http://i/${to}`, sha256: "bb" } : null,
  );

/** A rack stack whose nodes' deployments and members are all replaced (members alone, untied, read as drain and rejoin). */
const rackPlan = (rack: string, nodes: number, extra: ReturnType<typeof rc>[] = []) =>
  plan([
    ...Array.from({ length: nodes }, (_, i) => `${rack}-n0${i + 1}`).flatMap((n) => [deployment(n), member(n)]),
    ...extra,
  ]);

const manifest = JSON.stringify({
  version: "0.21.0",
  stacks: {
    "fleet-r01": { name: "fleet-r01", constructPath: "fleet-r01", dependencies: [] },
    "fleet-r02": { name: "fleet-r02", constructPath: "fleet-r02", dependencies: ["fleet-r01"] },
    "fleet-r03": { name: "fleet-r03", constructPath: "fleet-r03", dependencies: ["fleet-r01"] },
  },
});

const TMP = "/home/runner/work/_temp/plans";

describe("plan-summary states the rollout of the whole change", () => {
  it("gives the order (canary, waves) and one budget per partition across stacks, the image bump, no temp path", async () => {
    // GIVEN three stacks of partition gpu (4 nodes each), the image bumped in the canary's stack, plans in a temp dir
    const files: Record<string, string> = {
      [`${TMP}/fleet-r01.json`]: JSON.stringify(
        rackPlan("r01", 4, [imageResource(["update"], "2026.06.2", "2026.07.1")]),
      ),
      [`${TMP}/fleet-r02.json`]: JSON.stringify(rackPlan("r02", 4)),
      [`${TMP}/fleet-r03.json`]: JSON.stringify(rackPlan("r03", 4)),
      "cdktf.out/manifest.json": manifest,
    };
    let out = "";
    const code = await planSummary(
      [
        ...["fleet-r01", "fleet-r02", "fleet-r03"].flatMap((s) => ["--plan", `${s}=${TMP}/${s}.json`]),
        "--manifest",
        "cdktf.out/manifest.json",
      ],
      {
        readFile: async (p) => {
          if (!(p in files)) throw new Error("ENOENT");
          return files[p];
        },
        readStdin: async () => "",
        writeFile: async () => {},
        stdout: (t) => {
          out += t;
        },
        stderr: (t) => {
          out += t;
        },
      },
    );
    expect(code, out).toBe(0);
    const text = flat(out);
    // THEN the order: the canary first, then the second wave, each wave after the one before
    expect(text).toContain("### Rollout order and budget");
    expect(text).toContain("Order: wave 1 (canary): fleet-r01 → wave 2: fleet-r02, fleet-r03.");
    expect(text).toContain("Each wave starts only after every stack of the wave before has applied");
    // AND the partition's budget for the whole change, shared across the stacks — never "at most 1" per rack alone
    expect(text).toContain(
      "Budget, slurm partition gpu: 12 nodes drained and rejoined across 3 stacks (fleet-r01, fleet-r02, fleet-r03); at most 1 of its nodes out of service at once for the whole change (max_unavailable = 1): the budget is the partition's, shared by these stacks and every runner that applies them at the same time.",
    );
    expect(text).toContain("Rollout, slurm partition gpu: 4 nodes drained and rejoined, under max_unavailable = 1.");
    expect(text).not.toMatch(/at most 1 out of service at once/);
    // AND the image version change reads as one
    expect(text).toContain("ℹ `fleet-r01`: image ubuntu-gpu 2026.06.2 → 2026.07.1.");
    expect(text).not.toContain("changes outside the node chain");
    // AND no runner-local path appears anywhere
    expect(text).not.toContain("/home/runner");
    expect(text).not.toContain("_temp");
    expect(text).toContain("<sub>Plans: fleet-r01 (9 resource changes, engine 1.11.4); fleet-r02 (8 resource changes");
  });

  it("says the order is not in the plans without a manifest, and names plan files without their folders", () => {
    const s = summarise([
      { plan: rackPlan("r01", 2), source: "/tmp/tmp.Xy12/plans/a.json" },
      { plan: rackPlan("r02", 2), source: "/tmp/tmp.Xy12/plans/b.json" },
    ]);
    const text = flat(renderMarkdown(s));
    expect(text).toContain("Order: not in the plans (pass `--manifest cdktf.out/manifest.json` for the waves)");
    expect(text).toContain("4 nodes drained and rejoined across 2 stacks (a.json, b.json); at most 1 of its nodes");
    expect(text).not.toContain("/tmp");
  });

  it("reads waves from cdktf's manifest: depth of the dependency chain, only the stacks planned", () => {
    const deep = JSON.stringify({
      stacks: {
        c: { dependencies: ["b"] },
        b: { dependencies: ["a"] },
        a: { dependencies: [] },
        d: { dependencies: ["a"] },
        other: { dependencies: [] },
      },
    });
    expect(wavesOf(deep, "m", new Set(["a", "b", "c", "d"]))).toEqual([
      { stacks: ["a"] },
      { stacks: ["b", "d"] },
      { stacks: ["c"] },
    ]);
    // cdktf names a dependency by its construct path (a stack nested in a construct has a longer one)
    const nested = JSON.stringify({
      stacks: {
        "fleet-r01": { constructPath: "fleet/fleet-r01", dependencies: [] },
        "fleet-r02": { constructPath: "fleet/fleet-r02", dependencies: ["fleet/fleet-r01"] },
      },
    });
    expect(wavesOf(nested, "m")).toEqual([{ stacks: ["fleet-r01"] }, { stacks: ["fleet-r02"] }]);
    expect(() => wavesOf("{", "m.json")).toThrow(/m\.json: not JSON/);
    expect(() => wavesOf(JSON.stringify({ stacks: { a: { dependencies: ["a"] } } }), "m")).toThrow(/depends on itself/);
  });

  it("shows an image version change as such, whether updated in place or a new image beside the old one", () => {
    const inPlace = imageChanges([imageResource(["update"], "2026.06.2", "2026.07.1")]);
    expect(inPlace.map(imageText)).toEqual(["image ubuntu-gpu 2026.06.2 → 2026.07.1"]);
    const side = imageChanges([
      imageResource(["create"], null, "2026.07.1"),
      imageResource(["delete"], "2026.06.2", null),
    ]);
    expect(side.map(imageText)).toEqual(["image ubuntu-gpu 2026.06.2 → 2026.07.1"]);
    expect(imageChanges([imageResource(["create"], null, "2026.06.2")]).map(imageText)).toEqual([
      "image ubuntu-gpu 2026.06.2 (new)",
    ]);
    expect(imageChanges([imageResource(["delete"], "2026.06.2", null)]).map(imageText)).toEqual([
      "image ubuntu-gpu 2026.06.2 (removed)",
    ]);
    const resum = rc(
      "rackform_image",
      "img",
      ["update"],
      { name: "ubuntu-gpu", version: "2026.06.2", url: "http://a", sha256: "aa" },
      { name: "ubuntu-gpu", version: "2026.06.2", url: "http://a", sha256: "bb" },
    );
    expect(imageChanges([resum]).map(imageText)).toEqual(["image ubuntu-gpu 2026.06.2 (new sha256)"]);
    expect(imageChanges([imageResource(["no-op"], "2026.06.2", "2026.06.2")])).toEqual([]);
  });
});
