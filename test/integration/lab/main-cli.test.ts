/** Integration: `lab up` runs in the foreground, writes the lab file (0600), never prints the password, stops on SIGTERM. */
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_MAIN, labUpRuns } from "../../support/lab-up.js";

describe("lab up", () => {
  const runs = labUpRuns("rackform-lab-cli-");

  it("writes the lab file, serves the control API and exits 0 on SIGTERM", async () => {
    const out = join(runs.dir, "lab.json");
    const up = await runs.start(["--nodes", "2", "--profile", "instant", "--state-dir", runs.dir, "--out", out]);
    const { child } = up;
    const info = JSON.parse(readFileSync(out, "utf8"));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(info.nodes).toHaveLength(2);
    expect(info.nodes[0].bmc.url).toMatch(/^https:\/\/127\.10\.1\.1:\d+$/);
    expect(up.stdout).not.toContain(info.nodes[0].bmc.password);
    const world = await (await fetch(`${info.control.url}/world`)).json();
    expect(world.nodes.map((n: { name: string }) => n.name)).toEqual(["r01-n01", "r01-n02"]);
    const exited = new Promise<number | null>((r) => child.on("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("takes a rack shape: --racks 3 --nodes-per-rack 4 makes 3 racks of 4 nodes (not 8 + 4)", async () => {
    const out = join(runs.dir, "shape.json");
    const args = ["--racks", "3", "--nodes-per-rack", "4", "--profile", "instant"];
    const up = await runs.start([...args, "--state-dir", runs.dir, "--out", out]);
    const { child } = up;
    expect(up.stdout).toMatch(/^lab up: 12 nodes in 3 racks, 6 PDUs/m);
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
    const child = spawn(process.execPath, ["--import", "tsx", CLI_MAIN, "lab", "up"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(2);
    expect(stderr).toBe("rackform lab up: --out is required: rackform lab up --out lab.json\n");
  });
});
