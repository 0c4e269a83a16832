/** Integration: `lab up` runs in the foreground, writes the lab file (0600), never prints the password, stops on SIGTERM. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "../../../src/cli/main.ts");

describe("lab up", () => {
  const dir = mkdtempSync(join(tmpdir(), "rackform-lab-cli-"));
  const children: ReturnType<typeof spawn>[] = [];
  // A failed assertion must not leave a lab running in the background.
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes the lab file, serves the control API and exits 0 on SIGTERM", async () => {
    const out = join(dir, "lab.json");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", MAIN, "lab", "up", "--nodes", "2", "--profile", "instant", "--state-dir", dir, "--out", out],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
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
    expect(info.nodes).toHaveLength(2);
    expect(info.nodes[0].bmc.url).toMatch(/^https:\/\/127\.10\.1\.1:\d+$/);
    expect(stdout).not.toContain(info.nodes[0].bmc.password);
    const world = await (await fetch(`${info.control.url}/world`)).json();
    expect(world.nodes.map((n: { name: string }) => n.name)).toEqual(["r01-n01", "r01-n02"]);
    const exited = new Promise<number | null>((r) => child.on("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("takes a rack shape: --racks 3 --nodes-per-rack 4 makes 3 racks of 4 nodes (not 8 + 4)", async () => {
    const out = join(dir, "shape.json");
    const args = ["lab", "up", "--racks", "3", "--nodes-per-rack", "4", "--profile", "instant"];
    const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args, "--state-dir", dir, "--out", out], {
      stdio: ["ignore", "pipe", "pipe"],
    });
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
    expect(stdout).toMatch(/^lab up: 12 nodes in 3 racks, 6 PDUs/m);
    const info = JSON.parse(readFileSync(out, "utf8"));
    const perRack = new Map<string, number>();
    for (const n of info.nodes as { name: string }[]) {
      const rack = n.name.split("-")[0];
      perRack.set(rack, (perRack.get(rack) ?? 0) + 1);
    }
    expect([...perRack]).toEqual([
      ["r01", 4],
      ["r02", 4],
      ["r03", 4],
    ]);
    // (the first test checks the exit status on SIGTERM; here the lab only has to stop)
    const exited = new Promise<unknown>((r) => child.on("exit", r));
    child.kill("SIGTERM");
    await exited;
  });

  it("fails with one line naming --out and exit code 2 without it", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", MAIN, "lab", "up"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(2);
    expect(stderr).toBe("rackform lab up: --out is required: rackform lab up --out lab.json\n");
  });
});
