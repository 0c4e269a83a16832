/** `lab up` with backends (and a DPU per node): prints the MAAS, Ironic, Slurm and Kubernetes endpoints, never their secrets; the lab file has them. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "../../../src/cli/main.ts");

describe("lab up (composed)", () => {
  const dir = mkdtempSync(join(tmpdir(), "rackform-lab-up-"));
  const children: ReturnType<typeof spawn>[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints every endpoint without secrets and writes them with credentials to the 0600 lab file", async () => {
    const out = join(dir, "lab.json");
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        MAIN,
        "lab",
        "up",
        "--nodes",
        "1",
        "--dpus",
        "1",
        "--profile",
        "instant",
        "--state-dir",
        dir,
        "--out",
        out,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d) => {
        stdout += d;
        if (stdout.includes("lab file")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`lab up exited ${code} before starting:\n${stderr}`)));
    });
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
      expect(stdout).toContain(url);
    // --dpus 1: the node's BlueField-3 BMC, printed and in the lab file (what a Rack's nodes[].dpus take)
    expect(info.nodes[0].dpus).toEqual([
      {
        id: "r01-n01-dpu0",
        url: expect.stringMatching(/^https:\/\/127\.12\.1\.1(:\d+)?$/),
        username: "admin",
        password: info.nodes[0].bmc.password,
      },
    ]);
    expect(stdout).toContain(`DPU BMC  r01-n01-dpu0 ${info.nodes[0].dpus[0].url}`);
    for (const secret of [
      info.maas.apiKey.split(":")[2],
      info.slurm.token,
      info.kubernetes.token,
      info.nodes[0].bmc.password,
    ]) {
      expect(stdout).not.toContain(secret);
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
