/**
 * `rackform watch` without an engine: stages from recorded state (a real rack's state from the partial-failure
 * fixture), nodes the configuration declares before state has them, the backends' status on top, the ETA learnt from
 * observed stage durations, the terminal table, the page and its server.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BackendReading } from "../../../src/cli/stages-live.js";
import { EtaTracker } from "../../../src/cli/watch/eta.js";
import { backendSettings, type LiveView } from "../../../src/cli/watch/live.js";
import { WatchModel } from "../../../src/cli/watch/model.js";
import { watchPage } from "../../../src/cli/watch/page.js";
import { renderLines, renderTable } from "../../../src/cli/watch/render.js";
import { parseListen, startWatchServer } from "../../../src/cli/watch/server.js";
import type { StateResource } from "../../../src/cli/watch/sources.js";
import { ROOT } from "../../support/rackform-e2e.js";

/** The state a real 8-node rack apply left: 6 joined, 2 failed their acceptance gate (tainted, evidence recorded). */
function partialFailureState(): StateResource[] {
  const plan = JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "plans", "partial-failure.json"), "utf8"));
  return plan.prior_state.values.root_module.resources;
}

/** A Terraform JSON interpolation, `${what}`. */
const tok = (what: string) => `$${"{"}${what}}`;

const live = (entries: Record<string, BackendReading>): LiveView => ({
  byName: new Map(Object.entries(entries)),
  errors: [],
});

describe("rackform watch: stages from state", () => {
  it("counts a converged rack with two failed gates as 6 joined and 2 quarantined, with the gates' evidence", () => {
    // GIVEN the state of a rack where two nodes failed acceptance
    const model = new WatchModel();
    // WHEN the watch reads it
    const s = model.update([{ label: "r01", read: { resources: partialFailureState() } }], undefined, 0);
    // THEN every node is in the rack, by name, and the counts and failures are those of the rack
    expect(s.racks[0].nodes.map((n) => n.name)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `r01-n0${i}`));
    expect(s.racks[0].counts).toEqual({ joined: 6, quarantined: 2 });
    expect(s.failures.map((f) => [f.node, f.stage])).toEqual([
      ["r01-n03", "quarantined"],
      ["r01-n06", "quarantined"],
    ]);
    expect(s.failures[0].detail).toMatch(/\S/);
    expect(s.failures[0].detail).not.toBe("acceptance gate failed");
    // AND the table says so
    const table = renderTable(s);
    expect(table).toMatch(/^rack\s+nodes\s+off\s+BMC up .* joined\s+quarantined$/m);
    expect(table).toMatch(/^r01\s+8\s+0\s+0 .*\s6\s+2$/m);
    expect(table).toContain("r01/r01-n03  quarantined: ");
  });

  it("shows the nodes the configuration declares as off before state holds any of their resources", () => {
    // GIVEN a cdk.tf.json with two nodes' outlet and machine, and a state holding only the first node's outlet and BMC
    const config = {
      resource: {
        rackform_pdu_outlet: {
          a_outlet: { endpoint: "https://127.11.1.1", outlet_id: "1", power_state: "On" },
          b_outlet: { endpoint: "https://127.11.1.1", outlet_id: "2", power_state: "On" },
        },
        rackform_bmc: {
          a_bmc: { endpoint: "https://127.10.1.1", depends_on: ["rackform_pdu_outlet.a_outlet"] },
          b_bmc: { endpoint: "https://127.10.1.2", depends_on: ["rackform_pdu_outlet.b_outlet"] },
        },
        rackform_machine: {
          a_machine: { name: "node-a", backend: "maas", bmc_endpoint: tok("rackform_bmc.a_bmc.endpoint") },
          b_machine: { name: "node-b", backend: "maas", bmc_endpoint: tok("rackform_bmc.b_bmc.endpoint") },
        },
      },
    };
    const resources: StateResource[] = [
      {
        address: "rackform_pdu_outlet.a_outlet",
        mode: "managed",
        type: "rackform_pdu_outlet",
        name: "a_outlet",
        values: { power_state: "On", outlet_id: "1", pdu_id: "pdu-a" },
      },
      {
        address: "rackform_bmc.a_bmc",
        mode: "managed",
        type: "rackform_bmc",
        name: "a_bmc",
        values: { endpoint: "https://127.10.1.1" },
        depends_on: ["rackform_pdu_outlet.a_outlet"],
      },
    ];
    // WHEN the watch reads it, with MAAS commissioning node-a
    const s = new WatchModel().update(
      [{ label: "r1", read: { resources, config } }],
      live({ "node-a": { backend: "maas", status: "Commissioning" } }),
      0,
    );
    // THEN node-a is commissioning (the backend is ahead of state) and node-b is off
    expect(s.racks[0].nodes.map((n) => [n.name, n.stage, n.slot])).toEqual([
      ["node-a", "commissioning", "pdu-a/1"],
      ["node-b", "off", "2"],
    ]);
  });

  it("believes the backend over a state that lags: a failure with its message, a joined node MAAS is redeploying", () => {
    const model = new WatchModel();
    const s = model.update(
      [{ label: "r01", read: { resources: partialFailureState() } }],
      live({
        "r01-n01": { backend: "maas", status: "Failed deployment", message: "curtin failed" },
        "r01-n02": { backend: "maas", status: "Deployed" },
      }),
      0,
    );
    const byName = new Map(s.racks[0].nodes.map((n) => [n.name, n]));
    // state still says joined (the pg backend persists every 20 s), MAAS says the deployment failed: it failed
    expect(byName.get("r01-n01")?.stage).toBe("failed");
    expect(byName.get("r01-n01")?.detail).toBe("curtin failed");
    // MAAS Deployed adds nothing to a node state knows joined
    expect(byName.get("r01-n02")?.stage).toBe("joined");
    // a node only enrolled in state that MAAS reports failed is failed, with MAAS's message
    const early = partialFailureState().filter(
      (r) => r.address.endsWith("r01_n01") && /outlet|bmc|machine/.test(r.type),
    );
    const s2 = model.update(
      [{ label: "r01", read: { resources: early } }],
      live({ "r01-n01": { backend: "maas", status: "Failed deployment", message: "curtin failed" } }),
      0,
    );
    expect(s2.failures).toEqual([{ rack: "r01", node: "r01-n01", stage: "failed", detail: "curtin failed" }]);
  });
});

describe("rackform watch: a rolling reimage as the backends and the scheduler report it", () => {
  it("shows draining, releasing, deploying and testing for nodes state still records joined, never joined", () => {
    // GIVEN a converged rack's state (6 joined, 2 quarantined) that has not caught up with the apply, and live reads:
    // n01 drained in Slurm, n02 released by MAAS, n04 erasing its disks, n05 redeploying, n07 running its gate again
    const view: LiveView = {
      byName: new Map<string, BackendReading>([
        ["r01-n01", { backend: "maas", status: "Deployed", owned: true }],
        ["r01-n02", { backend: "maas", status: "Releasing", owned: true }],
        ["r01-n04", { backend: "maas", status: "Disk erasing" }],
        ["r01-n05", { backend: "maas", status: "Deploying", owned: true }],
        ["r01-n07", { backend: "maas", status: "Testing", owned: true }],
        ["r01-n08", { backend: "maas", status: "Deployed", owned: true }],
      ]),
      scheduler: new Map([
        ["r01-n01", { scheduler: "slurm" as const, state: "IDLE+DRAIN", drain: true, down: false }],
        ["r01-n08", { scheduler: "slurm" as const, state: "IDLE", drain: false, down: false }],
      ]),
      errors: [],
    };
    // WHEN the watch refreshes
    const s = new WatchModel().update([{ label: "r01", read: { resources: partialFailureState() } }], view, 0);
    // THEN every node out of service says where it is, with the scheduler's and the backend's words
    const stage = new Map(s.racks[0].nodes.map((n) => [n.name, [n.stage, n.detail]]));
    expect(stage.get("r01-n01")).toEqual(["draining", "slurm reports IDLE+DRAIN"]);
    expect(stage.get("r01-n02")).toEqual(["releasing", "Releasing"]);
    expect(stage.get("r01-n04")).toEqual(["releasing", "Disk erasing"]);
    expect(stage.get("r01-n05")?.[0]).toBe("deploying");
    expect(stage.get("r01-n07")?.[0]).toBe("testing");
    expect(stage.get("r01-n08")?.[0]).toBe("joined");
    expect(s.racks[0].counts).toEqual({
      testing: 1,
      joined: 1,
      quarantined: 2,
      draining: 1,
      deploying: 1,
      releasing: 2,
    });
    // AND the terminal line names them, and gives no ETA it has no ground for
    expect(renderLines(s)[0]).toBe(
      "[00:00:00] r01: 1 deploying · 1 testing · 1 joined · 2 quarantined · 1 draining · 2 releasing (8 nodes) — ETA unknown",
    );
  });
});

describe("rackform watch: ETA from observed stage durations", () => {
  it("is unknown until each stage left has been seen, then the slowest node's remaining time", () => {
    const eta = new EtaTracker();
    // node a walks off → bmc-up → … → joined at 10 s a stage, watched from its start
    const path = [
      "off",
      "bmc-up",
      "enrolled",
      "commissioning",
      "ready",
      "deploying",
      "deployed",
      "testing",
      "joined",
    ] as const;
    path.forEach((st, i) => {
      eta.observe("a", st, i * 10_000);
      if (i === 0) eta.observe("b", "off", 0);
    });
    expect(eta.remainingMs(["a"], 80_000)).toBe(0);
    // node b still off after 5 s: 5 s left of "off" and 7 stages of 10 s
    expect(eta.remainingMs(["a", "b"], 5_000)).toBe(75_000);
    // a stage nobody has left yet has no mean: unknown
    const fresh = new EtaTracker();
    fresh.observe("c", "deploying", 0);
    expect(fresh.remainingMs(["c"], 1000)).toBeUndefined();
  });
});

describe("rackform watch: terminal, page and server", () => {
  const snapshot = new WatchModel().update(
    [{ label: "r01", read: { resources: partialFailureState() } }],
    undefined,
    0,
  );

  it("prints one summary line per rack for CI logs", () => {
    expect(renderLines(snapshot)).toEqual(["[00:00:00] r01: 6 joined · 2 quarantined (8 nodes) — settled"]);
  });

  it("draws the snapshot into a page with no external asset and no way to break out of its script", () => {
    const evil = {
      ...snapshot,
      failures: [{ rack: "r01", node: "x", stage: "failed" as const, detail: "</script><img src=x onerror=alert(1)>" }],
    };
    const html = watchPage(evil);
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('"stage":"quarantined"');
  });

  it("serves the page, the snapshot and server-sent events, and refuses anything but GET", async () => {
    const server = await startWatchServer("127.0.0.1", 0, () => snapshot);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetch(server.url);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("rackform watch");
      expect((await fetch(server.url, { method: "POST" })).status).toBe(405);
      const ac = new AbortController();
      const events = await fetch(`${server.url}events`, { signal: ac.signal });
      const reader = (events.body as ReadableStream<Uint8Array>).getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toMatch(/^event: snapshot\ndata: \{/);
      ac.abort();
    } finally {
      await server.close();
    }
  });

  it("parses --listen and reads backend settings like the provider (var from TF_VAR_, else RACKFORM_*)", () => {
    expect(parseListen("127.0.0.1:0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(() => parseListen("8080")).toThrow(/HOST:PORT/);
    const config = {
      provider: { rackform: [{ maas: { url: "http://maas:5240/MAAS/", api_key: tok("var.maas_api_key") } }] },
    };
    expect(backendSettings(config, { TF_VAR_maas_api_key: "a:b:c" })).toEqual({
      maas: { url: "http://maas:5240/MAAS/", apiKey: "a:b:c" },
    });
    expect(backendSettings(undefined, { RACKFORM_IRONIC_URL: "http://ironic:6385" })).toEqual({
      ironic: { url: "http://ironic:6385", auth: { type: "noauth" } },
    });
    // the schedulers, for draining: the provider's slurm block with its token from TF_VAR_, Kubernetes from RACKFORM_*
    const slurm = {
      provider: {
        rackform: [{ slurm: [{ url: "http://slurm:6820", user: "rackform", token: tok("var.slurm_token") }] }],
      },
    };
    expect(backendSettings(slurm, { TF_VAR_slurm_token: "jwt" })).toEqual({
      slurm: { url: "http://slurm:6820", user: "rackform", token: "jwt" },
    });
    expect(backendSettings(slurm, {})).toEqual({});
    expect(
      backendSettings(undefined, { RACKFORM_KUBERNETES_URL: "https://k8s:6443", RACKFORM_KUBERNETES_TOKEN: "t" }),
    ).toEqual({ kubernetes: { url: "https://k8s:6443", token: "t" } });
  });
});
