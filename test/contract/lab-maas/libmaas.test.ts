// Contract: the real python-libmaas client (PyPI python-libmaas) drives the lab's MAAS API unmodified.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMaasApi, type MaasApi, redfishPowerDriver } from "../../../src/lab/maas/index.js";
import { makeTls, type RedfishStandIn, startRedfish } from "../../integration/lab-maas/redfish-standin.js";

const PYTHON = process.env.RACKFORM_PYTHON ?? "python3";
const SCRIPT = join(import.meta.dirname, "libmaas_flow.py");
const KEY = "libmaasconsumer:libmaastoken:libmaassecret";

let maas: MaasApi;
let server: { url: string; close(): Promise<void> };
let bmc: RedfishStandIn;
let dir: string;

beforeAll(async () => {
  const tls = makeTls();
  bmc = await startRedfish(tls, "root", "calvin-pass");
  // Real clock with short delays: libmaas polls with asyncio.sleep, so lab time must pass on its own.
  maas = createMaasApi({
    apiKeys: [KEY],
    delays: { commissionMs: 150, deployMs: 150, releaseMs: 150, eraseMs: 150, testMs: 150 },
    power: redfishPowerDriver({ caPem: tls.caPem }),
  });
  server = await maas.listen("127.0.0.1", 0);
  dir = mkdtempSync(join(tmpdir(), "maas-libmaas-"));
  writeFileSync(join(dir, "key"), KEY, { mode: 0o600 });
});

afterAll(async () => {
  maas.stop();
  await server.close();
  await bmc.close();
  rmSync(dir, { recursive: true, force: true });
});

function runFlow(): Promise<{ code: number | null; steps: Array<Record<string, unknown>>; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, server.url, join(dir, "key"), bmc.address], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", (e) => reject(new Error(`cannot run ${PYTHON}: ${e.message}`)));
    child.on("close", (code) => {
      const steps = out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, steps, stderr });
    });
  });
}

describe("python-libmaas against the lab", () => {
  it("connects with the API key, creates, commissions, deploys and releases a redfish machine", async () => {
    const { code, steps, stderr } = await runFlow();
    const importFailure = steps.find((s) => s.step === "import");
    if (importFailure) {
      throw new Error(
        `python-libmaas is not importable by ${PYTHON} (${importFailure.error}). Install it: pip install python-libmaas==0.6.8`,
      );
    }
    expect(code, `libmaas flow failed:\n${stderr.slice(-3000)}`).toBe(0);
    const by = Object.fromEntries(steps.map((s) => [s.step, s]));
    console.log(`python-libmaas ${by.imported.libmaas} on Python ${by.imported.python}`);
    expect(by.connected).toMatchObject({ version: "3.5.0", user: "admin" });
    expect(by.listed).toMatchObject({ count: 0 });
    expect(by.created).toMatchObject({ status: "COMMISSIONING", power_type: "redfish" });
    expect(by.commissioned).toMatchObject({ status: "READY", status_name: "Ready" });
    expect(by.deployed).toMatchObject({ status: "DEPLOYED", osystem: "ubuntu", distro_series: "jammy" });
    expect(by.power).toMatchObject({ state: "on" });
    expect(by.released).toMatchObject({ status: "READY" });
    expect(by.read).toMatchObject({ hostname: "libmaas-node-1", macs: ["52:54:00:aa:bb:01"], status: "READY" });

    // libmaas really went through the API (describe first, then the ops) and the BMC really saw the power actions.
    const ops = maas.requests.map((r) => r.op).filter(Boolean);
    expect(maas.requests[0].path).toBe("/MAAS/api/2.0/describe/");
    expect(ops).toEqual(expect.arrayContaining(["whoami", "commission", "deploy", "query_power_state", "release"]));
    expect(maas.requests.every((r) => r.status < 400)).toBe(true);
    expect(bmc.resets).toContain("On");
    expect(bmc.resets).toContain("ForceOff");
  });
});
