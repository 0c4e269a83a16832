/**
 * plan-summary with BlueField DPUs in the chain (rackform_dpu): a DPU belongs to its host's node (host_endpoint = the
 * BMC's endpoint, the machine's depends_on); a BFB version change reads as a BFB install per node and is not
 * disruptive; a mode change power-cycles the host, so it raises the ⚠ banner and counts as out of service without a
 * drain; drift of a DPU's mode or image shows beside the fix. The golden plans dpu-bfb.json and dpu-mode.json are
 * real `show -json` output of a 4-node rack built by the Rack construct (scripts/record-plans.mjs); the others are
 * hand-made in the engines' format (test/support/plan-json.ts).
 */
import { describe, expect, it } from "vitest";
import { type PlanJson, planNodes, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { plan, planFixture, rc } from "../../support/plan-json.js";

const V1 = "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod";
const V2 = "DOCA_2.10.0_BSP_4.10.0_Ubuntu_24.04-6.25-01.prod";
const flat = (text: string) => text.replace(/ {2,}/g, " ");
const md = (p: PlanJson) => flat(renderMarkdown(summarise([{ plan: p, source: "plan.json", label: "r01" }])));

/** The configuration's depends_on of a node's chain as the Rack construct writes it: bmc → outlet, dpu → bmc. */
const wired = (changes: ReturnType<typeof rc>[]): Partial<PlanJson> => ({
  configuration: {
    root_module: {
      resources: changes.map((c) => {
        const to = { rackform_bmc: "rackform_pdu_outlet", rackform_dpu: "rackform_bmc" }[c.type as "rackform_bmc"];
        const dep =
          to &&
          changes.find(
            (d) => d.type === to && d.name.split("_").slice(0, 2).join("_") === c.name.split("_").slice(0, 2).join("_"),
          );
        return { address: c.address, type: c.type, name: c.name, ...(dep ? { depends_on: [dep.address] } : {}) };
      }),
    },
  },
});
const wiredPlan = (changes: ReturnType<typeof rc>[], extra: Partial<PlanJson> = {}) =>
  plan(changes, { ...wired(changes), ...extra });

const bfb = (version: string, sha = "a") => ({ version, url: `http://images/${version}.bfb`, sha256: sha.repeat(64) });
const dpuState = (i: number, mode: string, version: string, sha = "a") => ({
  id: `https://127.12.1.${i}`,
  endpoint: `https://127.12.1.${i}`,
  host_endpoint: `https://127.10.1.${i}`,
  mode,
  bfb: bfb(version, sha),
  rshim: "bmc",
});

/** A joined node's chain, every step a no-op but its DPU's change (`after` null: unchanged). */
function node(i: number, dpu: { actions: string[]; before: object | null; after: object | null }) {
  const n = `r01_n0${i}`;
  const name = `r01-n0${i}`;
  const same = (type: string, id: string, values: Record<string, unknown>) =>
    rc(type, `${n}_${id}`, ["no-op"], values, values);
  return [
    same("rackform_pdu_outlet", "outlet", { pdu_id: "r01-pdu-a", outlet_id: String(i), power_state: "On" }),
    same("rackform_bmc", "bmc", { endpoint: `https://127.10.1.${i}`, conformant: true }),
    rc("rackform_dpu", `${n}_dpu0`, dpu.actions, dpu.before as Record<string, unknown> | null, dpu.after as never),
    same("rackform_machine", "machine", { id: `maas:m${i}`, name, bmc_endpoint: `https://127.10.1.${i}` }),
    same("rackform_deployment", "deployment", { id: `maas:m${i}`, machine_id: `maas:m${i}`, power_state: "on" }),
    same("rackform_acceptance", "acceptance", { id: `acc${i}`, machine_id: `maas:m${i}`, passed: true }),
    same("rackform_cluster_member", "member", {
      node: name,
      scheduler: "slurm",
      gate_id: `acc${i}`,
      partitions: ["gpu"],
      joined: true,
    }),
  ];
}

describe("plan-summary on the recorded DPU plans", () => {
  it("dpu-bfb: a new BFB version in the flavor reads as 4 BFB installs and nothing else", async () => {
    const p = planFixture("dpu-bfb");
    // every node's chain holds its DPU: 4 nodes of 7 resources, the Image construct's rackform_image apart
    const { nodes, others } = planNodes(p);
    expect(nodes.map((n) => [n.name, [...n.changes.keys()]])).toEqual(
      [1, 2, 3, 4].map((i) => [
        `r01-n0${i}`,
        expect.arrayContaining(["rackform_pdu_outlet", "rackform_bmc", "rackform_dpu", "rackform_machine"]),
      ]),
    );
    for (const n of nodes) expect([...n.changes.values()].flat(), n.name).toHaveLength(7);
    expect(others.map((c) => c.type)).toEqual(["rackform_image"]);
    const text = renderMarkdown(summarise([{ plan: p, source: "dpu-bfb.json", label: "r01" }]));
    await expect(text).toMatchFileSnapshot("__snapshots__/dpu-bfb.md");
    expect(flat(text)).toContain("4 BFB install\n");
    expect(flat(text)).toContain(`| r01-n01 | BFB ${V1} → ${V2} |`);
    expect(text).not.toContain("⚠");
  });

  it("dpu-mode: a mode change in the flavor warns that 4 hosts will be power-cycled", async () => {
    const text = renderMarkdown(summarise([{ plan: planFixture("dpu-mode"), source: "dpu-mode.json", label: "r01" }]));
    await expect(text).toMatchFileSnapshot("__snapshots__/dpu-mode.md");
    expect(flat(text)).toContain("> **⚠ 4 nodes will be power-cycled for a DPU mode change.**");
    expect(flat(text)).toContain("| r01-n01 | mode DpuMode → NicMode (host power-cycle) |");
    expect(flat(text)).toContain("4 nodes out without a drain");
  });
});

describe("plan-summary with DPUs", () => {
  it("a BFB version change: one BFB install per node in the DPU column, no warning, nothing else changes", () => {
    // GIVEN 4 joined nodes whose DPUs go from V1 to V2
    const p = wiredPlan(
      [1, 2, 3, 4].flatMap((i) =>
        node(i, {
          actions: ["update"],
          before: dpuState(i, "DpuMode", V1),
          after: dpuState(i, "DpuMode", V2, "b"),
        }),
      ),
    );
    // THEN each DPU is part of its host's node (4 nodes of 7 resources)
    const { nodes } = planNodes(p);
    expect(nodes.map((n) => [n.name, [...n.changes.values()].flat().length])).toEqual(
      [1, 2, 3, 4].map((i) => [`r01-n0${i}`, 7]),
    );
    // AND the summary says exactly the installs, with no banner and no rollout (nothing leaves the cluster)
    const text = md(p);
    expect(text).toContain("### r01 · 4 of 4 nodes change");
    expect(text).toContain("4 BFB install\n");
    expect(text).toContain("| Node | DPU |");
    expect(text).toContain(`| r01-n01 | BFB ${V1} → ${V2} |`);
    expect(text).not.toContain("⚠");
    expect(text).not.toContain("Rollout");
  });

  it("a mode change power-cycles the host: ⚠ banner, counted, and out of service without a drain", () => {
    const p = wiredPlan([
      ...node(1, { actions: ["update"], before: dpuState(1, "NicMode", V1), after: dpuState(1, "DpuMode", V1) }),
      ...node(2, { actions: ["no-op"], before: dpuState(2, "DpuMode", V1), after: dpuState(2, "DpuMode", V1) }),
    ]);
    const text = md(p);
    expect(text).toContain("> **⚠ 1 node will be power-cycled for a DPU mode change.**");
    expect(text).toContain("1 DPU mode change (host power-cycle)");
    expect(text).toContain("| r01-n01 | mode NicMode → DpuMode (host power-cycle) |");
    expect(text).toContain("1 node out without a drain");
    expect(text).toContain("### r01 · 1 of 2 nodes change");
  });

  it("mode and BFB together; a new sha256 under the same version installs nothing and says so", () => {
    const p = wiredPlan([
      ...node(1, { actions: ["update"], before: dpuState(1, "NicMode", V1), after: dpuState(1, "DpuMode", V2) }),
      ...node(2, { actions: ["update"], before: dpuState(2, "DpuMode", V1), after: dpuState(2, "DpuMode", V1, "c") }),
    ]);
    const text = md(p);
    expect(text).toContain(`| r01-n01 | mode NicMode → DpuMode (host power-cycle), BFB ${V1} → ${V2} |`);
    expect(text).toContain(`| r01-n02 | BFB ${V1} kept (new url or sha256: no install) |`);
    expect(text).toContain("1 DPU mode change (host power-cycle) · 1 BFB install");
  });

  it("a new node: the DPU is set up between its BMC and its machine", () => {
    const after = dpuState(1, "DpuMode", V1);
    const changes = [
      rc("rackform_pdu_outlet", "r01_n01_outlet", ["create"], null, {
        pdu_id: "r01-pdu-a",
        outlet_id: "1",
        power_state: "On",
      }),
      rc("rackform_bmc", "r01_n01_bmc", ["create"], null, { endpoint: "https://127.10.1.1" }),
      rc("rackform_dpu", "r01_n01_dpu0", ["create"], null, after),
      rc("rackform_machine", "r01_n01_machine", ["create"], null, {
        name: "r01-n01",
        backend: "maas",
        bmc_endpoint: "https://127.10.1.1",
      }),
    ];
    const text = md(wiredPlan(changes));
    expect(text).toContain("| Node | Power | BMC | DPU | Machine |");
    expect(text).toContain(`| r01-n01 | on | discover | set up DpuMode, BFB ${V1} | enroll (maas) |`);
    expect(text).toContain("1 power on · 1 DPU set up · 1 enroll");
    expect(text).not.toContain("⚠");
  });

  it("a DPU whose mode and image were changed by hand: the drift beside the planned fix", () => {
    const recorded = dpuState(1, "DpuMode", V1);
    const found = { ...recorded, mode: "NicMode", bfb: bfb("hand-installed-1.0") };
    const p = wiredPlan(node(1, { actions: ["update"], before: found, after: recorded }), {
      resource_drift: [rc("rackform_dpu", "r01_n01_dpu0", ["update"], recorded, found)],
    });
    const text = md(p);
    expect(text).toContain("### Changed outside rackform");
    expect(text).toContain(
      `| r01-n01 | DPU mode DpuMode → NicMode; DPU BFB ${V1} → hand-installed-1.0 | DPU: mode NicMode → DpuMode (host power-cycle), BFB hand-installed-1.0 → ${V1} |`,
    );
  });
});
