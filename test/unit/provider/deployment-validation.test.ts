/**
 * rackform_deployment's config checks through the provider server: every problem is a diagnostic with an attribute
 * path, reported at validate/plan time before any backend is called (a counting server stands in for MAAS and Ironic).
 */
import { createServer as httpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, formatPath, nullObject, type Value } from "../../../src/framework/index.js";
import { imageLabel } from "../../../src/provider/backends/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { deploymentSchema } from "../../../src/provider/resources/deployment-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";

const T = "rackform_deployment";
const SHA = "a".repeat(64);
let counter: Server;
let hits = 0;
let srv: ProviderServer;

const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);
const image = (set: Record<string, Value> = {}) => ({
  name: "ubuntu-gpu",
  version: "2026.06.2",
  url: null,
  check_url: null,
  sha256: SHA,
  signature: null,
  ...set,
});
const deployment = (set: Record<string, Value>) =>
  configOf(deploymentSchema, { machine_id: "maas:4y3h7n", image: image(), ...set });

async function validateAndPlan(config: ReturnType<typeof deployment>) {
  const v = await srv.validateResourceConfig({ typeName: T, config });
  const p = await srv.planResourceChange({
    typeName: T,
    priorState: null,
    proposedNewState: proposedNew(deploymentSchema, config, null),
    config,
    priorPrivate: new Uint8Array(0),
  });
  return { validate: v.diagnostics, plan: p.diagnostics };
}

beforeAll(async () => {
  counter = httpServer((_req, res) => {
    hits++;
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  srv = createServer(rackformProvider());
  const r = await srv.configureProvider({
    terraformVersion: "1.11.4",
    config: configOf(providerSchema, {
      redfish: { ...nullObject(providerSchema.blocks!.redfish.block), username: "admin", password: "bmc-secret" },
      maas: { url: `${url}/MAAS/`, api_key: "consumerKEY1:tokenKEY2:tokenSECRETvalue3" },
      ironic: { url, username: null, password: null, token: null, deploy_kernel: null, deploy_ramdisk: null },
    }),
  });
  expect(r.diagnostics).toEqual([]);
});
afterAll(async () => {
  await new Promise((r) => counter.close(r));
  expect(hits).toBe(0);
});

describe("rackform_deployment validation", () => {
  it("fails a sha256 that is not 64 hex digits at image.sha256", async () => {
    const r = await validateAndPlan(deployment({ image: image({ sha256: "abc123" }) }));
    expect(lines(r.validate)).toEqual(["error Invalid attribute value @ image.sha256"]);
    expect(r.validate[0].detail).toContain("64 hex digits");
  });

  it("fails a version with spaces at image.version", async () => {
    const r = await validateAndPlan(deployment({ image: image({ version: "June 2026" }) }));
    expect(lines(r.validate)).toEqual(["error Invalid attribute value @ image.version"]);
  });

  it("fails a machine_id that is not a rackform_machine id", async () => {
    const r = await validateAndPlan(deployment({ machine_id: "4y3h7n" }));
    expect(lines(r.validate)).toEqual(["error Invalid attribute value @ machine_id"]);
    expect(r.validate[0].detail).toContain("maas:4y3h7n");
  });

  it("fails an Ironic deployment without image.url", async () => {
    const r = await validateAndPlan(deployment({ machine_id: "ironic:1be26c0b" }));
    expect(lines(r.validate)).toEqual(["error Ironic needs image.url @ image.url"]);
  });

  it("fails an image.url that is not an http(s) URL at image.url, never echoing credentials", async () => {
    for (const url of ["file:///srv/images/x.qcow2", "ftp://mirror:pa55word@img/x.qcow2", "img/x.qcow2"]) {
      const r = await validateAndPlan(deployment({ machine_id: "ironic:1be26c0b", image: image({ url }) }));
      expect(lines(r.validate)).toEqual(["error Invalid image URL @ image.url"]);
      expect(r.validate[0].detail).not.toContain("pa55word");
    }
  });

  it("warns about MAAS settings on Ironic and Ironic settings on MAAS", async () => {
    const i = await validateAndPlan(
      deployment({ machine_id: "ironic:1be26c0b", image: image({ url: "http://img/x.qcow2" }), osystem: "ubuntu" }),
    );
    expect(lines(i.validate)).toEqual(["warning osystem is ignored by Ironic @ osystem"]);
    const m = await validateAndPlan(deployment({ deploy_kernel: "http://img/ipa.kernel" }));
    expect(lines(m.validate)).toEqual(["warning deploy_kernel is ignored by MAAS @ deploy_kernel"]);
  });

  it("fails an Ironic deployment naming only one of deploy_kernel/deploy_ramdisk (Ironic would take neither from its conductor)", async () => {
    const ironic = { machine_id: "ironic:1be26c0b", image: image({ url: "http://img/x.qcow2" }) };
    const r = await validateAndPlan(deployment({ ...ironic, deploy_kernel: "http://img/ipa.kernel" }));
    expect(lines(r.validate)).toEqual(["error Set deploy_kernel and deploy_ramdisk together @ deploy_ramdisk"]);
    const both = { deploy_kernel: "http://img/ipa.kernel", deploy_ramdisk: "http://img/ipa.initramfs" };
    expect((await validateAndPlan(deployment({ ...ironic, ...both }))).validate).toEqual([]);
    expect((await validateAndPlan(deployment(ironic))).validate).toEqual([]);
  });

  it("plans a valid deployment with erase_on_destroy true by default, without calling a backend", async () => {
    const r = await validateAndPlan(deployment({}));
    expect(r.validate).toEqual([]);
    expect(r.plan).toEqual([]);
    expect(hits).toBe(0);
  });
});

describe("image labels (what the backend reports once deployed)", () => {
  it("names a MAAS custom image <name>-<version> unless osystem/distro_series say otherwise", () => {
    const spec = { name: "ubuntu-gpu", version: "2026.06.2", sha256: SHA };
    expect(imageLabel("maas", spec)).toBe("custom/ubuntu-gpu-2026.06.2");
    expect(imageLabel("maas", { ...spec, osystem: "ubuntu", distroSeries: "noble" })).toBe("ubuntu/noble");
    expect(imageLabel("ironic", { ...spec, url: "http://img/x.qcow2", sha256: SHA.toUpperCase() })).toBe(
      `http://img/x.qcow2 sha256:${SHA}`,
    );
  });

  it("never shows credentials of an image URL in the Ironic label (deployed_image)", () => {
    const spec = { name: "ubuntu-gpu", version: "2026.06.2", sha256: SHA, url: "https://mirror:s3cret@img/x.qcow2" };
    expect(imageLabel("ironic", spec)).toBe(`https://img/x.qcow2 sha256:${SHA}`);
  });
});
