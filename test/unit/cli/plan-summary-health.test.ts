/**
 * plan-summary's "Node health" section (issue 30): the components each node's BMC reports as not healthy, from
 * rackform_bmc's `health` as the plan's refresh found it — shown even when the plan changes nothing.
 */
import { describe, expect, it } from "vitest";
import { planSummary, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { fakeIo, plan, rc } from "../../support/plan-json.js";

const bmc = (i: number, health: unknown[]) => {
  const v = { endpoint: `https://127.10.1.${i}`, conformant: true, health };
  return rc("rackform_bmc", `r01_n0${i}`, ["no-op"], v, v);
};
const gpu = { component: "GPU 1", kind: "gpu", health: "Critical", uri: "/x/GPU0", since: "2026-11-27T08:00:00Z" };
const dimm = { component: "DIMM3", kind: "memory", health: "Warning", uri: "/x/DIMM3", since: "2026-11-26T22:10:00Z" };

describe("plan-summary Node health", () => {
  it("lists every component not OK per node, on a plan without changes", () => {
    const md = renderMarkdown(
      summarise([{ plan: plan([bmc(1, []), bmc(2, [gpu, dimm]), bmc(3, [])]), source: "plan.json" }]),
    );
    expect(md).toContain("### Node health");
    const rows = md
      .split("\n")
      .filter((l) => l.startsWith("| r01_n02") || l.includes("(gpu)") || l.includes("(memory)"));
    expect(rows.some((l) => /GPU 1 \(gpu\)\s*\|\s*Critical\s*\|\s*2026-11-27T08:00:00Z/.test(l))).toBe(true);
    expect(rows.some((l) => /DIMM3 \(memory\)\s*\|\s*Warning/.test(l))).toBe(true);
    expect(md).not.toMatch(/r01_n01[^\n]*\(gpu\)/);
  });

  it("has no section when every node is healthy (or the state predates health)", () => {
    const old = rc(
      "rackform_bmc",
      "r01_n04",
      ["no-op"],
      { endpoint: "https://127.10.1.4" },
      { endpoint: "https://127.10.1.4" },
    );
    const md = renderMarkdown(summarise([{ plan: plan([bmc(1, []), old]), source: "plan.json" }]));
    expect(md).not.toContain("Node health");
  });
});

describe("plan-summary and the remediation ladder", () => {
  /** One node's chain (machine, deployment, gate, member, tied as the plan ties them) moving its rung from → to. */
  const ladder = (i: number, from: string, to: string, maxUnhealthy = 1) => {
    const name = `r01_n0${i}`;
    const id = `maas:m${i}`;
    const machine = { id, name, bmc_endpoint: `https://127.10.1.${i}` };
    const dep = { id, machine_id: id, image: { version: "2026.06.2" } };
    const gate = { id, machine_id: id };
    const member = { scheduler: "slurm", node: name, gate_id: id, partitions: ["gpu"], max_unavailable: 2 };
    const m = { ...member, max_unhealthy: maxUnhealthy };
    return [
      rc("rackform_machine", name, ["no-op"], machine, machine),
      rc("rackform_deployment", name, ["update"], { ...dep, remediation: from }, { ...dep, remediation: to }),
      rc(
        "rackform_acceptance",
        name,
        ["update"],
        { ...gate, remediation: from, passed: true },
        { ...gate, remediation: to },
      ),
      rc(
        "rackform_cluster_member",
        name,
        ["update"],
        { ...m, remediation: from, joined: true },
        { ...m, remediation: to },
      ),
    ];
  };

  it("shows each sick node's step in the Health table and in the node's row, drained within the budget", () => {
    const md = renderMarkdown(
      summarise([{ plan: plan([bmc(2, [gpu]), ...ladder(2, "", "power_cycle:1", 2)]), source: "plan.json" }]),
    );
    expect(md).toMatch(/\| Node\s*\| Component\s*\| Health\s*\| Since\s*\| Ladder step\s*\|/);
    expect(md).toMatch(/GPU 1 \(gpu\)\s*\|\s*Critical\s*\|[^|]*\|\s*power cycle\s*\|/);
    expect(md).toContain("health step: power cycle");
    expect(md).toContain("re-run after the power cycle");
    expect(md).toContain("drain, power cycle, gate, rejoin slurm (one step, within the budget)");
    expect(md).not.toContain("without a drain");
    expect(md).not.toContain("max_unhealthy");
  });

  it("says why the apply holds nodes back when more take a step than max_unhealthy allows", () => {
    const changes = [
      bmc(2, [gpu]),
      bmc(3, [gpu]),
      ...ladder(2, "", "power_cycle:1"),
      ...ladder(3, "power_cycle:1", "reimage:1"),
    ];
    const md = renderMarkdown(summarise([{ plan: plan(changes), source: "plan.json" }]));
    expect(md).toContain("2 nodes take a health step in this plan and max_unhealthy is 1");
    expect(md).toContain("usually the fabric, the cooling or the power");
    expect(md).toMatch(/\|\s*reimage with the pinned image\s*\|/);
  });

  it("lists what the scheduler marked by itself (the findings a deployment follows) with the node's step", () => {
    // GIVEN node 5's BMC reporting nothing and its deployment following the scheduler's finding into a power cycle
    const hung = {
      component: "slurmd: Not responding",
      kind: "scheduler:not_responding",
      health: "Critical",
      uri: "slurm:r01_n05",
      since: "2026-11-27T23:40:00.000Z",
    };
    const chain = ladder(5, "", "power_cycle:1").map((c) =>
      c.type === "rackform_deployment"
        ? { ...c, change: { ...c.change, after: { ...(c.change.after as object), bmc_health: [hung] } } }
        : c,
    );
    const md = renderMarkdown(summarise([{ plan: plan([bmc(5, []), ...chain]), source: "plan.json" }]));
    // THEN the Health table names the scheduler's words and the step
    expect(md).toMatch(
      /slurmd: Not responding \(scheduler:not_responding\)\s*\|\s*Critical\s*\|\s*2026-11-27T23:40:00.000Z\s*\|\s*power cycle\s*\|/,
    );
  });

  it("names a node quarantined for repair, and one held there", () => {
    const held = ladder(4, "repair", "repair").map((c) => ({
      ...c,
      change: { ...c.change, actions: ["no-op" as const] },
    }));
    const changes = [bmc(3, [gpu]), bmc(4, [gpu]), ...ladder(3, "reimage:1", "repair"), ...held];
    const md = renderMarkdown(summarise([{ plan: plan(changes), source: "plan.json" }]));
    expect(md).toContain("health: quarantine for repair (every step tried)");
    expect(md).toContain("drain, hold out of slurm for repair (within the budget)");
    expect(md).toMatch(/r01_n04[^\n]*\|\s*held for repair\s*\|/);
    expect(md).toContain("quarantine for repair");
  });
});

describe("plan-summary --only-health (a scheduled pipeline applies health steps unattended)", () => {
  const step = (to: string) =>
    rc(
      "rackform_deployment",
      "r01_n02",
      ["update"],
      { id: "maas:m2", remediation: "" },
      { id: "maas:m2", remediation: to },
    );

  it("exits 0 on a plan of health steps or of nothing, and writes no summary", async () => {
    for (const changes of [[step("power_cycle:1")], []]) {
      const { io, out } = fakeIo({ "p.json": JSON.stringify(plan(changes)) });
      expect(await planSummary(["--only-health", "--plan", "r01=p.json"], io)).toBe(0);
      expect(out.stdout).toBe("");
    }
  });

  it("exits 3 naming every change that is not a health step", async () => {
    const reimage = rc("rackform_deployment", "r01_n03", ["delete", "create"], { id: "maas:m3" }, { id: "maas:m3" });
    const { io, out } = fakeIo({ "p.json": JSON.stringify(plan([step("reimage:1"), reimage])) });
    expect(await planSummary(["--only-health", "p.json"], io)).toBe(3);
    expect(out.stderr).toContain("p.json: rackform_deployment.r01_n03 delete,create");
    expect(out.stderr).not.toContain("r01_n02");
  });
});
