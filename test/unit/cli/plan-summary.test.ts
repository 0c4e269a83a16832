/**
 * plan-summary on the golden plans (real `show -json` output recorded from the lab by scripts/record-plans.mjs) and on
 * edge cases: no changes, sensitive and unknown values, errored plans, CDKTF resource names, several racks.
 */
import { describe, expect, it } from "vitest";
import {
  type PlanJson,
  planNodes,
  planSummary,
  renderMarkdown,
  summarise,
} from "../../../src/cli/plan-summary/index.js";
import { fakeIo, planFixture, planFixtureText } from "../../support/plan-json.js";

const GOLDEN = ["create", "reimage", "partial-failure", "destroy", "rollout", "rolling", "drift", "firmware"] as const;
const md = (plan: PlanJson, label?: string, source = "plan.json") =>
  renderMarkdown(summarise([{ plan, source, ...(label ? { label } : {}) }]));

describe("plan-summary on the golden plans", () => {
  it.each(GOLDEN)("summarises the %s plan as its snapshot", async (name) => {
    // GIVEN a real plan recorded from the lab, labelled with its rack
    const { io, out } = fakeIo({ [`${name}.json`]: planFixtureText(name) });
    // WHEN the command summarises it
    const code = await planSummary(["--plan", `r01=${name}.json`], io);
    // THEN it succeeds with the reviewed Markdown
    expect([code, out.stderr]).toEqual([0, ""]);
    await expect(out.stdout).toMatchFileSnapshot(`__snapshots__/${name}.md`);
  });

  it("finds the 8 nodes of every golden plan, each with its whole chain of 6 resources (7 with a firmware baseline)", () => {
    for (const name of GOLDEN) {
      const { nodes, others } = planNodes(planFixture(name));
      expect(nodes.map((n) => n.name)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `r01-n0${i}`));
      const chain = name === "firmware" ? 7 : 6;
      for (const n of nodes) expect([...n.changes.values()].flat(), `${name} ${n.name}`).toHaveLength(chain);
      expect(others).toEqual([]);
    }
  });

  it("counts what the plan does: create 8 joins, reimage 8, partial failure retries 2, destroy releases 8", () => {
    const counts = (name: string) =>
      Object.fromEntries(summarise([{ plan: planFixture(name), source: name }]).racks[0].counts);
    expect(summarise([{ plan: planFixture("create"), source: "c", label: "r01" }]).racks[0].counts).toEqual(
      new Map([
        ["power-on", 8],
        ["enroll", 8],
        ["deploy", 8],
        ["acceptance", 8],
        ["join", 8],
      ]),
    );
    expect(counts("reimage")).toMatchObject({ reimage: 4, acceptance: 4, rejoin: 4 });
    expect(counts("destroy")).toMatchObject({ release: 4, undeploy: 4, leave: 4 });
    const failed = summarise([{ plan: planFixture("partial-failure"), source: "p", label: "r01" }]);
    expect(failed.racks[0].changed.map((n) => [n.name, n.retried])).toEqual([
      ["r01-n03", true],
      ["r01-n06", true],
    ]);
  });

  it("groups by PDU when the plan has no rack label", () => {
    const s = summarise([{ plan: planFixture("create"), source: "create.json" }]);
    expect(s.racks.map((r) => [r.label, r.nodeCount])).toEqual([
      ["PDU r01-pdu-a", 4],
      ["PDU r01-pdu-b", 4],
    ]);
    expect(renderMarkdown(s).replace(/ {2,}/g, " ")).toContain("| PDU r01-pdu-a | 4 of 4 | 0 |");
  });

  it("keeps no variable value and no lab credential in the fixtures", () => {
    for (const name of GOLDEN) {
      const raw = JSON.parse(planFixtureText(name)) as { variables?: Record<string, { value: unknown }> };
      for (const v of Object.values(raw.variables ?? {})) expect(v.value).toBe("(scrubbed by record-plans)");
      expect(planFixtureText(name)).not.toMatch(/"(password|token|api_key)":\s*"[^"(]/);
    }
  });
});

/** Renames every chain resource as CDKTF does (`${node}_deployment` ids, or hashed construct paths), everywhere. */
function renamed(p: PlanJson, style: (type: string, name: string) => string): PlanJson {
  const to = new Map((p.resource_changes ?? []).map((c) => [c.address, `${c.type}.${style(c.type, c.name)}`]));
  const str = (s: string) => {
    const hit = [...to.keys()].find((a) => s === a || s.startsWith(`${a}.`) || s.startsWith(`${a}[`));
    return hit ? `${to.get(hit)}${s.slice(hit.length)}` : s;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return str(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (typeof o.address === "string" && typeof o.type === "string" && typeof o.name === "string") {
      o.name = (o.address as string).split(".").at(-1);
    }
    return o;
  };
  return walk(p) as PlanJson;
}

describe("plan-summary identifies nodes from the plan, not from resource names", () => {
  const body = (m: string) => m.replace(/<sub>.*<\/sub>\n$/s, "");
  const kinds = {
    "CDKTF ids (`${node}_deployment`)": (type: string, name: string) =>
      `${name.replace("_", "-")}_${type.replace("rackform_", "")}`,
    "hashed construct paths": (type: string, name: string) =>
      `Fleet_Rack_${type.length}${name.length}_Resource_${Buffer.from(type + name)
        .toString("hex")
        .slice(-8)}`,
  };
  for (const [kind, style] of Object.entries(kinds)) {
    it.each(GOLDEN)(`summarises the %s plan the same with ${kind}`, (name) => {
      const original = md(planFixture(name), "r01");
      const other = renamed(planFixture(name), style);
      expect(JSON.stringify(other)).not.toMatch(/"rackform_[a-z_]+\.r01_n0\d/);
      const cdktf = md(other, "r01");
      expect(body(cdktf)).toBe(body(original));
    });
  }

  it("ties a converged node's chain by attribute values when the configuration is left out", () => {
    // GIVEN the reimage plan (ids known from state) without its configuration and state, under unrelated names
    const p = renamed(
      planFixture("reimage"),
      (t, n) =>
        `x${Buffer.from(t + n)
          .toString("hex")
          .slice(-10)}`,
    );
    const bare = { ...p, configuration: undefined, prior_state: undefined };
    // THEN every node is still found whole except the outlet, which only a reference ties to the BMC
    const { nodes } = planNodes(bare);
    const named = nodes.filter((n) => /^r01-n0\d$/.test(n.name));
    expect(named).toHaveLength(8);
    for (const n of named) expect([...n.changes.keys()]).toHaveLength(5);
    expect(body(md(bare, "r01"))).toContain("8 reimage · 8 run acceptance · 8 drain and rejoin");
  });
});
