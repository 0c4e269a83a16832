/**
 * The constructs' output against the real provider schema: stacks using every option (MAAS + Slurm with partition
 * check and disruption budget; Ironic with basic auth + Kubernetes with taints; a BlueField-3 DPU per node; a firmware
 * image and BIOS settings, so a rackform_firmware per node; a health remediation ladder) pass `validate` under
 * Terraform and OpenTofu with the built provider. Catches bindings in constructs/gen that have drifted from the provider.
 */
import { Testing } from "cdktf";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AcceptancePolicy,
  Flavor,
  HealthPolicy,
  Image,
  IronicBackend,
  KubernetesCluster,
  MaasBackend,
  Rack,
  RackformStack,
  SlurmCluster,
} from "../../constructs/lib/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";
import { SHA } from "./support.js";

/** A three-node stack setting every optional prop of the chosen backend and cluster (a budget below 3 nodes). */
function kitchenSink(backend: "maas" | "ironic"): string {
  const stack = new RackformStack(Testing.app(), `${backend}-sink`);
  const image = new Image(stack, "img", {
    version: "1",
    url: "http://images.lab/i.qcow2",
    sha256: SHA,
    signature: "s",
  });
  const flavor = new Flavor(stack, "f", {
    gpus: { model: "H100", count: 8 },
    minMemoryGiB: 1024,
    cpuSockets: 2,
    nicCount: 10,
    firmware: {
      "iDRAC firmware": "7.10.30.00",
      BIOS: { version: "2.3.1", url: "http://images.lab/b.bin", sha256: SHA },
    },
    bios: { ProcVirtualization: "Enabled", SriovGlobalEnable: true, NumaNodesPerSocket: 2 },
    dpus: {
      count: 1,
      mode: "DpuMode",
      rshim: "host",
      bfb: { version: "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod", url: "http://images.lab/d.bfb", sha256: SHA },
    },
  });
  const acceptance = new AcceptancePolicy(stack, "g", { firmware: { bmc: "1.2.3" }, allowXid: true });
  const b =
    backend === "maas"
      ? new MaasBackend(stack, "b", {
          url: "http://127.0.0.1:5240/MAAS/",
          eraseOnDestroy: false,
          architecture: "amd64/generic",
        })
      : new IronicBackend(stack, "b", {
          url: "http://127.0.0.1:6385",
          deployKernel: "http://images.lab/ipa.kernel",
          deployRamdisk: "http://images.lab/ipa.initramfs",
          auth: "basic",
          username: "ironic",
          resourceClass: "gpu-h100",
        });
  const cluster =
    backend === "maas"
      ? new SlurmCluster(stack, "c", {
          url: "http://127.0.0.1:6820",
          user: "root",
          partition: "gpu",
          maxUnavailable: 1,
        })
      : new KubernetesCluster(stack, "c", {
          url: "https://127.0.0.1:6443",
          caFile: "/tmp/ca.pem",
          taints: [{ key: "nvidia.com/gpu", effect: "NoSchedule" }],
          maxUnavailable: 2,
        });
  new Rack(stack, "r1", {
    pdus: [{ name: "r1-pdu-a", endpoint: "https://127.11.1.1" }],
    nodes: [1, 2, 3].map((i) => ({
      name: `r1-n0${i}`,
      u: i * 4,
      pdu: "r1-pdu-a",
      outlet: i,
      bmc: `127.10.1.${i}`,
      macs: [`aa:bb:cc:dd:ee:0${i}`],
      dpus: [`127.12.1.${i}`],
    })),
    flavor,
    image,
    acceptance,
    backend: b,
    cluster,
    redfish: { username: "admin", insecure: true, powerOnInterval: "1s", maxConcurrentPerBmc: 2 },
    health:
      backend === "maas"
        ? new HealthPolicy(stack, "h", { remediationSteps: ["reimage"], maxUnhealthy: 1 })
        : new HealthPolicy(stack, "h"),
  });
  return Testing.synth(stack, true);
}

describe("synthesized stacks under the real engines", () => {
  let cliConfig: string;
  beforeAll(async () => {
    cliConfig = await freshInstall([builtProvider()]);
  });

  for (const name of ENGINES) {
    for (const backend of ["maas", "ironic"] as const) {
      it(`${name} validates a ${backend} rack stack using every option`, async () => {
        const w = await Workdir.create(engine(name), cliConfig, { "main.tf.json": kitchenSink(backend) });
        await w.ok(["init", "-backend=false", "-no-color"]);
        const r = await w.run(["validate", "-no-color"]);
        expect(r.stderr).toBe("");
        expect(r.stdout).toContain("Success! The configuration is valid.");
      });
    }
  }
});
