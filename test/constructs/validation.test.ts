/**
 * Bad props fail at synth, before any engine runs, with a RackformValidationError naming the construct path, the bad
 * value (never a secret) and the fix; nothing is synthesized.
 */
import { type App, Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import {
  AcceptancePolicy,
  Duration,
  Flavor,
  Fleet,
  type FleetProps,
  Image,
  IronicBackend,
  type IronicBackendProps,
  KubernetesCluster,
  MaasBackend,
  Rack,
  RackformStack,
  RackformValidationError,
  type RackNode,
  SlurmCluster,
  type StateBackend,
} from "../../constructs/lib/index.js";
import { nodes, pdus, REDFISH, rackProps, SHA, shared, written } from "./support.js";

/** Runs `build` and synth; expects a RackformValidationError whose message has `path` and `fix`, and no output. */
function expectFailure(build: (app: App) => void, path: string, fix: string): RackformValidationError {
  const app = Testing.app();
  let error: unknown;
  try {
    build(app);
    app.synth();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RackformValidationError);
  const message = (error as Error).message;
  expect(message).toContain(`${path}: `);
  expect(message).toContain(fix);
  expect(written(app)).toEqual([]);
  return error as RackformValidationError;
}

/** A rack "row/r12" whose nodes are the lab's 8 with `edit` applied. */
function rackWith(edit: (ns: RackNode[]) => RackNode[], extra: object = {}) {
  return (app: App) => {
    const stack = new RackformStack(app, "row");
    const s = shared(stack);
    new Rack(stack, "r12", { ...rackProps(s, "r12"), nodes: edit(nodes("r12")), ...extra });
  };
}

const setNode = (i: number, change: Partial<RackNode>) => (ns: RackNode[]) =>
  ns.map((n, j) => (j === i ? { ...n, ...change } : n));

function fleetWith(props: Partial<FleetProps>) {
  return (app: App) => {
    const s = shared(app);
    const racks = ["r1", "r2", "r3"].map((name) => ({ name, pdus: pdus(name), nodes: nodes(name, 2) }));
    new Fleet(app, "fleet", { racks, ...s, redfish: REDFISH, ...props });
  };
}

describe("validation at synth", () => {
  it("fails on a BMC address that is neither IPv4 nor a URL, quoting it", () => {
    const e = expectFailure(
      rackWith(setNode(3, { bmc: "10.0.0.300" })),
      "row/r12/nodes[3].bmc",
      "use https://host[:port]",
    );
    expect(e.message).toBe(
      'row/r12/nodes[3].bmc: "10.0.0.300" is not an IPv4 address or URL — use https://host[:port]',
    );
    expect(e.constructPath).toBe("row/r12");
  });

  it("fails on a plain http:// BMC or PDU without allowHttp, naming the opt-in", () => {
    const e = expectFailure(rackWith(setNode(2, { bmc: "http://10.0.12.3" })), "row/r12/nodes[2].bmc", "use https://");
    expect(e.message).toContain('"http://10.0.12.3" is plain HTTP');
    expect(e.message).toContain("allowHttp: true");
    expectFailure(
      rackWith((ns) => ns, { pdus: [{ name: "r12-pdu-a", endpoint: "http://10.0.12.250" }, pdus("r12")[1]] }),
      "row/r12/pdus[0].endpoint",
      "allowHttp: true",
    );
  });

  it("accepts an http:// BMC with allowHttp, and hands the opt-in to the provider block", () => {
    const app = Testing.app();
    const stack = new RackformStack(app, "row");
    const s = shared(stack);
    new Rack(stack, "r12", {
      ...rackProps(s, "r12"),
      nodes: setNode(2, { bmc: "http://10.0.12.3" })(nodes("r12")),
      redfish: { ...REDFISH, allowHttp: true },
    });
    const json = JSON.parse(Testing.synth(stack)) as { provider: { rackform: { redfish: unknown }[] } };
    expect(json.provider.rackform[0].redfish).toMatchObject({ allow_http: true });
  });

  it("fails on a duplicate node name", () => {
    expectFailure(
      rackWith(setNode(3, { name: "r12-n01" })),
      "row/r12/nodes[3].name",
      "give every node its own host name",
    );
  });

  it("fails on a duplicate U position", () => {
    const e = expectFailure(rackWith(setNode(5, { u: 2 })), "row/r12/nodes[5].u", "the U position it is racked at");
    expect(e.message).toContain('U2 is already taken by nodes[1] "r12-n02"');
  });

  it("fails on two nodes fed by the same PDU outlet", () => {
    expectFailure(
      rackWith(setNode(2, { pdu: "r12-pdu-a", outlet: 1 })),
      "row/r12/nodes[2].outlet",
      "the outlet its power cord is plugged into",
    );
  });

  it("fails on a U position outside 1..52", () => {
    const e = expectFailure(rackWith(setNode(0, { u: 53 })), "row/r12/nodes[0].u", "1 at the bottom of the rack");
    expect(e.message).toContain("53 is not a U position in 1..52");
  });

  it("fails on an outlet beyond the PDU's outlets", () => {
    const e = expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        new Rack(stack, "r12", { ...rackProps(shared(stack), "r12"), pdus: pdus("r12", 2, 2) });
      },
      "row/r12/nodes[4].outlet",
      "use an outlet in 1..2",
    );
    expect(e.message).toContain('3 is out of range: PDU "r12-pdu-a" has outlets 1..2');
  });

  it("fails on a node fed by a PDU the rack does not have", () => {
    expectFailure(
      rackWith(setNode(1, { pdu: "r99-pdu-z" })),
      "row/r12/nodes[1].pdu",
      'use one of "r12-pdu-a", "r12-pdu-b"',
    );
  });

  it("fails on two nodes behind the same BMC, however the address is written", () => {
    expectFailure(
      rackWith(setNode(4, { bmc: "https://127.10.12.1" })),
      "row/r12/nodes[4].bmc",
      "give each node its own BMC address",
    );
  });

  it("fails on a rack without a flavor (a JavaScript caller has no compiler to catch it)", () => {
    expectFailure(
      rackWith((ns) => ns, { flavor: undefined }),
      "row/r12/flavor",
      "pass a Flavor",
    );
  });

  it("fails on a misspelt rack prop", () => {
    expectFailure(
      rackWith((ns) => ns, { userdata: "#cloud-config" }),
      "row/r12",
      'has no property "userdata"',
    );
  });

  it("fails on a malformed MAC address", () => {
    const e = expectFailure(
      rackWith(setNode(2, { macs: ["3c:fd:fe:a1:b2"] })),
      "row/r12/nodes[2].macs[0]",
      "six hex pairs",
    );
    expect(e.message).toContain('"3c:fd:fe:a1:b2" is not a MAC address');
  });

  it("fails on an empty rack", () => {
    expectFailure(
      rackWith(() => []),
      "row/r12/nodes",
      "add the rack's nodes",
    );
  });

  it("fails on an image checksum that is not a sha256", () => {
    expectFailure(
      (app) => new Image(app, "ubuntu-gpu", { version: "2026.06.2", sha256: "md5:abc" }),
      "ubuntu-gpu/sha256",
      "sha256sum",
    );
  });

  it("fails on an empty image version", () => {
    expectFailure(
      (app) => new Image(app, "ubuntu-gpu", { version: "", sha256: SHA }),
      "ubuntu-gpu/version",
      "2026.06.2",
    );
  });

  it("fails on an image URL with a scheme other than http(s)", () => {
    const e = expectFailure(
      (app) => new Image(app, "ubuntu-gpu", { version: "1", sha256: SHA, url: "ftp://images.lab/u.qcow2" }),
      "ubuntu-gpu/url",
      "serve the image over http:// or https://",
    );
    expect(e.message).toContain('"ftp://images.lab/u.qcow2" is not an http(s) URL');
  });

  it("fails on a DCGM level outside 1..4", () => {
    expectFailure(
      (app) => new AcceptancePolicy(app, "gate", { dcgmLevel: 5 }),
      "gate/dcgmLevel",
      "3 (long, the usual gate)",
    );
  });

  it("fails on an NCCL threshold of 0 GB/s", () => {
    expectFailure(
      (app) => new AcceptancePolicy(app, "gate", { ncclBusbwMinGBps: 0 }),
      "gate/ncclBusbwMinGBps",
      "or leave it out for 92 % of line rate",
    );
  });

  it("fails on an NCCL threshold above the flavor's line rate, at the AcceptancePolicy that set it", () => {
    const e = expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        const s = shared(stack);
        const greedy = new AcceptancePolicy(stack, "greedy", { ncclBusbwMinGBps: 450 });
        new Rack(stack, "r12", rackProps({ ...s, acceptance: greedy }, "r12"));
      },
      "row/greedy/ncclBusbwMinGBps",
      "use at most 400 GB/s, or leave it out for the default 370 GB/s (92 % of line rate)",
    );
    expect(e.constructPath).toBe("row/greedy");
    expect(e.problems).toHaveLength(1);
  });

  it("fails on a disruption budget of 0 nodes, at the cluster", () => {
    const e = expectFailure(
      (app) => new SlurmCluster(app, "slurm", { url: "http://127.0.0.1:6820", user: "root", maxUnavailable: 0 }),
      "slurm/maxUnavailable",
      'or "all"',
    );
    expect(e.message).toContain('0 is not a whole number of nodes, at least 1, or "all"');
  });

  it("fails on a disruption budget as large as the rack, at the cluster whose prop it is", () => {
    // GIVEN a Slurm cluster whose budget lets all 8 of its nodes drain at once
    const e = expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        const s = shared(stack);
        const slurm = new SlurmCluster(stack, "gpu", { url: "http://127.0.0.1:6820", user: "root", maxUnavailable: 8 });
        new Rack(stack, "r12", rackProps({ ...s, cluster: slurm }, "r12"));
      },
      "row/gpu/maxUnavailable",
      'use 1 to 7, or write "all" to let every node be out of service at once (plan-summary flags it)',
    );
    // THEN the error names the cluster, not the rack, with one problem
    expect(e.constructPath).toBe("row/gpu");
    expect(e.problems).toHaveLength(1);
    expect(e.message).toContain("8 is not below the 8 nodes that join this cluster");
  });

  it("counts every rack that joins the cluster: 8 is a budget for two racks of 8", () => {
    const app = Testing.app();
    const s = shared(app);
    const k8s = new KubernetesCluster(app, "k8s", { url: "https://127.0.0.1:6443", maxUnavailable: 8 });
    for (const r of ["r1", "r2"]) {
      const stack = new RackformStack(app, r);
      new Rack(stack, r, rackProps({ ...s, cluster: k8s }, r));
    }
    app.synth();
    expect(written(app).length).toBeGreaterThan(0);
  });

  it('accepts "all" and sets no max_unavailable (plan-summary warns that every node may be out)', () => {
    const app = Testing.app();
    const stack = new RackformStack(app, "row");
    const s = shared(stack);
    const slurm = new SlurmCluster(stack, "gpu", { url: "http://127.0.0.1:6820", user: "root", maxUnavailable: "all" });
    new Rack(stack, "r12", rackProps({ ...s, cluster: slurm }, "r12"));
    const json = JSON.parse(Testing.synth(stack, true)) as {
      resource: { rackform_cluster_member: Record<string, Record<string, unknown>> };
    };
    const members = Object.values(json.resource.rackform_cluster_member);
    expect(members).toHaveLength(8);
    for (const m of members) expect(m).not.toHaveProperty("max_unavailable");
  });

  it("fails on a burn-in that is not a duration", () => {
    const e = expectFailure(
      (app) => new AcceptancePolicy(app, "gate", { burnIn: "3 days" }),
      "gate/burnIn",
      'write a duration such as "72h"',
    );
    expect(e.message).toContain('"3 days" is not a duration of at least 1s');
  });

  it("fails on a Duration that is no length of time, at the prop that holds it", () => {
    const e = expectFailure(
      (app) => new AcceptancePolicy(app, "gate", { burnIn: Duration.seconds(-5) }),
      "gate/burnIn",
      'write a duration such as "72h"',
    );
    expect(e.message).toContain('"-5000ms" is not a duration of at least 1s');
    expectFailure(
      rackWith((ns) => ns, { redfish: { ...REDFISH, powerOnInterval: Duration.millis(Number.NaN) } }),
      "row/r12/redfish.powerOnInterval",
      'write a duration such as "250ms"',
    );
  });

  it("fails on a flavor with 0 GPUs", () => {
    expectFailure(
      (app) => new Flavor(app, "hgx", { gpus: { model: "H100", count: 0 } }),
      "hgx/gpus.count",
      "give the GPUs every node has",
    );
  });

  it("fails on a backend of an unknown kind", () => {
    expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        const s = shared(stack);
        const xcat = Object.assign(new MaasBackend(stack, "xcat", { url: "http://xcat.lab/" }), { kind: "xcat" });
        new Rack(stack, "r12", rackProps({ ...s, backend: xcat as unknown as MaasBackend }, "r12"));
      },
      "row/r12/backend.kind",
      "pass a MaasBackend or an IronicBackend",
    );
  });

  it("fails on an Ironic backend with a deploy kernel but no ramdisk (Ironic would take neither from its conductor)", () => {
    expectFailure(
      (app) =>
        new IronicBackend(app, "ironic", {
          url: "http://127.0.0.1:6385",
          deployKernel: "http://images.lab/ipa.kernel",
        } as IronicBackendProps),
      "ironic/deployRamdisk",
      "set both, or neither to use ironic.conf's [conductor]deploy_kernel/deploy_ramdisk",
    );
  });

  it("fails on an Ironic rack whose image has no URL", () => {
    expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        const s = shared(stack);
        const image = new Image(stack, "maas-only", { version: "1", sha256: SHA });
        const ironic = new IronicBackend(stack, "ironic", {
          url: "http://127.0.0.1:6385",
          deployKernel: "http://images.lab/ipa.kernel",
          deployRamdisk: "http://images.lab/ipa.initramfs",
        });
        new Rack(stack, "r12", rackProps({ ...s, image, backend: ironic }, "r12"));
      },
      "row/maas-only/url",
      "give the image a url",
    );
  });

  it("fails on Redfish settings that both skip and pin TLS verification", () => {
    expectFailure(
      rackWith((ns) => ns, { redfish: { ...REDFISH, insecure: true } }),
      "row/r12/redfish.insecure",
      "keep caFile to verify the BMCs' certificates",
    );
  });

  it("fails on a literal credential without printing it", () => {
    const e = expectFailure(
      (app) => new MaasBackend(app, "maas", { url: "http://maas.lab/MAAS/", apiKey: "ck:tk:s3cr3t-value" }),
      "maas/apiKey",
      "leave it out to use the sensitive variable maas_api_key (set TF_VAR_maas_api_key)",
    );
    expect(e.message).not.toContain("s3cr3t-value");
  });

  it("fails on a pg connection string holding a password without printing it", () => {
    const e = expectFailure(
      (app) =>
        new RackformStack(app, "row", {
          stateBackend: { kind: "pg", connStr: "postgres://rackform:hunter2-pw@db.lab/tf" },
        }),
      "row/stateBackend.connStr",
      "set PGPASSWORD",
    );
    expect(e.message).not.toContain("hunter2-pw");
  });

  it("fails on an unknown state backend kind", () => {
    expectFailure(
      (app) => new RackformStack(app, "row", { stateBackend: { kind: "s3" } as unknown as StateBackend }),
      "row/stateBackend.kind",
      'use "local" or "pg"',
    );
  });

  it("fails on two racks of one stack with different backends", () => {
    expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        const s = shared(stack);
        const other = new MaasBackend(stack, "maas2", { url: "http://maas2.lab/MAAS/" });
        new Rack(stack, "r1", rackProps(s, "r1"));
        new Rack(stack, "r2", rackProps({ ...s, backend: other }, "r2"));
      },
      "row/r2",
      "put this rack in its own RackformStack",
    );
  });

  it("fails on the same node in two racks of one stack", () => {
    expectFailure(
      (app) => {
        const stack = new RackformStack(app, "row");
        const s = shared(stack);
        new Rack(stack, "r1", rackProps(s, "r1"));
        new Rack(stack, "r1-again", rackProps(s, "r1"));
      },
      "row/r1-again/nodes[0].name",
      "give every node of a stack its own host name",
    );
  });

  it("fails on waves naming a rack the fleet does not have", () => {
    expectFailure(
      fleetWith({ waves: [["r1"], ["r2", "r3", "r4"]] }),
      "fleet/waves[1][2]",
      'use one of "r1", "r2", "r3"',
    );
  });

  it("fails on a rack in two waves", () => {
    const e = expectFailure(
      fleetWith({
        waves: [
          ["r1", "r2"],
          ["r2", "r3"],
        ],
      }),
      "fleet/waves[1][0]",
      "put every rack in exactly one wave",
    );
    expect(e.message).toContain('rack "r2" is already in waves[0]');
  });

  it("fails on a rack in no wave", () => {
    expectFailure(fleetWith({ waves: [["r1"], ["r2"]] }), "fleet/waves", 'add "r3" to a wave');
  });

  it("fails on a canary as large as the fleet", () => {
    expectFailure(fleetWith({ canary: 3 }), "fleet/canary", "use a canary of 1..2 racks");
  });

  it("fails on a fleet with two racks of the same name", () => {
    expectFailure(
      (app) => {
        const s = shared(app);
        const rack = { name: "r1", pdus: pdus("r1"), nodes: nodes("r1", 2) };
        new Fleet(app, "fleet", { racks: [rack, rack], ...s, redfish: REDFISH });
      },
      "fleet/racks[1].name",
      "give every rack its own name",
    );
  });

  it("fails on a node of a fleet's rack at the rack's own path", () => {
    expectFailure(
      (app) => {
        const s = shared(app);
        const bad = nodes("r2", 2).map((n, i) => (i === 1 ? { ...n, u: 0 } : n));
        new Fleet(app, "fleet", {
          racks: [
            { name: "r1", pdus: pdus("r1"), nodes: nodes("r1", 2) },
            { name: "r2", pdus: pdus("r2"), nodes: bad },
          ],
          ...s,
          redfish: REDFISH,
        });
      },
      "fleet-r2/r2/nodes[1].u",
      "1 at the bottom of the rack",
    );
  });

  it("fails with every problem of a rack at once", () => {
    const e = expectFailure(
      rackWith((ns) => ns.map((n, i) => (i === 0 ? { ...n, u: 60, bmc: "bmc-1" } : n))),
      "row/r12/nodes[0].u",
      "use https://host[:port]",
    );
    expect(e.problems.map((p) => p.path)).toEqual(["row/r12/nodes[0].u", "row/r12/nodes[0].bmc"]);
  });
});
