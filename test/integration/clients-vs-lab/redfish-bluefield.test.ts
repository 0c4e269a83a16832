/**
 * The Redfish client's BlueField operations against the lab's BlueField-3 DPUs on a manual clock (demo profile, so
 * reboots and BFB installs take visible simulated time): the mode change sequence, rshim hand-over, a BFB install
 * followed to each terminal TaskState, and the typed errors.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { defaultSpec, type Lab, ManualClock, startLab } from "../../../src/lab/index.js";
import { rejection } from "./support.js";

describe("RedfishClient.bluefield() against the lab", () => {
  let lab: Lab;
  let clock: ManualClock;
  let stateDir: string;
  const clients: RedfishClient[] = [];
  const client = (url: string) => {
    const { username, password } = lab.spec.credentials;
    const c = new RedfishClient({ baseUrl: url, username, password, ca: lab.info.ca });
    clients.push(c);
    return c;
  };
  const wait = { pollIntervalMs: 1_000, sleep: async (ms: number) => clock.advance(ms), now: () => clock.now() };

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), "rf-bluefield-"));
    clock = new ManualClock();
    const spec = defaultSpec({ nodes: 2, dpus: 1, dpuMode: "NicMode" });
    lab = await startLab({ stateDir, spec, profile: "demo", clock, backends: false });
    for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
    clock.advance(60_000);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await lab?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("reads mode, rshim, DPU_OS and boot progress", async () => {
    const dpu = client(lab.info.nodes[0].dpus?.[0].url ?? "").bluefield();
    expect(await dpu.state()).toMatchObject({
      mode: "NicMode",
      hostRshim: "Enabled",
      bmcRshim: false,
      bfbVersion: "DOCA_2.5.0_BSP_4.5.0_Ubuntu_22.04-1.20231129.prod",
      oemBootState: "UEFI",
    });
  });

  it("switches mode with Mode.Set, two Arm reboots (each waited for) and a host power cycle", async () => {
    const n = lab.info.nodes[0];
    const dpu = client(n.dpus?.[0].url ?? "").bluefield();
    const host = client(n.bmc.url);
    await dpu.setMode("DpuMode");
    const early = await rejection(dpu.expectMode("DpuMode"));
    expect(isClientError(early, "RACKFORM_ERR_REDFISH_DPU_MODE")).toBe(true);
    for (let i = 0; i < 2; i++) {
      await dpu.rebootArm();
      expect((await dpu.state()).oemBootState).toBe("OsStarting");
      await dpu.waitBooted(wait);
    }
    expect((await dpu.state()).mode).toBe("NicMode");
    await host.power("On");
    await dpu.waitBooted(wait);
    expect((await dpu.expectMode("DpuMode")).mode).toBe("DpuMode");
  });

  it("hands rshim to the BMC, installs a BFB with progress, and DPU_OS reports it", async () => {
    const dpu = client(lab.info.nodes[0].dpus?.[0].url ?? "").bluefield();
    await dpu.setHostRshim(false);
    await dpu.setBmcRshim(true);
    await dpu.waitBmcRshim(wait);
    const seen: number[] = [];
    const bfb = "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod";
    const done = await dpu.installBfb(`${lab.info.images?.url}${bfb}.bfb`, {
      ...wait,
      onProgress: (t) => seen.push(t.percentComplete ?? -1),
    });
    expect(done.state).toBe("Completed");
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
    expect((await dpu.state()).bfbVersion).toBe(bfb);
  });

  it("fails a BFB install with RACKFORM_ERR_REDFISH_TASK_FAILED carrying the task's messages", async () => {
    const d = lab.info.nodes[0].dpus?.[0];
    lab.world.faults.add({ kind: "bfb-install-failure", node: d?.id, count: 1 });
    const dpu = client(d?.url ?? "").bluefield();
    const e = await rejection(dpu.installBfb(`${lab.info.images?.url}bad-1.0.bfb`, wait));
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_TASK_FAILED")).toBe(true);
    expect(e.message).toMatch(/Exception\/Critical: .*Transfer of image 'bad-1\.0\.bfb'/);
    expect((await dpu.state()).bfbVersion).not.toBe("bad-1.0");
  });

  it("times out a BFB task that does not finish, naming its state", async () => {
    const dpu = client(lab.info.nodes[0].dpus?.[0].url ?? "").bluefield();
    let waited = 0;
    // The caller's clock runs, the lab's does not: the task stays Running until the deadline passes.
    const e = await rejection(
      dpu.installBfb(`${lab.info.images?.url}slow-1.0.bfb`, {
        pollIntervalMs: 100,
        timeoutMs: 300,
        sleep: async () => {},
        now: () => (waited += 100),
      }),
    );
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_TASK_TIMEOUT")).toBe(true);
    expect(e.message).toMatch(/still (New|Running)/);
    clock.advance(60_000);
  });

  it("says when the BMC's rshim does not start because the host holds it", async () => {
    const dpu = client(lab.info.nodes[1].dpus?.[0].url ?? "").bluefield();
    await dpu.setBmcRshim(true);
    const e = await rejection(dpu.waitBmcRshim({ ...wait, timeoutMs: 3_000 }));
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_DPU_RSHIM")).toBe(true);
  });

  it("counts the host's BlueField DPUs among its PCIe devices", async () => {
    expect((await client(lab.info.nodes[0].bmc.url).inventory()).dpuCount).toBe(1);
  });

  it("refuses a host BMC with RACKFORM_ERR_REDFISH_NOT_BLUEFIELD", async () => {
    const e = await rejection(client(lab.info.nodes[1].bmc.url).bluefield().state());
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_NOT_BLUEFIELD")).toBe(true);
  });
});
