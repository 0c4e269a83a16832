/**
 * Contract: rackform's power, reset and boot-override paths against sushy-tools' Redfish emulator (fake system driver).
 * Power goes through RedfishClient.power (ResetType chosen from the System's own AllowableValues) and the wait the
 * provider's resources use after a reset (waitHostPower); the fake driver applies a power change 1–11 s after the POST
 * ("hardware actions are not immediate"), so every step is awaited by polling the System, never by a timer.
 * What the emulator does differently from a full BMC, and how rackform takes it:
 *  - it advertises Nmi but its fake driver refuses it (HTTP 501): a typed status error, not a success;
 *  - it keeps every boot override "Continuous" (it ignores BootSourceOverrideEnabled, as its libvirt driver does), so
 *    a "Once" is sent and the target read back, but the emulator's own Enabled is what is reported;
 *  - it has no ETags, so the boot PATCH goes without If-Match.
 * Fails, never skips, when the emulator was not started.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StepDurations } from "../../../src/clients/http/poll.js";
import type { RedfishClient } from "../../../src/clients/redfish/index.js";
import { type HostPace, waitHostPower } from "../../../src/provider/shared/host-power.js";
import { emulator, emulatorClient, SUSHY_SYSTEMS } from "./emulator.js";

const POWER = SUSHY_SYSTEMS.power.uuid;
const BOOT = SUSHY_SYSTEMS.boot.uuid;
const pace: HostPace = { pace: { minMs: 200, maxMs: 500 }, steps: new StepDurations() };
let client: RedfishClient;
let log: string[];

beforeAll(async () => {
  ({ client, log } = emulatorClient(await emulator()));
}, 120_000);
afterAll(async () => {
  await client?.close();
});

/**
 * Waits for the fake driver's pending change; the signal only stops a hung test (the driver takes at most 11 s). The
 * emulator serves several systems, so the wait reads this one by id (a node's own BMC has one).
 */
const reach = (state: "On" | "Off") =>
  waitHostPower({ getSystem: () => client.getSystem(POWER) }, state, pace, AbortSignal.timeout(60_000));
const power = async (systemId: string) => (await client.getSystem(systemId)).powerState;

describe("power and resets against sushy-tools' emulator", () => {
  it("GIVEN a system that is off WHEN On is sent THEN the BMC reports On once the change lands", async () => {
    expect(await power(POWER)).toBe("Off");
    expect(await client.power("On", POWER)).toEqual({ requested: "On", sent: "On" });
    await reach("On");
    expect(await power(POWER)).toBe("On");
  });

  it("ForceRestart of a running system: the emulator cuts power and brings it back; the wait ends at On", async () => {
    // The emulator reports Off until the restart lands (at most 11 s later), On after: the wait must not stop early.
    expect(await client.power("ForceRestart", POWER)).toEqual({ requested: "ForceRestart", sent: "ForceRestart" });
    await reach("On");
    expect(await power(POWER)).toBe("On");
  });

  it("GracefulShutdown powers the system off", async () => {
    await client.power("GracefulShutdown", POWER);
    await reach("Off");
    expect(await power(POWER)).toBe("Off");
  });

  it("PowerCycle, which the emulator does not list, is sent as its equivalent ForceRestart and powers the system on", async () => {
    expect(await client.power("PowerCycle", POWER)).toEqual({ requested: "PowerCycle", sent: "ForceRestart" });
    await reach("On");
  });

  it("ForceOff powers the system off", async () => {
    await client.power("ForceOff", POWER);
    await reach("Off");
  });

  it("fails with the emulator's HTTP 501 on Nmi, which it advertises but its fake driver cannot do", async () => {
    const e = await client.power("Nmi", POWER).then(
      () => undefined,
      (x: unknown) => x as Error & { code?: string; status?: number },
    );
    expect(e?.code).toBe("RACKFORM_ERR_HTTP_STATUS");
    expect(e?.status).toBe(501);
    expect(e?.message).toContain("Nmi is not supported");
  });
});

describe("boot source override against sushy-tools' emulator", () => {
  it("GIVEN no ETag WHEN Pxe once is set THEN it is PATCHed (no If-Match to send) and read back as the target", async () => {
    expect((await client.getSystem(BOOT)).etag).toBeUndefined();
    const s = await client.setBootOverride("Pxe", "Once", { systemId: BOOT });
    expect(s.boot.target).toBe("Pxe");
    // The emulator keeps every override continuous whatever was asked: what it reports is recorded as it is.
    expect(s.boot.enabled).toBe("Continuous");
  });

  it("sets Hdd continuous and the UEFI mode", async () => {
    const s = await client.setBootOverride("Hdd", "Continuous", { systemId: BOOT, mode: "UEFI" });
    expect(s.boot).toMatchObject({ target: "Hdd", enabled: "Continuous", mode: "UEFI" });
  });

  it("fails with RACKFORM_ERR_REDFISH_BOOT_TARGET_UNSUPPORTED on Usb, outside the emulator's AllowableValues, and sends nothing", async () => {
    const before = log.length;
    const e = await client.setBootOverride("Usb", "Once", { systemId: BOOT }).then(
      () => undefined,
      (x: unknown) => x as Error & { code?: string },
    );
    expect(e?.code).toBe("RACKFORM_ERR_REDFISH_BOOT_TARGET_UNSUPPORTED");
    expect(e?.message).toContain("Pxe, Cd, Hdd, UefiHttp");
    expect(log.slice(before).filter((l) => l.startsWith("PATCH "))).toEqual([]);
    expect((await client.getSystem(BOOT)).boot.target).toBe("Hdd");
  });
});
