/**
 * plan-summary with trust at join: a node's Secure Boot change (rackform_firmware secure_boot, activated by the node's
 * reset: ⚠), Secure Boot turned off by hand (drift, shown as a cause), and what each gate attests (the components its
 * last run listed, else the kinds required). Hand-made plans in the engines' format.
 */
import { describe, expect, it } from "vitest";
import { type PlanJson, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { plan, rc } from "../../support/plan-json.js";

const flat = (text: string) => text.replace(/ {2,}/g, " ");
const md = (p: PlanJson) => flat(renderMarkdown(summarise([{ plan: p, source: "plan.json", label: "r01" }])));

type Values = Record<string, unknown>;
const bmc = "https://127.10.1.1";
const on = { enabled: true, current_boot: "Enabled", mode: "UserMode", missing: [] };
const fw = (status: Values | null, more: Values = {}): Values => ({
  id: bmc,
  endpoint: bmc,
  rolling: true,
  versions: {},
  bios_settings: {},
  bios_pending: {},
  secure_boot: { enabled: true, db: null, kek: null, dbx: null },
  secure_boot_status: status,
  ref: `${bmc}#x/1`,
  last_update_messages: [],
  ...more,
});
const attestation = (components: string[] | null) => ({
  bmc_endpoint: bmc,
  trust_anchors: ["(pem)"],
  reference_values: "{}",
  reference_sha256: "a".repeat(64),
  components,
});

function chain(firmware: [string[], Values | null, Values | null], gate: [string[], Values | null, Values | null]) {
  const n = "r01_n01";
  return [
    rc("rackform_bmc", `${n}_bmc`, ["no-op"], { endpoint: bmc, conformant: true }, { endpoint: bmc, conformant: true }),
    rc("rackform_firmware", `${n}_firmware`, ...firmware),
    rc(
      "rackform_machine",
      `${n}_machine`,
      ["no-op"],
      { id: "maas:m1", name: "r01-n01", bmc_endpoint: bmc },
      { id: "maas:m1", name: "r01-n01", bmc_endpoint: bmc },
    ),
    rc("rackform_acceptance", `${n}_acceptance`, ...gate),
  ];
}

describe("plan-summary: trust at join", () => {
  it("Secure Boot off on a node that exists: the way back is a reset (⚠); a baseline that enforces it says so", () => {
    const off = { ...on, enabled: false, current_boot: "Disabled" };
    const gate = { id: "maas:m1", machine_id: "maas:m1", passed: true };
    const text = md(plan(chain([["update"], fw(off), fw(on, { ref: `${bmc}#x/2` })], [["no-op"], gate, gate])));
    expect(text).toContain("⚠ Secure Boot off → on (reboot)");
    expect(text).toContain("1 firmware update (host reset)");
    const created = md(plan(chain([["create"], null, fw(null)], [["no-op"], gate, gate])));
    expect(created).toContain("Secure Boot on");
  });

  it("a gate that attests: the components its last run listed, else the kinds required, else every SPDM component", () => {
    const evidence = JSON.stringify({ format: "rackform-attestation/v1", components: [{}, {}, {}, {}, {}] });
    const before = {
      id: "maas:m1",
      machine_id: "maas:m1",
      passed: false,
      attestation: attestation(null),
      attestation_evidence: evidence,
    };
    const noFw = [["no-op"], fw(on), fw(on)] as [string[], Values, Values];
    const rerun = md(plan(chain(noFw, [["delete", "create"], before, { ...before, attestation_evidence: null }])));
    expect(rerun).toContain("re-run + attest 5 components (no longer passing");
    const first = { machine_id: "maas:m1", attestation: attestation(["GPU", "BMC"]) };
    expect(md(plan(chain(noFw, [["create"], null, first])))).toContain("run + attest GPU, BMC");
    const every = { machine_id: "maas:m1", attestation: attestation(null) };
    expect(md(plan(chain(noFw, [["create"], null, every])))).toContain("run + attest every SPDM component");
  });
});
