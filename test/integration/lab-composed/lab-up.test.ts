/** `lab up` with backends (and a DPU per node): prints the MAAS, Ironic, Slurm and Kubernetes endpoints, never their secrets; the lab file has them. */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labUpRuns } from "../../support/lab-up.js";

describe("lab up (composed)", () => {
  const runs = labUpRuns("rackform-lab-up-");

  it("prints every endpoint without secrets and writes them with credentials to the 0600 lab file", async () => {
    const out = join(runs.dir, "lab.json");
    const up = await runs.start([
      "--nodes",
      "1",
      "--dpus",
      "1",
      "--profile",
      "instant",
      "--state-dir",
      runs.dir,
      "--out",
      out,
    ]);
    const { child } = up;
    const info = JSON.parse(readFileSync(out, "utf8"));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(info.maas.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/MAAS\/$/);
    expect(info.maas.apiKey).toMatch(/^[A-Za-z0-9]{18}:[A-Za-z0-9]{18}:[A-Za-z0-9]{32}$/);
    expect(info.ironic.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.slurm).toMatchObject({
      user: "rackform",
      token: expect.stringMatching(/^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+$/),
    });
    expect(info.kubernetes.token.length).toBeGreaterThanOrEqual(40);
    for (const url of [info.maas.url, info.ironic.url, info.slurm.url, info.kubernetes.url])
      expect(up.stdout).toContain(url);
    // --dpus 1: the node's BlueField-3 BMC, printed and in the lab file (what a Rack's nodes[].dpus take)
    expect(info.nodes[0].dpus).toEqual([
      {
        id: "r01-n01-dpu0",
        url: expect.stringMatching(/^https:\/\/127\.12\.1\.1(:\d+)?$/),
        username: "admin",
        password: info.nodes[0].bmc.password,
      },
    ]);
    expect(up.stdout).toContain(`DPU BMC  r01-n01-dpu0 ${info.nodes[0].dpus[0].url}`);
    for (const secret of [
      info.maas.apiKey.split(":")[2],
      info.slurm.token,
      info.kubernetes.token,
      info.nodes[0].bmc.password,
    ]) {
      expect(up.stdout).not.toContain(secret);
    }
    // The printed Ironic endpoint answers, with the service verb's microversion.
    const root = await (
      await fetch(`${info.ironic.url}/v1`, { headers: { "X-OpenStack-Ironic-API-Version": "latest" } })
    ).json();
    expect(root.version.version).toBe("1.87");
    const exited = new Promise<number | null>((r) => child.on("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
