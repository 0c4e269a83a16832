/**
 * Contract: rackform's RedfishClient against sushy-tools' Redfish emulator (real software, its fake system driver),
 * over HTTPS verified against the run's test CA, with the emulator's HTTP Basic auth. Discovery, authentication and
 * the inventory read. The emulator is a plain BMC in what it lacks, and rackform must treat it as one:
 *  - no SessionService: the session-mode client uses basic auth (fixed in transport.ts after this test found it);
 *  - no `$expand`, no ETags: plain GETs, and no refresh fingerprint (a later refresh reads everything);
 *  - no GPUs (no Processors, no PCIeDevices): an empty GPU inventory, not an error;
 *  - no LogServices and every Status.Health "OK": no health findings;
 *  - links it serves no route for (Memory 404, FirmwareInventory 404) and a Storage it cannot find (500): skipped, named
 *    in the inventory's warnings, the rest read.
 * Fails, never skips, when the emulator was not started.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SushyEmulatorInfo } from "../../support/real-sushy.js";
import { emulator, emulatorClient, SUSHY_SYSTEMS } from "./emulator.js";

let info: SushyEmulatorInfo;
const INV = SUSHY_SYSTEMS.inventory;

beforeAll(async () => {
  info = await emulator();
}, 120_000);

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as Error & { code?: string; status?: number },
  );

describe(`RedfishClient against sushy-tools' emulator`, () => {
  it("runs the sushy-tools version pinned in test/contract/requirements.txt", () => {
    const pinned = /^sushy-tools==(\S+)$/m.exec(readFileSync(join(import.meta.dirname, "../requirements.txt"), "utf8"));
    expect(info.version).toBe(pinned?.[1]);
  });

  it("GIVEN no SessionService WHEN the default (session) client logs in, reads and logs out THEN it uses basic auth and sends no login or logout", async () => {
    const { client, log } = emulatorClient(info);
    // What makes it a BMC without sessions: its root names no SessionService (and no Links.Sessions).
    const root = await client.serviceRoot();
    expect(root.SessionService).toBeUndefined();
    expect(root.Links).toBeUndefined();
    await client.login();
    const sys = await client.getSystem(INV.uuid);
    await client.close();
    expect(sys.uuid).toBe(INV.uuid);
    expect(log.some((l) => l.includes("names no SessionService; using basic auth"))).toBe(true);
    expect(log.filter((l) => /^(POST|DELETE) /.test(l))).toEqual([]);
  });

  it("fails with RACKFORM_ERR_REDFISH_AUTH when the emulator's htpasswd refuses the password, which no message shows", async () => {
    const wrong = `${info.password}-wrong`;
    for (const auth of ["session", "basic"] as const) {
      const { client, log } = emulatorClient(info, { auth, password: wrong });
      const e = await failure(client.getSystem(INV.uuid));
      await client.close();
      expect(e.code).toBe("RACKFORM_ERR_REDFISH_AUTH");
      expect(e.message).toContain("HTTP 401");
      for (const text of [e.message, ...log]) expect(text).not.toContain(wrong);
    }
  });

  it("fails with RACKFORM_ERR_TLS against a CA that did not sign the emulator's certificate", async () => {
    const { client } = emulatorClient(info, { ca: info.otherCaPem });
    const e = await failure(client.serviceRoot());
    await client.close();
    expect(e.code).toBe("RACKFORM_ERR_TLS");
  });

  it("discovers the emulator's systems, managers and chassis by following links, and no rack PDUs", async () => {
    const { client } = emulatorClient(info);
    const d = await client.discover();
    const ambiguous = await failure(client.getSystem());
    await client.close();
    expect([...d.systems].sort()).toEqual(
      Object.values(SUSHY_SYSTEMS)
        .map((s) => s.uuid)
        .sort(),
    );
    // The fake driver gives every system a Manager of the same id.
    expect(d.managers).toContain(INV.uuid);
    expect(d.chassis.length).toBeGreaterThan(0);
    expect(d.hasUpdateService).toBe(true);
    expect(d.rackPdus).toEqual([]);
    // Several systems: the client names them instead of guessing.
    expect(ambiguous.code).toBe("RACKFORM_ERR_REDFISH_AMBIGUOUS");
  });

  it("reads the inventory: identity, MACs, the drive and the BMC firmware; no GPUs, CPUs or health findings; dead links named", async () => {
    const { client } = emulatorClient(info);
    const inv = await client.inventory(INV.uuid);
    await client.close();
    expect(inv.systemId).toBe(INV.uuid);
    expect(inv.manufacturer).toBe("Sushy Emulator");
    expect(inv.macs).toEqual(INV.macs.map((m) => m.toUpperCase()));
    expect(inv.drives.map((d) => ({ id: d.id, capacityBytes: d.capacityBytes, protocol: d.protocol }))).toEqual([
      { id: "disk0", capacityBytes: INV.driveBytes, protocol: "SATA" },
    ]);
    expect(inv.bmcFirmwareVersion).toBe("1.00");
    // No GPUs: the emulator has no Processors and no PCIeDevices, so the inventory is empty, as for a plain server.
    expect(inv.gpus).toEqual([]);
    expect(inv.dpuCount ?? 0).toBe(0);
    // The fake driver reports no processors (no Processors link, no ProcessorSummary.Count) and no memory size.
    expect(inv.cpus).toEqual([]);
    expect(inv.memoryGiB).toBeUndefined();
    // No LogServices and every Status.Health OK: no findings.
    expect(inv.health).toEqual([]);
    // The System links Memory and the UpdateService links FirmwareInventory, for which the emulator has no route.
    expect(inv.firmware).toEqual([]);
    expect([...(inv.warnings ?? [])].sort()).toEqual([
      `skipped ${info.url}/redfish/v1/Systems/${INV.uuid}/Memory: HTTP 404`,
      `skipped ${info.url}/redfish/v1/UpdateService/FirmwareInventory: HTTP 404`,
    ]);
  });

  it("GIVEN no $expand and no ETags WHEN the inventory is read THEN it has no refresh fingerprint, and a refresh reads everything", async () => {
    const { client, log } = emulatorClient(info);
    const root = await client.serviceRoot();
    expect(root.ProtocolFeaturesSupported).toBeUndefined();
    const sys = await client.getSystem(INV.uuid);
    expect(sys.etag).toBeUndefined();
    const inv = await client.inventory(INV.uuid);
    expect(inv.refresh).toBeUndefined();
    expect(log.filter((l) => l.includes("$expand"))).toEqual([]);
    // The fingerprint calls of a refresh decline: without $expand there is nothing cheap to compare.
    const fp = { system: { path: `/redfish/v1/Systems/${INV.uuid}`, hash: "x" } };
    expect(await client.refreshSince(fp)).toBeUndefined();
    expect((await client.recheck(fp)).unchanged).toBe(false);
    await client.close();
  });
});
