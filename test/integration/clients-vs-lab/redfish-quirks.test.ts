/**
 * Issue 13: the Redfish client against lab BMCs with vendor quirks switched on (src/lab/README.md "Quirks"), one
 * node per quirk and one node with every quirk. The client must still report the right facts, or fail typed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { defaultSpec, type Lab, ManualClock, startLab } from "../../../src/lab/index.js";
import { QUIRK_NAMES, type Quirk } from "../../../src/lab/world/quirks.js";
import { rejection } from "./support.js";

/** Node index → quirks; the last node has them all. */
const PLAN: Quirk[][] = [...QUIRK_NAMES.map((q) => [q]), [...QUIRK_NAMES]];
const ALL = PLAN.length - 1;

let lab: Lab;
let clock: ManualClock;
let stateDir: string;
const logs: string[] = [];
const clients: RedfishClient[] = [];

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "rf-quirks-"));
  clock = new ManualClock();
  const spec = structuredClone(defaultSpec({ nodes: PLAN.length })) as unknown as {
    nodes: { quirks?: Quirk[]; vendor: string }[];
  };
  spec.nodes.forEach((n, i) => {
    n.quirks = PLAN[i];
    if (i === ALL) n.vendor = "hpe";
  });
  lab = await startLab({ stateDir, spec: spec as never, profile: "demo", clock, backends: false });
  for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  clock.advance(60_000);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await lab?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function client(i: number): RedfishClient {
  const n = lab.info.nodes[i];
  const c = new RedfishClient({
    baseUrl: n.bmc.url,
    username: n.bmc.username,
    password: n.bmc.password,
    ca: lab.info.ca,
    http: { log: (l) => void logs.push(l), sleep: async () => {}, retry: { maxAttempts: 2, baseDelayMs: 1 } },
  });
  clients.push(c);
  return c;
}
const nodeOf = (i: number) => lab.world.node(lab.info.nodes[i].name)!;
const idx = (q: Quirk) => QUIRK_NAMES.indexOf(q);
const poll = { pollIntervalMs: 500, sleep: async (ms: number) => void clock.advance(ms) };

describe("lab quirks through the Redfish client", () => {
  it("dead-member-links: the inventory skips the 404 PCIe device and the 500 firmware item, naming URL and status", async () => {
    const inv = await client(idx("dead-member-links")).inventory();
    expect(inv.gpus).toHaveLength(8);
    expect(inv.warnings?.join("\n")).toMatch(/PCIeDevices\/Dead\.1: HTTP 404/);
    expect(inv.warnings?.join("\n")).toMatch(/FirmwareInventory\/Unreadable\.1: HTTP 500/);
    expect(inv.firmware.length).toBeGreaterThanOrEqual(3);
  });

  it("action-info-404: a reset is still sent when the ActionInfo link answers 404", async () => {
    const c = client(idx("action-info-404"));
    const r = await c.power("ForceOff");
    expect(r.sent).toBe("ForceOff");
    expect(logs.join("\n")).toMatch(/ActionInfo .* unreadable \(HTTP 404\)/);
  });

  it("misspelled-allowable-values: GracefulShutdown is read from 'GracefulRestartGracefulShutdwon' and sent spelled right", async () => {
    const c = client(idx("misspelled-allowable-values"));
    const r = await c.power("GracefulShutdown");
    expect(r.sent).toBe("GracefulShutdown");
    expect(logs.join("\n")).toMatch(/non-standard list/);
  });

  it("accepted-without-location: the task named in @Message.ExtendedInfo is polled to its end", async () => {
    const done = await client(idx("accepted-without-location")).simpleUpdate(
      "http://images.lab/bios-7.7.7.bin",
      [],
      poll,
    );
    expect(done.state).toBe("Completed");
    expect(done.uri).toMatch(/\/TaskService\/Tasks\//);
    expect(lab.world.firmwareVersion(nodeOf(idx("accepted-without-location")), "bios")).toBe("7.7.7");
  });

  it("update-task-fails: TaskState Failed ends the wait at once with TASK_FAILED", async () => {
    const e = await rejection(
      client(idx("update-task-fails")).simpleUpdate("http://images.lab/bios-1.0.1.bin", [], poll),
    );
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_TASK_FAILED")).toBe(true);
    expect(e.message).toMatch(/Failed/);
  });

  it("oem-pci-gpus: GPUs come from Oem.<Vendor>.Links.PCIDevices, the BMC's own VGA left out", async () => {
    const inv = await client(idx("oem-pci-gpus")).inventory();
    expect(inv.gpus).toHaveLength(8);
    expect(inv.gpus.every((g) => g.model?.includes("H100"))).toBe(true);
  });

  it("empty-processors: CPUs from ProcessorSummary.Count, GPUs from PCIe functions", async () => {
    const node = nodeOf(idx("empty-processors"));
    const inv = await client(idx("empty-processors")).inventory();
    expect(inv.cpus).toHaveLength(node.spec.hardware.cpu.sockets);
    expect(inv.gpus).toHaveLength(8);
  });

  it("blank-serials: a serial of spaces is no serial", async () => {
    const inv = await client(idx("blank-serials")).inventory();
    expect(inv.serial).toBeUndefined();
    expect(inv.gpus).toHaveLength(8);
    expect(inv.gpus.every((g) => g.serial === undefined)).toBe(true);
  });

  it("vendor-message-ids: a 400 with iDRAC SUP0108 is a retryable BMC_BUSY carrying MessageId and Resolution", async () => {
    const c = client(idx("vendor-message-ids"));
    lab.world.startUpdate(nodeOf(idx("vendor-message-ids")), "bios", "3.3.3", "http://images.lab/bios-3.3.3.bin");
    const e = await rejection(c.simpleUpdate("http://images.lab/bios-4.4.4.bin", [], poll));
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_BMC_BUSY")).toBe(true);
    expect(e.messageId).toBe("IDRAC.2.8.SUP0108");
    expect(e.resolution).toMatch(/retry/);
    expect(e.status).toBe(400);
  });

  it("every quirk at once: right GPU count, MACs, CPU count, memory and firmware versions", async () => {
    const node = nodeOf(ALL);
    const hw = node.spec.hardware;
    const inv = await client(ALL).inventory();
    expect(inv.gpus).toHaveLength(8);
    expect(inv.macs).toEqual(node.ports.map((p) => p.mac.toUpperCase()));
    expect(inv.cpus).toHaveLength(hw.cpu.sockets);
    expect(inv.memoryGiB).toBe(hw.memory.dimms * hw.memory.dimmGiB);
    expect(inv.biosVersion).toBe(lab.world.firmwareVersion(node, "bios"));
    expect(inv.bmcFirmwareVersion).toBe(lab.world.firmwareVersion(node, "bmc"));
    expect(inv.serial).toBeUndefined();
    expect(inv.warnings?.length).toBeGreaterThan(0);
  });
});
