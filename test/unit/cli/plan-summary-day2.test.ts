/**
 * plan-summary on day-2 plans: the rollout's shape against the disruption budget, nodes counted as nodes when one is
 * removed, the "Changed outside rackform" section from resource_drift, and reimage cells that always say what changes.
 * Golden plans (rollout.json, drift.json) are real `show -json` output recorded from the lab by
 * scripts/record-plans.mjs; the other plans are hand-made in the engines' format (test/support/plan-json.ts).
 */
import { describe, expect, it } from "vitest";
import { type PlanJson, planNodes, renderMarkdown, summarise } from "../../../src/cli/plan-summary/index.js";
import { image, plan, planFixture, rc } from "../../support/plan-json.js";

/** Markdown with table padding folded, so assertions read as the rows do. */
const flat = (text: string) => text.replace(/ {2,}/g, " ");
const md = (p: PlanJson, label = "r01") => flat(renderMarkdown(summarise([{ plan: p, source: "plan.json", label }])));

/** A Slurm member of partition `gpu` with the given plan actions and max_unavailable. */
const member = (node: string, actions: string[], max: number | null, drain = true) => {
  const state = { node, scheduler: "slurm", partitions: ["gpu"], max_unavailable: max, drain_on_destroy: drain };
  return rc(
    "rackform_cluster_member",
    node.replace("-", "_"),
    actions,
    state,
    actions.includes("create") ? state : null,
  );
};

describe("plan-summary states the rollout's shape", () => {
  it("reimage under max_unavailable = 2 with one node removed: 8 nodes (not 9), at most 2 out at once, no warning", () => {
    // GIVEN the recorded plan: 7 nodes reimaged, r01-n08 removed from the configuration (its outlet included)
    const p = planFixture("rollout");
    // THEN the removed node's outlet belongs to that node: 8 nodes, r01-n08 with its whole chain
    const { nodes } = planNodes(p);
    expect(nodes.map((n) => n.name)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `r01-n0${i}`));
    expect([...nodes[7].changes.keys()]).toContain("rackform_pdu_outlet");
    const text = md(p);
    expect(text).toContain("### r01 · 8 of 8 nodes change");
    expect(text).not.toContain("outlet 4 |");
    // AND the rack's rollout line says what goes out under which budget, the whole change how many at once, with no
    // budget warning
    expect(text).toContain("Rollout, slurm partition gpu: 7 nodes reimaged and 1 removed, under max_unavailable = 2.");
    expect(text).toContain(
      "Budget, slurm partition gpu: 7 nodes reimaged and 1 removed in r01; at most 2 of its nodes out of service at once for the whole change (max_unavailable = 2)",
    );
    expect(text).not.toContain("may be out of service at once");
  });

  it("warns when no budget is set and the plan takes every node of the partition out", () => {
    const text = md(planFixture("reimage"));
    expect(text).toContain(
      "> **⚠ slurm partition gpu: every node (8 of 8) may be out of service at once — no max_unavailable is set.**",
    );
    expect(text).toContain("Rollout, slurm partition gpu: 8 nodes reimaged, no max_unavailable: all 8 may be out");
  });

  it("does not warn without a budget when some nodes of the partition stay in service", () => {
    const p = plan([member("r01-n01", ["delete", "create"], null), member("r01-n02", ["no-op"], null)]);
    const text = md(p);
    expect(text).toContain("Rollout, slurm partition gpu: 1 node drained and rejoined, no max_unavailable.");
    expect(text).not.toContain("⚠ slurm");
  });

  it("warns when more nodes may be out at once than the budget: a drain without one, an outlet switched off", () => {
    // GIVEN 5 nodes of partition gpu: 2 drained under max_unavailable = 1, 1 drained without a budget, 1 whose
    // outlet is switched off while its member stays (no drain), 1 left alone
    const off = rc(
      "rackform_pdu_outlet",
      "r01_n04",
      ["update"],
      { pdu_id: "pdu-a", outlet_id: "4", power_state: "On" },
      { pdu_id: "pdu-a", outlet_id: "4", power_state: "Off" },
    );
    const p = plan([
      member("r01-n01", ["delete", "create"], 1),
      member("r01-n02", ["delete", "create"], 1),
      member("r01-n03", ["delete"], null),
      member("r01-n04", ["no-op"], 1),
      member("r01-n05", ["no-op"], 1),
      off,
    ]);
    // the outlet belongs to r01-n04 only by configuration in a real plan; tie it here by a reference
    const configured: PlanJson = {
      ...p,
      configuration: {
        root_module: {
          resources: [
            {
              address: "rackform_cluster_member.r01_n04",
              type: "rackform_cluster_member",
              name: "r01_n04",
              depends_on: ["rackform_pdu_outlet.r01_n04"],
            },
          ],
        },
      },
    };
    const text = md(configured);
    expect(text).toContain(
      "> **⚠ slurm partition gpu: up to 3 of 5 nodes may be out of service at once, more than max_unavailable = 1: " +
        "r01-n03 (no max_unavailable), r01-n04 (power-off without a drain).**",
    );
    expect(text).toContain(
      "Rollout, slurm partition gpu: 2 nodes drained and rejoined, 1 removed and 1 out without a drain, under max_unavailable = 1, and 2 that no budget holds back.",
    );
    expect(text).toContain(
      "at most 3 of its nodes out of service at once for the whole change (max_unavailable = 1, 2 of them held back by no budget)",
    );
  });

  it("keeps budgets apart: Slurm by partition set, Kubernetes as one cluster", () => {
    const k8s = (node: string) => {
      const state = { node, scheduler: "kubernetes", max_unavailable: 1 };
      return rc("rackform_cluster_member", node.replace("-", "_"), ["delete", "create"], state, state);
    };
    const p = plan([member("r01-n01", ["delete", "create"], 2), k8s("r02-n01"), k8s("r02-n02")]);
    const s = summarise([{ plan: p, source: "plan.json" }]);
    expect(s.plans[0].rollouts.map((r) => [r.budget, r.nodes, r.atOnce, r.warning])).toEqual([
      ["kubernetes", 2, 1, undefined],
      ["slurm partition gpu", 1, 1, undefined],
    ]);
    // an unlabelled plan carries its rollout in the status lines
    expect(flat(renderMarkdown(s))).toContain(
      "ℹ `plan.json`: Rollout, kubernetes: 2 nodes drained and rejoined, under max_unavailable = 1.",
    );
  });
});

describe("plan-summary shows what changed outside rackform beside the fix", () => {
  it("an outlet switched off and a GPU lost: each node's causes and its planned fix", () => {
    // GIVEN the recorded plan after r01-n02's outlet was switched off and r01-n05 lost a GPU behind the engine's back
    const text = md(planFixture("drift"));
    expect(text).toContain("### Changed outside rackform\n\n| Node | Changed outside rackform | Planned fix |");
    // r01-n02's host is gone: Slurm noticed (DOWN, its slurmd NOT_RESPONDING), so its member rejoins beside the power-on
    expect(text).toContain(
      "| r01-n02 | outlet power_state On → Off; BMC conformant true → false; host power_state on → unknown; " +
        "cluster joined true → false; cluster state IDLE → DOWN+NOT_RESPONDING | " +
        "Power: Off → On; BMC: re-check (not conformant); Image: power on (host power unknown: BMC did not answer); " +
        "Cluster: rejoin (not joined now) |",
    );
    // r01-n05's lost GPU re-runs its gate (which quarantines it) and drains its member
    expect(text).toContain(
      "| r01-n05 | BMC conformant true → false; BMC gpu_count 8 → 7 | " +
        "BMC: re-check (not conformant); Acceptance: re-run; Cluster: drain, rejoin slurm |",
    );
    // the status read at enrollment and the BMC's power read before the deploy are rackform's own doing: not shown
    expect(text).not.toMatch(/r01-n0[13678] \|/);
    expect(text).not.toContain("Ready → Deployed");
  });

  it("never prints a sensitive or unknown value in a cause; lists and maps are named, not dumped", () => {
    const secret = "SERIAL-s3cr3t";
    const drift = [
      rc(
        "rackform_bmc",
        "b",
        ["update"],
        { endpoint: "https://10.0.0.1", serial: secret, macs: ["02:00:00:00:00:01"], firmware: { bios: "1.0" } },
        { endpoint: "https://10.0.0.1", serial: `${secret}-2`, macs: ["02:00:00:00:00:02"], firmware: { bios: "1.1" } },
        { before_sensitive: { serial: true }, after_sensitive: { serial: true } },
      ),
      rc("rackform_cluster_member", "m", ["update"], { node: "n1", joined: true }, { node: "n1", joined: false }),
    ];
    const p = plan(
      [rc("rackform_bmc", "b", ["no-op"], drift[0].change.after as never, drift[0].change.after as never)],
      {
        resource_drift: drift,
      },
    );
    const text = md(p);
    expect(text).not.toContain(secret);
    expect(text).toContain("BMC serial changed; BMC macs changed; BMC firmware bios 1.0 → 1.1");
    expect(text).toContain("cluster joined true → false");
  });

  it("shows nothing for a plan without drift, and a resource deleted outside rackform as such", () => {
    expect(md(planFixture("create"))).not.toContain("Changed outside rackform");
    const gone = rc("rackform_machine", "m", ["delete"], { name: "r01-n03", id: "maas:x" }, null);
    const recreate = rc("rackform_machine", "m", ["create"], null, { name: "r01-n03", backend: "maas" });
    expect(md(plan([recreate], { resource_drift: [gone] }))).toContain(
      "| r01-n03 | machine deleted outside rackform | Machine: enroll (maas) |",
    );
  });
});

describe("plan-summary never prints a 'reimage X → X' cell", () => {
  const replaced = (before: Record<string, unknown>, after: Record<string, unknown>, paths: string[][]) =>
    plan([
      rc("rackform_deployment", "d", ["delete", "create"], { id: "maas:a", machine_id: "maas:a", ...before }, after, {
        replace_paths: paths,
        after_unknown: { id: true },
      }),
    ]);

  it("same version with a new sha256 and URL: says so", () => {
    const p = replaced({ image: image("2026.06.2") }, { machine_id: "maas:a", image: image("2026.06.2", "ff") }, [
      ["image", "sha256"],
      ["image", "url"],
    ]);
    expect(md(p)).toContain("| reimage 2026.06.2 (new sha256, url) |");
  });

  it("same image on a new machine: says the machine is new", () => {
    const p = replaced({ image: image("2026.06.2") }, { machine_id: "maas:b", image: image("2026.06.2") }, [
      ["machine_id"],
    ]);
    expect(md(p)).toContain("| reimage 2026.06.2 (new machine) |");
  });

  it("holds on every golden plan", () => {
    for (const name of ["create", "reimage", "partial-failure", "destroy", "rollout", "rolling", "drift"]) {
      expect(md(planFixture(name)), name).not.toMatch(/reimage (\S+) → \1 /);
    }
  });
});

describe("plan-summary on a rotated BMC password", () => {
  it("says the machine gets new BMC credentials, in place, without printing the fingerprint", () => {
    const before = { name: "r01-n01", backend: "maas", bmc_credentials_fingerprint: "scrypt1$a$b", status: "Deployed" };
    const after = { ...before, bmc_credentials_fingerprint: "scrypt1$a$c" };
    const text = md(plan([rc("rackform_machine", "r01_n01", ["update"], before, after)]));
    expect(text).toContain("update (new BMC credentials)");
    expect(text).not.toContain("scrypt1");
    expect(text).not.toContain("⚠");
  });
});

describe("plan-summary on a re-addressed BMC and PDU", () => {
  it("shows the new addresses as in-place changes of that node, with no warning banner", () => {
    // GIVEN a plan that moves r01-n01's BMC and its PDU to new addresses (as the provider plans it: in place)
    const bmcBefore = { endpoint: "https://10.0.1.7", serial: "S1", conformant: true, power_state: "On" };
    const bmcAfter = { ...bmcBefore, endpoint: "https://10.2.1.7" };
    const outletBefore = { endpoint: "https://10.0.9.1", pdu_id: "r01-pdu-a", outlet_id: "1", power_state: "On" };
    const outletAfter = { ...outletBefore, endpoint: "https://10.2.9.1" };
    const machineBefore = { name: "r01-n01", backend: "maas", bmc_endpoint: "https://10.0.1.7", status: "Deployed" };
    const machineAfter = { ...machineBefore, bmc_endpoint: "https://10.2.1.7" };
    const p = plan([
      rc("rackform_pdu_outlet", "r01_n01", ["update"], outletBefore, outletAfter),
      rc("rackform_bmc", "r01_n01", ["update"], bmcBefore, bmcAfter, {
        after_unknown: { power_state: true },
      }),
      rc("rackform_machine", "r01_n01", ["update"], machineBefore, machineAfter, {
        after_unknown: { status: true, state: true },
      }),
    ]);
    // THEN the rows say what moved where (the outlet joins the node through depends_on in a real plan)
    const text = md(p);
    expect(text).toContain("| PDU address https://10.0.9.1 → https://10.2.9.1 |");
    expect(text).toContain("| BMC address https://10.0.1.7 → https://10.2.1.7 |");
    expect(text).toContain("| update (new BMC address for the backend) |");
    // AND nothing is counted as disruptive: no banner, no reimage
    expect(text).not.toContain("⚠");
    expect(text).not.toContain("reimage");
  });
});
