/**
 * plan-summary's edge cases on small hand-written plans in the engines' JSON format: no changes, sensitive and unknown
 * values, errored plans and plans without resource_changes, power changes, several racks, bad input and arguments.
 */
import { describe, expect, it } from "vitest";
import {
  type PlanJson,
  parseArgs,
  parsePlanArg,
  planSummary,
  renderMarkdown,
  summarise,
} from "../../../src/cli/plan-summary/index.js";
import { fakeIo, image, plan, rc } from "../../support/plan-json.js";

/** Markdown with table padding folded, so assertions read as the rows do. */
const flat = (text: string) => text.replace(/ {2,}/g, " ");
const md = (p: PlanJson, label = "r12") => flat(renderMarkdown(summarise([{ plan: p, source: "plan.json", label }])));

const outlet = (name: string, pdu: string, id: string, actions: string[], from: string | null, to: string | null) =>
  rc(
    "rackform_pdu_outlet",
    name,
    actions,
    from === null ? null : { endpoint: "https://127.11.1.1", pdu_id: pdu, outlet_id: id, power_state: from },
    to === null ? null : { endpoint: "https://127.11.1.1", pdu_id: pdu, outlet_id: id, power_state: to },
  );

describe("plan-summary edge cases", () => {
  it("says so when the plan changes nothing", () => {
    // GIVEN a plan whose only change is a no-op
    const p = plan([rc("rackform_machine", "m", ["no-op"], { name: "r12-u07" }, { name: "r12-u07" })]);
    // THEN no banner, one "No changes" line, and the rack shows its node unchanged, in the stage state records
    const text = md(p);
    expect(text).not.toContain("⚠");
    expect(text).toContain("✓ No changes: the plan leaves every node as it is.");
    expect(text).toContain("### r12 · 0 of 1 node change\n\nNow: 1 ready\n\nNo changes to this rack's nodes.");
  });

  it("says so when the plan has no resource_changes at all", () => {
    const text = md(plan(undefined));
    expect(text).toContain("✓ No changes");
    expect(text).toContain("### r12 · 0 of 0 nodes change");
  });

  it("reports an errored plan with no resource_changes as errored, not as 'no changes'", () => {
    const text = md(plan(undefined, { errored: true, complete: false }));
    expect(text).toContain("✖ `r12`: **the plan errored**");
    expect(text).not.toContain("✓ No changes");
    expect(text).toContain("ℹ `r12`: the plan is incomplete");
  });

  it("never prints a sensitive value: the image version and the machine name show as (sensitive)", () => {
    // GIVEN a reimage where the version and the machine's name are sensitive
    const secret = "s3cr3t-version-2026";
    const p = plan([
      rc(
        "rackform_machine",
        "m",
        ["no-op"],
        { id: "maas:abc", name: "hidden-name" },
        { id: "maas:abc", name: "hidden-name" },
        {
          before_sensitive: { name: true },
          after_sensitive: { name: true },
        },
      ),
      rc(
        "rackform_deployment",
        "d",
        ["delete", "create"],
        { id: "maas:abc", machine_id: "maas:abc", image: image(secret) },
        { machine_id: "maas:abc", image: image(`${secret}-next`) },
        {
          before_sensitive: { image: { version: true } },
          after_sensitive: { image: true },
          after_unknown: { id: true },
        },
      ),
    ]);
    // THEN the cell says what changes without a value, neither secret appears, and the node is named from its address instead
    const text = md(p);
    expect(text).toContain("| reimage (new image) |");
    expect(text).not.toContain(secret);
    expect(text).not.toContain("hidden-name");
    expect(text).toContain("| rackform_machine.m |");
  });

  it("never prints variable values, which the engines write into the plan JSON in the clear", () => {
    const secret = "hunter2-redfish-password";
    const p = plan([rc("rackform_machine", "m", ["create"], null, { name: "r12-u07", backend: "maas" })], {
      variables: { redfish_password: { value: secret } },
    } as Partial<PlanJson>);
    expect(md(p)).not.toContain(secret);
  });

  it("prints (known after apply) for an unknown value", () => {
    const p = plan([
      rc(
        "rackform_machine",
        "m",
        ["create"],
        null,
        { name: "r12-u07", backend: "maas" },
        { after_unknown: { id: true } },
      ),
      rc(
        "rackform_deployment",
        "d",
        ["create"],
        null,
        { image: { name: "x" } },
        {
          after_unknown: { id: true, machine_id: true, image: { version: true } },
        },
      ),
    ]);
    expect(md(p)).toContain("deploy (known after apply)");
    // AND an outlet whose power state is known only after apply warns as a power-cycle would
    const outletLater = rc(
      "rackform_pdu_outlet",
      "o",
      ["create"],
      null,
      { pdu_id: "pdu-a", outlet_id: "7" },
      {
        after_unknown: { id: true, power_state: true },
      },
    );
    const text = md(plan([outletLater]));
    expect(text).toContain("| pdu-a outlet 7 | power (known after apply) |");
    expect(text).toContain("> **⚠ 1 node will be power-cycled.**");
  });

  it("counts outlet power changes: on → off, a replaced outlet power-cycles, a released outlet switched off", () => {
    const p = plan([
      outlet("a", "pdu-a", "1", ["update"], "On", "Off"),
      outlet("b", "pdu-a", "2", ["delete", "create"], "On", "On"),
      {
        ...outlet("c", "pdu-b", "3", ["delete"], "On", null),
        change: {
          ...outlet("c", "pdu-b", "3", ["delete"], "On", null).change,
          before: {
            endpoint: "https://127.11.1.1",
            pdu_id: "pdu-b",
            outlet_id: "3",
            power_state: "On",
            power_state_on_destroy: "Off",
          },
        },
      },
    ]);
    // WHEN no rack label is given THEN the nodes group by PDU
    const s = summarise([{ plan: p, source: "plan.json" }]);
    expect(s.racks.map((r) => r.label)).toEqual(["PDU pdu-a", "PDU pdu-b"]);
    expect(Object.fromEntries(s.racks[0].counts)).toEqual({ "power-off": 1, "power-cycle": 1 });
    const text = flat(renderMarkdown(s));
    expect(text).toContain("> **⚠ 1 node will be power-cycled, 2 will be powered off.**");
    expect(text).toContain("| pdu-a outlet 1 | On → Off |");
    expect(text).toContain("| pdu-b outlet 3 | off (outlet released) |");
  });

  it("shows a host found off, or whose power is unknown, as a power-on of its deployment (not a reimage)", () => {
    const dep = (name: string, from: string) =>
      rc(
        "rackform_deployment",
        name,
        ["update"],
        { id: `maas:${name}`, machine_id: `maas:${name}`, image: image("1"), power_state: from },
        { id: `maas:${name}`, machine_id: `maas:${name}`, image: image("1"), power_state: "on" },
      );
    const text = md(plan([dep("a", "off"), dep("b", "unknown")]));
    expect(text).toContain("power on (host found off)");
    expect(text).toContain("power on (host power unknown: BMC did not answer)");
    expect(text).not.toContain("reimage");
  });

  it("puts several racks in an overview table, in the order the plans were given", () => {
    const leave = rc("rackform_cluster_member", "x", ["delete"], { node: "r13-u01", scheduler: "slurm" }, null);
    const join = rc("rackform_cluster_member", "y", ["create"], null, { node: "r12-u01", scheduler: "slurm" });
    const s = summarise([
      { plan: plan([leave]), source: "plan-r13.json", label: "r13" },
      { plan: plan([join]), source: "plan-r12.json", label: "r12" },
    ]);
    const text = flat(renderMarkdown(s));
    expect(text).toContain("> **⚠ 1 node will leave the cluster.**");
    expect(text).toContain("| r13 | 1 of 1 | 1 | · |\n| r12 | 1 of 1 | 0 | 1 join the cluster |");
    expect(text.indexOf("### r13")).toBeLessThan(text.indexOf("### r12"));
    expect(text).toContain("| r13-u01 | drain, leave slurm |");
  });

  it("ties for_each instances in a module by their keys when the plan knows no ids yet", () => {
    // GIVEN a create plan of two nodes, every resource `for_each` over the same node keys inside module.rack["r12"]
    const refs = (to: string) => ({ references: [`${to}.id`, to] });
    const configuration = {
      root_module: {
        module_calls: {
          rack: {
            module: {
              resources: [
                { address: "rackform_pdu_outlet.o", type: "rackform_pdu_outlet", name: "o" },
                { address: "rackform_bmc.b", type: "rackform_bmc", name: "b", depends_on: ["rackform_pdu_outlet.o"] },
                {
                  address: "rackform_machine.m",
                  type: "rackform_machine",
                  name: "m",
                  expressions: { bmc_endpoint: refs("rackform_bmc.b") },
                },
                {
                  address: "rackform_deployment.d",
                  type: "rackform_deployment",
                  name: "d",
                  expressions: { machine_id: refs("rackform_machine.m") },
                },
              ],
            },
          },
        },
      },
    };
    const at = (type: string, name: string, key: string, after: Record<string, unknown>, unknown = {}) => ({
      ...rc(type, name, ["create"], null, after, { after_unknown: { id: true, ...unknown } }),
      address: `module.rack["r12"].${type}.${name}["${key}"]`,
      index: key,
    });
    const changes = ["u07", "u08"].flatMap((u, i) => [
      at("rackform_pdu_outlet", "o", u, { pdu_id: "pdu-a", outlet_id: String(7 + i), power_state: "On" }),
      at("rackform_bmc", "b", u, {}, { endpoint: true }),
      at("rackform_machine", "m", u, { name: `r12-${u}`, backend: "maas" }, { bmc_endpoint: true }),
      at("rackform_deployment", "d", u, { image: image("2026.06.2") }, { machine_id: true }),
    ]);
    // THEN each key is one node with its four resources, named after its machine
    const s = summarise([{ plan: plan(changes, { configuration } as Partial<PlanJson>), source: "p", label: "r12" }]);
    expect(s.racks[0].changed.map((n) => [n.name, [...n.cells.keys()]])).toEqual([
      ["r12-u07", ["power", "bmc", "machine", "image"]],
      ["r12-u08", ["power", "bmc", "machine", "image"]],
    ]);
  });

  it("says why acceptance re-runs after a node degraded, and that a tainted deployment is redeployed", () => {
    const evidence = JSON.stringify({ failures: ["gpu_count: found 7, expected 8"] });
    const p = plan([
      rc("rackform_machine", "m", ["no-op"], { id: "maas:a", name: "r12-u07" }, { id: "maas:a", name: "r12-u07" }),
      rc(
        "rackform_deployment",
        "d",
        ["delete", "create"],
        { id: "maas:a", machine_id: "maas:a", image: image("1") },
        {
          machine_id: "maas:a",
          image: image("1"),
        },
        { action_reason: "replace_because_tainted" },
      ),
      rc(
        "rackform_acceptance",
        "a",
        ["delete", "create"],
        { id: "maas:a", machine_id: "maas:a", passed: false, evidence },
        {
          machine_id: "maas:a",
        },
      ),
    ]);
    const text = md(p);
    expect(text).toContain(
      "| r12-u07 | redeploy 1 (failed last apply) | re-run (no longer passing: gpu_count: found 7, expected 8) |",
    );
    expect(text).toContain("> **⚠ 1 node will be reimaged.**");
  });

  it("lists changes outside the node chain apart, and escapes table breakers in values", () => {
    const other = { ...rc("null_resource", "hook", ["create"], null, {}), type: "null_resource" };
    const p = plan([rc("rackform_machine", "m", ["create"], null, { name: "bad|name<b>", backend: "maas" }), other]);
    const text = md(p);
    expect(text).toContain("changes outside the node chain: `null_resource.hook` (create)");
    expect(text).toContain("| bad\\|name&lt;b&gt; | enroll (maas) |");
  });
});

describe("plan-summary command", () => {
  const empty = JSON.stringify(plan([]));

  it("reads stdin when given no file, and writes --out", async () => {
    const { io, out } = fakeIo({}, empty);
    expect(await planSummary(["--out", "summary.md"], io)).toBe(0);
    expect(out.written.get("summary.md")).toContain("## rackform plan summary");
    expect(out.stdout).toBe("");
  });

  it("fails with exit 1 naming the input when it is not a plan: not JSON, state, an unknown format", async () => {
    const state = JSON.stringify({ format_version: "1.0", values: { root_module: {} } });
    const cases: [string, string][] = [
      ["{", "a.json: not JSON"],
      [state, "a.json: this is state, not a plan"],
      [JSON.stringify({ format_version: "2.0" }), "JSON plan format 2.0 is not supported"],
      [JSON.stringify({ format_version: "1.2", resource_changes: [{}] }), "resource_changes[0] lacks address"],
    ];
    for (const [text, message] of cases) {
      const { io, out } = fakeIo({ "a.json": text });
      expect(await planSummary(["a.json"], io)).toBe(1);
      expect(out.stderr).toContain(message);
    }
  });

  it("fails with exit 1 when a file is missing, and with exit 2 on a bad flag", async () => {
    const missing = fakeIo({});
    expect(await planSummary(["--plan", "r12=nope.json"], missing.io)).toBe(1);
    expect(missing.out.stderr).toContain("nope.json: ENOENT");
    const bad = fakeIo({});
    expect(await planSummary(["--bogus"], bad.io)).toBe(2);
    expect(bad.out.stderr).toBe(
      "rackform plan-summary: unknown option --bogus; `rackform plan-summary --help` lists the options\n",
    );
  });

  it("parses RACK=FILE, keeps '=' in file names with a path, and refuses stdin twice", () => {
    expect(parsePlanArg("r12=plan-r12.json")).toEqual({ label: "r12", path: "plan-r12.json" });
    expect(parsePlanArg("out/a=b.json")).toEqual({ path: "out/a=b.json" });
    expect(parsePlanArg("r12=")).toEqual({ label: "r12", path: "-" });
    expect(parseArgs(["--plan=r1=a.json", "b.json"])).toEqual({
      plans: [{ label: "r1", path: "a.json" }, { path: "b.json" }],
      out: undefined,
      help: false,
      onlyHealth: false,
    });
    expect(parseArgs(["-", "--plan", "r1=-"])).toBe("stdin (-) can be read only once; give it for one plan");
  });

  it("names the backend a machine is enrolled in, BCM included", () => {
    const p = plan([
      rc("rackform_machine", "a", ["create"], null, { name: "r12-u01", backend: "bcm" }),
      rc("rackform_machine", "b", ["delete"], { name: "r12-u02", backend: "bcm" }, null),
    ]);
    const text = md(p);
    expect(text).toContain("| r12-u01 | enroll (bcm) |");
    expect(text).toContain("| r12-u02 | release (bcm) |");
  });
});
