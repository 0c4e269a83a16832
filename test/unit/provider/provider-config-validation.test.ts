/**
 * The provider block's checks at ValidateProviderConfig (before ConfigureProvider, so before any connection): service
 * URLs, the MAAS API key's form, insecure with ca_file, Ironic credentials that do not go together. Secrets are never
 * echoed.
 */
import { describe, expect, it } from "vitest";
import {
  type Diagnostic,
  Diagnostics,
  formatPath,
  nullObject,
  UNKNOWN,
  type Value,
} from "../../../src/framework/index.js";
import { providerSchema, resolveConfig } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { createServer } from "../../../src/server/create-server.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";

const lines = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`);
const blk = (name: string, set: Record<string, Value>) => ({
  ...nullObject(providerSchema.blocks![name].block),
  ...set,
});

async function validate(blocks: Record<string, Record<string, Value>>): Promise<readonly Diagnostic[]> {
  const config = configOf(
    providerSchema,
    Object.fromEntries(Object.entries(blocks).map(([name, set]) => [name, blk(name, set)])),
  );
  return (await createServer(rackformProvider()).validateProviderConfig({ config })).diagnostics;
}

describe("provider block validation", () => {
  it("accepts the demo's provider block", async () => {
    const d = await validate({
      redfish: { username: "admin", password: "pw", ca_file: "/ca.pem", power_on_interval: "250ms" },
      maas: { url: "http://127.0.0.1:5240/MAAS/", api_key: "a:b:c" },
      ironic: { url: "http://127.0.0.1:6385", username: "ironic", password: "pw" },
      slurm: { url: "http://127.0.0.1:6820", user: "rackform", token: "jwt" },
      kubernetes: { url: "https://10.0.0.1:6443", token: "t" },
    });
    expect(d).toEqual([]);
  });

  it("accepts the Ironic deploy kernel and ramdisk together, and fails one alone or one that is not a URL", async () => {
    const url = "http://127.0.0.1:6385";
    const both = { url, deploy_kernel: "http://img/ipa.kernel", deploy_ramdisk: "https://img/ipa.initramfs" };
    expect(await validate({ ironic: both })).toEqual([]);
    const alone = await validate({ ironic: { url, deploy_kernel: "http://img/ipa.kernel" } });
    expect(lines(alone)).toEqual(["error Set deploy_kernel and deploy_ramdisk together @ ironic.deploy_kernel"]);
    expect(alone[0].detail).toContain("Set deploy_ramdisk too, or remove both");
    const notUrl = await validate({ ironic: { ...both, deploy_ramdisk: "ipa.initramfs" } });
    expect(lines(notUrl)).toEqual([expect.stringMatching(/^error .* @ ironic\.deploy_ramdisk$/)]);
  });

  it("fails service URLs that are not http(s) addresses, at each block's url, echoing only the origin", async () => {
    const d = await validate({
      maas: { url: "maas-region:5240" },
      ironic: { url: "http://user:hunter2@ironic:6385" },
      slurm: { url: "ftp://slurmctl:6820", user: "u", token: "t" },
      kubernetes: { url: "https://k8s:6443/?token=abc", token: "t" },
    });
    expect(lines(d).sort()).toEqual([
      "error Invalid service URL @ ironic.url",
      "error Invalid service URL @ kubernetes.url",
      "error Invalid service URL @ maas.url",
      "error Invalid service URL @ slurm.url",
    ]);
    const text = JSON.stringify(d);
    expect(text).toContain("http://maas:5240/MAAS/");
    expect(text).toContain("scheme ftp, not http or https");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("token=abc");
  });

  it("fails a MAAS API key not of the form consumer:token:secret without echoing it", async () => {
    const d = await validate({ maas: { url: "http://m/MAAS/", api_key: "only-one-part-SECRET" } });
    expect(lines(d)).toEqual(["error Invalid MAAS API key @ maas.api_key"]);
    expect(JSON.stringify(d)).not.toContain("only-one-part-SECRET");
  });

  it("fails insecure = true with a ca_file, but accepts insecure = false with one", async () => {
    expect(lines(await validate({ redfish: { ca_file: "/ca.pem", insecure: true } }))).toEqual([
      "error insecure conflicts with ca_file @ redfish.insecure",
    ]);
    expect(await validate({ redfish: { ca_file: "/ca.pem", insecure: false } })).toEqual([]);
  });

  it("fails an Ironic password without a user name, and a token together with basic auth", async () => {
    expect(lines(await validate({ ironic: { url: "http://i:6385", password: "pw" } }))).toEqual([
      "error Ironic password without username @ ironic.password",
    ]);
    expect(lines(await validate({ ironic: { url: "http://i:6385", username: "u", token: "t" } }))).toEqual([
      "error Conflicting configuration arguments @ ironic.token",
    ]);
  });
});

describe("provider block decoded once into its model (resolveConfig)", () => {
  const resolve = (config: Value) => {
    const diags = new Diagnostics();
    return { data: resolveConfig(config, diags), diags };
  };

  it("reads every block from the model, with the defaults of unset attributes", () => {
    const { data, diags } = resolve(
      configOf(providerSchema, {
        redfish: blk("redfish", { username: "admin", password: "pw", max_concurrent_per_bmc: 2 }),
        maas: blk("maas", { url: "http://127.0.0.1:5240/MAAS/", api_key: "a:b:c" }),
        ironic: blk("ironic", {
          url: "http://127.0.0.1:6385",
          token: "t",
          deploy_kernel: "http://k",
          deploy_ramdisk: "http://r",
        }),
        warewulf: blk("warewulf", { url: "http://ww:9873", username: "u", password: "p" }),
        slurm: blk("slurm", { url: "http://127.0.0.1:6820", user: "rackform", token: "jwt" }),
      }),
    );
    expect(lines(diags.items)).toEqual([]);
    expect(data?.redfish).toMatchObject({
      username: "admin",
      password: "pw",
      insecure: false,
      allowHttp: false,
      maxConcurrent: 2,
      powerOnIntervalMs: 250,
      credentialsUnknown: false,
    });
    expect(data?.backends.maas).toEqual({ url: "http://127.0.0.1:5240/MAAS/", apiKey: "a:b:c" });
    expect(data?.backends.ironic).toEqual({
      url: "http://127.0.0.1:6385",
      auth: { type: "token", token: "t" },
      deployImages: { kernel: "http://k", ramdisk: "http://r" },
    });
    expect(data?.backends.warewulf).toEqual({
      url: "http://ww:9873",
      username: "u",
      password: "p",
      insecure: false,
      profile: "default",
    });
    expect(data?.schedulers.slurmSettings).toEqual({ url: "http://127.0.0.1:6820", user: "rackform", token: "jwt" });
    expect(data?.schedulers.kubernetesSettings).toBeUndefined();
  });

  it("counts unknown values as unset, and says the credentials or deploy images are not known yet", () => {
    const { data } = resolve(
      configOf(providerSchema, {
        redfish: blk("redfish", { username: UNKNOWN, password: "pw", insecure: UNKNOWN }),
        ironic: UNKNOWN,
      }),
    );
    expect(data?.redfish).toMatchObject({ password: "pw", insecure: false, credentialsUnknown: true });
    const whole = resolve(configOf(providerSchema, { redfish: UNKNOWN }));
    expect(whole.data?.redfish.credentialsUnknown).toBe(true);
  });

  it("reads a configuration built by hand without some blocks or attributes as unset", () => {
    const { data, diags } = resolve({ redfish: { username: "admin" }, slurm: { url: "http://127.0.0.1:6820" } });
    expect(lines(diags.items)).toEqual(["error Incomplete Slurm settings @ slurm.user"]);
    expect(data).toBeUndefined();
  });
});
