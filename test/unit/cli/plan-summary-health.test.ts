/**
 * plan-summary's "Node health" section (issue 30): the components each node's BMC reports as not healthy, from
 * rackform_bmc's `health` as the plan's refresh found it — shown even when the plan changes nothing.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { plan, rc } from "../../support/plan-json.js";

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
