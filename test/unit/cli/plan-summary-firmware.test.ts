/**
 * plan-summary with a node's firmware baseline (rackform_firmware): the resource belongs to its node by its endpoint
 * (= the BMC's), the Firmware column shows each component that moves and the BIOS settings that change (the baseline
 * from the configuration on create), a firmware change on a node that exists is a host reset (⚠), and a rolling one —
 * the member's firmware_ref moves — is a drain within the budget, gate re-run. Hand-made plans in the engines' format.
 */
import { describe, expect, it } from "vitest";
import { type PlanJson, planNodes, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import type { ValueMask } from "../../../src/cli/plan-summary/plan-json.js";
import { plan, rc } from "../../support/plan-json.js";

const flat = (text: string) => text.replace(/ {2,}/g, " ");
const md = (p: PlanJson) => flat(renderMarkdown(summarise([{ plan: p, source: "plan.json", label: "r01" }])));

type Values = Record<string, unknown>;
interface Step {
  readonly actions: string[];
  readonly before: Values | null;
  readonly after: Values | null;
  readonly unknown?: { readonly [key: string]: ValueMask };
}
const same = (values: Values): Step => ({ actions: ["no-op"], before: values, after: values });
const moved = (before: Values, after: Values): Step => ({ actions: ["update"], before, after });

const bmcOf = (i: number) => `https://127.10.1.${i}`;
const fwState = (i: number, versions: Values, settings: Values = {}, more: Values = {}): Values => ({
  id: bmcOf(i),
  endpoint: bmcOf(i),
  rolling: false,
  versions,
  bios_settings: settings,
  bios_pending: {},
  ref: `${bmcOf(i)}#${JSON.stringify([versions, settings])}`,
  last_update_messages: [],
  ...more,
});
const gateOf = (i: number, more: Values = {}): Values => ({
  id: `acc${i}`,
  machine_id: `maas:m${i}`,
  passed: true,
  ...more,
});
const memberOf = (i: number, more: Values = {}): Values => ({
  node: `r01-n0${i}`,
  scheduler: "slurm",
  gate_id: `acc${i}`,
  partitions: ["gpu"],
  joined: true,
  max_unavailable: 1,
  ...more,
});

/** A joined node's chain, tied by values only (the firmware by its endpoint): every step a no-op unless given. */
function node(i: number, firmware: Step, steps: { acceptance?: Step; member?: Step; deployment?: Step } = {}) {
  const n = `r01_n0${i}`;
  const change = (type: string, id: string, s: Step) =>
    rc(type, `${n}_${id}`, s.actions, s.before, s.after, s.unknown ? { after_unknown: s.unknown } : {});
  return [
    change("rackform_bmc", "bmc", same({ endpoint: bmcOf(i), conformant: true })),
    change("rackform_firmware", "firmware", firmware),
    change("rackform_machine", "machine", same({ id: `maas:m${i}`, name: `r01-n0${i}`, bmc_endpoint: bmcOf(i) })),
    change(
      "rackform_deployment",
      "deployment",
      steps.deployment ?? same({ id: `maas:m${i}`, machine_id: `maas:m${i}`, power_state: "on" }),
    ),
    change("rackform_acceptance", "acceptance", steps.acceptance ?? same(gateOf(i))),
    change("rackform_cluster_member", "member", steps.member ?? same(memberOf(i))),
  ];
}

const BIOS_21 = { BIOS: "2.1", "GPU firmware": "96.00.5E" };
const BIOS_23 = { BIOS: "2.3", "GPU firmware": "96.00.5E" };

describe("plan-summary: the Firmware column", () => {
  it("ties the firmware to its node by the BMC's endpoint (another spelling too)", () => {
    const fw = fwState(1, BIOS_21, {}, { endpoint: "https://127.10.1.1:443/" });
    const { nodes } = planNodes(plan(node(1, same(fw))));
    expect(nodes.map((n) => [n.name, [...n.changes.keys()]])).toEqual([
      ["r01-n01", expect.arrayContaining(["rackform_bmc", "rackform_firmware", "rackform_machine"])],
    ]);
  });

  it("an update: each moving component and the BIOS settings named (≤ 3); a host reset, so ⚠", () => {
    const p = plan([
      ...node(
        1,
        moved(
          fwState(1, BIOS_21, { SriovGlobalEnable: "Disabled", ProcVirtualization: "Enabled" }),
          fwState(1, BIOS_23, { SriovGlobalEnable: "Enabled", ProcVirtualization: "Enabled" }),
        ),
      ),
      ...node(2, same(fwState(2, BIOS_23))),
    ]);
    const text = md(p);
    expect(text).toContain("### r01 · 1 of 2 nodes change");
    expect(text).toContain("| Node | Firmware |");
    expect(text).toContain("| r01-n01 | BIOS 2.1 → 2.3, BIOS SriovGlobalEnable Disabled → Enabled |");
    expect(text).toContain("1 firmware update (host reset)");
    expect(text).toContain("> **⚠ 1 node will be reset for a firmware update.**");
    // no cluster member carries it out (no firmware_ref moves): out of service without a drain
    expect(text).toContain("1 node out without a drain");
  });

  it("more than three BIOS settings are counted; versions still unknown read from the configured baseline", () => {
    const before = fwState(1, BIOS_21, { A: "1", B: "1", C: "1", D: "1" });
    const after = {
      ...fwState(1, {}, {}),
      versions: null,
      bios_settings: null,
      components: { BIOS: { version: "2.3", url: "http://images/bios-2.3.bin", sha256: "a".repeat(64) } },
      bios: { A: "2", B: "2", C: "2", D: "2" },
    };
    const p = plan(node(1, { ...moved(before, after), unknown: { versions: true, bios_settings: true, ref: true } }));
    expect(md(p)).toContain("| r01-n01 | BIOS 2.1 → 2.3, 4 BIOS settings |");
  });

  it("a create shows the baseline from the configuration, without ⚠", () => {
    const after = {
      endpoint: bmcOf(1),
      rolling: true,
      components: {
        BIOS: { version: "2.3", url: "http://images/bios-2.3.bin", sha256: "a".repeat(64) },
        "GPU firmware": { version: "96.00.61", url: "http://images/gpu.bin", sha256: "b".repeat(64) },
      },
      bios: { SriovGlobalEnable: "Enabled", ProcVirtualization: "Enabled" },
    };
    const firmware = { actions: ["create"], before: null, after, unknown: { versions: true, bios_settings: true } };
    const text = md(plan(node(1, firmware)));
    expect(text).toContain("| r01-n01 | BIOS → 2.3, GPU firmware → 96.00.61, 2 BIOS settings |");
    expect(text).toContain("1 firmware baseline");
    expect(text).not.toContain("⚠");
  });

  it("no column when no node's firmware moves", () => {
    const p = plan([
      ...node(1, same(fwState(1, BIOS_23))),
      ...node(2, same(fwState(2, BIOS_23)), {
        acceptance: moved(gateOf(2, { policy: "a" }), gateOf(2, { policy: "b" })),
      }),
    ]);
    const text = md(p);
    expect(text).not.toContain("Firmware");
    expect(text).not.toContain("firmware");
  });
});

describe("plan-summary: a rolling firmware update", () => {
  const ref = (v: string) => `https://127.10.1.1#bios-${v}`;
  const rolling = (i: number, member: Values = {}) =>
    node(i, moved(fwState(i, BIOS_21, {}, { rolling: true }), fwState(i, BIOS_23, {}, { rolling: true })), {
      acceptance: moved(gateOf(i, { firmware_ref: ref("2.1") }), gateOf(i, { firmware_ref: ref("2.3") })),
      member: moved(
        memberOf(i, { firmware_ref: ref("2.1"), ...member }),
        memberOf(i, { firmware_ref: ref("2.3"), ...member }),
      ),
    });

  it("the member drains, updates, resets, gates and rejoins within the budget; counted as a drain", () => {
    const text = md(plan([...rolling(1), ...rolling(2)]));
    expect(text).toContain(
      "| r01-n01 | BIOS 2.1 → 2.3 | re-run after the firmware update | drain, firmware update and reset, gate, rejoin slurm (one step, within the budget) |",
    );
    expect(text).toContain(
      "Rollout, slurm partition gpu: 2 nodes reset for a firmware update, under max_unavailable = 1.",
    );
    expect(text).not.toContain("out without a drain");
    expect(text).not.toContain("may be out of service at once");
  });

  it("without max_unavailable every node may go at once: ⚠ in the rollout shape", () => {
    const text = md(plan([...rolling(1, { max_unavailable: null }), ...rolling(2, { max_unavailable: null })]));
    expect(text).toContain(
      "> **⚠ slurm partition gpu: every node (2 of 2) may be out of service at once — no max_unavailable is set.**",
    );
  });

  it("with a reimage in the same apply, the firmware is applied at the reimage's boot", () => {
    const img = (v: string) => `ubuntu-gpu@${v}`;
    const chain = node(
      1,
      moved(fwState(1, BIOS_21, {}, { rolling: true }), fwState(1, BIOS_23, {}, { rolling: true })),
      {
        acceptance: moved(
          gateOf(1, { firmware_ref: ref("2.1"), image_ref: img("1") }),
          gateOf(1, { firmware_ref: ref("2.3"), image_ref: img("2") }),
        ),
        member: moved(
          memberOf(1, { firmware_ref: ref("2.1"), image_ref: img("1") }),
          memberOf(1, { firmware_ref: ref("2.3"), image_ref: img("2") }),
        ),
      },
    );
    const text = md(plan(chain));
    expect(text).toContain(
      "drain, reimage (firmware applied at its boot), gate, rejoin slurm (one step, within the budget)",
    );
    expect(text).toContain("re-run after the rolling reimage");
  });

  it("with the rolling reimage itself in the plan, the node counts one reimage, not also a firmware reset", () => {
    const dep = (v: string) => ({
      id: "maas:m1",
      machine_id: "maas:m1",
      power_state: "on",
      rolling: true,
      image: { name: "ubuntu-gpu", version: v },
    });
    const chain = node(
      1,
      moved(fwState(1, BIOS_21, {}, { rolling: true }), fwState(1, BIOS_23, {}, { rolling: true })),
      { deployment: moved(dep("2026.06"), dep("2026.07")) },
    );
    const text = md(plan(chain));
    expect(text).toContain("BIOS 2.1 → 2.3 (activated by the reimage's boot)");
    expect(text).toContain("1 reimage");
    expect(text).not.toContain("firmware update (host reset)");
    expect(text).not.toContain("reset for a firmware update");
  });
});

describe("plan-summary: firmware drift", () => {
  it("a component flashed by hand shows beside the fix", () => {
    const recorded = fwState(1, BIOS_23);
    const found = fwState(1, BIOS_21);
    const p = plan(node(1, moved(found, recorded)), {
      resource_drift: [rc("rackform_firmware", "r01_n01_firmware", ["update"], recorded, found)],
    });
    expect(md(p)).toContain("| r01-n01 | firmware versions BIOS 2.3 → 2.1 | Firmware: BIOS 2.1 → 2.3 |");
  });
});
