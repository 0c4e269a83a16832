/**
 * The watch's `attesting` stage (issue 34): a node whose gate attests its components is attesting once its backend
 * reports the gate's tests over while state has not recorded the gate; a gate that failed its attestation is
 * quarantined naming the component.
 */
import { describe, expect, it } from "vitest";
import { PATH, STAGE_COLOUR, STAGE_LABEL, type StageReading, stageFromState } from "../../../src/cli/stages.js";
import { type BackendReading, nodeStage } from "../../../src/cli/stages-live.js";
import type { LiveView } from "../../../src/cli/watch/live.js";
import { WatchModel } from "../../../src/cli/watch/model.js";
import { watchPage } from "../../../src/cli/watch/page.js";
import { renderTable } from "../../../src/cli/watch/render.js";
import type { StateResource } from "../../../src/cli/watch/sources.js";

const tok = (what: string) => `$${"{"}${what}}`;
const maas = (status: string): BackendReading => ({ backend: "maas", status, owned: true });
const ironic = (status: string): BackendReading => ({ backend: "ironic", status });

const bmc = { values: { endpoint: "https://127.10.1.1" } };
const machine = { values: { id: "maas:m1" } };
const deployment = { values: { id: "maas:m1" } };
/** State of a node deployed, its gate (which attests) being created: not recorded yet. */
const gating = (): StageReading => stageFromState({ bmc, machine, deployment }, { attests: true });

describe("rackform watch: attesting", () => {
  it("sits after testing and before joined on the path, with its label and colour", () => {
    expect(PATH.slice(PATH.indexOf("deployed"))).toEqual(["deployed", "testing", "attesting", "joined"]);
    expect(STAGE_LABEL.attesting).toBe("attesting");
    expect(STAGE_COLOUR.attesting).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("state alone says deployed: it cannot tell the gate's tests from its attestation", () => {
    expect(gating()).toEqual({ stage: "deployed", attests: true });
    expect(stageFromState({ bmc, machine, deployment })).toEqual({ stage: "deployed" });
    expect(nodeStage(gating()).stage).toBe("deployed");
  });

  it("is the gate's tests while the backend runs them, attesting once the backend reports them over", () => {
    // MAAS: the gate's testing of the deployed machine, then Deployed again while the BMC is asked for measurements
    expect(nodeStage(gating(), maas("Testing")).stage).toBe("testing");
    expect(nodeStage(gating(), maas("Deployed"))).toEqual({ stage: "attesting" });
    // Ironic: the gate's service step, then active again
    expect(nodeStage(gating(), ironic("service wait")).stage).toBe("testing");
    expect(nodeStage(gating(), ironic("active"))).toEqual({ stage: "attesting" });
    // a gate without attestation: deployed, as before
    expect(nodeStage(stageFromState({ bmc, machine, deployment }), maas("Deployed")).stage).toBe("deployed");
    // the backend's trouble still wins
    expect(nodeStage(gating(), { ...maas("Broken"), message: "rackform: gate failed" }).stage).toBe("quarantined");
  });

  it("is never claimed where the backend's status does not show the gate's tests (BCM, Warewulf)", () => {
    expect(nodeStage(gating(), { backend: "bcm", status: "UP" }).stage).toBe("deployed");
    expect(nodeStage(gating(), { backend: "warewulf", status: "deployed" }).stage).toBe("deployed");
  });

  it("ends when state records the gate: passed, the node joins; failed, quarantined naming the component", () => {
    const passed = { values: { passed: true, attestation_evidence: "{}" } };
    expect(
      nodeStage(stageFromState({ bmc, deployment, acceptance: passed }, { attests: true }), maas("Deployed")),
    ).toEqual({ stage: "testing" });
    const evidence = JSON.stringify({
      format: "rackform-attestation/v1",
      components: [
        { id: "GPU_0", kind: "GPU", passed: true, problems: [] },
        {
          id: "GPU_3",
          kind: "GPU",
          passed: false,
          problems: ["measurement index 2: expected 9f…01, measured 3c…7e"],
        },
      ],
    });
    const failed = { values: { passed: false, evidence: null, attestation_evidence: evidence }, tainted: true };
    expect(stageFromState({ bmc, deployment, acceptance: failed }, { attests: true })).toEqual({
      stage: "quarantined",
      detail: "attestation: GPU_3 (GPU) measurement index 2: expected 9f…01, measured 3c…7e",
    });
  });
});

describe("rackform watch: a rack whose gates attest", () => {
  /** A cdk.tf.json of one node, its gate attesting when `attest`. */
  const config = (attest: boolean) => ({
    resource: {
      rackform_bmc: { a_bmc: { endpoint: "https://127.10.1.1" } },
      rackform_machine: {
        a_machine: { name: "node-a", backend: "maas", bmc_endpoint: tok("rackform_bmc.a_bmc.endpoint") },
      },
      rackform_deployment: { a_deployment: { machine_id: tok("rackform_machine.a_machine.id") } },
      rackform_acceptance: {
        a_gate: {
          machine_id: tok("rackform_deployment.a_deployment.id"),
          ...(attest
            ? {
                attestation: {
                  bmc_endpoint: tok("rackform_bmc.a_bmc.endpoint"),
                  trust_anchors: ["-----BEGIN CERTIFICATE-----…"],
                  reference_values: '{"rackform_reference_values":1,"references":[]}',
                  reference_sha256: "0".repeat(64),
                },
              }
            : {}),
        },
      },
    },
  });
  const resource = (type: string, name: string, values: Record<string, unknown>, deps: string[] = []) =>
    ({ address: `${type}.${name}`, mode: "managed", type, name, values, depends_on: deps }) as StateResource;
  /** State of node-a deployed, its gate not recorded yet. */
  const resources = [
    resource("rackform_bmc", "a_bmc", { endpoint: "https://127.10.1.1" }),
    resource("rackform_machine", "a_machine", { id: "maas:m1", name: "node-a", backend: "maas" }, [
      "rackform_bmc.a_bmc",
    ]),
    resource("rackform_deployment", "a_deployment", { id: "maas:m1", machine_id: "maas:m1" }, [
      "rackform_machine.a_machine",
    ]),
  ];
  const deployed: LiveView = { byName: new Map([["node-a", maas("Deployed")]]), errors: [] };

  it("shows the node attesting in the counts, the table and the page when its gate's configuration attests", () => {
    const s = new WatchModel().update([{ label: "r1", read: { resources, config: config(true) } }], deployed, 0);
    expect(s.racks[0].nodes.map((n) => [n.name, n.stage])).toEqual([["node-a", "attesting"]]);
    expect(s.racks[0].counts).toEqual({ attesting: 1 });
    expect(renderTable(s)).toMatch(/^rack\s+nodes\s+.*\stesting\s+attesting\s+joined$/m);
    const html = watchPage(s);
    expect(html).toMatch(/const ORDER=\[[^\]]*"testing","attesting","joined"/);
    expect(html).toContain('"attesting":"attesting"');
  });

  it("shows it deployed when its gate does not attest", () => {
    const s = new WatchModel().update([{ label: "r1", read: { resources, config: config(false) } }], deployed, 0);
    expect(s.racks[0].nodes.map((n) => [n.name, n.stage])).toEqual([["node-a", "deployed"]]);
  });
});
