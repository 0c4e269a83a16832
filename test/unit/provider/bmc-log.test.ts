/** rackform_bmc's log findings (bmc-log.ts): one per kind and component, kept until a power-on or a recovery. */
import { describe, expect, it } from "vitest";
import type { LogFinding } from "../../../src/clients/redfish/index.js";
import type { HealthFinding } from "../../../src/provider/resources/bmc-health.js";
import { carryLogHealth, logHealthValues, withHostOff } from "../../../src/provider/resources/bmc-log.js";

const NOW = new Date("2026-11-27T12:00:00Z");
const xid = (id: string, created: string, n = 48): LogFinding => ({
  kind: "gpu-xid",
  health: "Critical",
  component: "GPU_SXM_2",
  xid: n,
  entry: { id, created, args: [], uri: `/redfish/v1/Systems/DGX/LogServices/EventLog/Entries/${id}` },
});
const GPU: HealthFinding = { component: "GPU 2", kind: "gpu", health: "Critical", uri: "/p/GPU2", since: "x" };

describe("log findings in health", () => {
  it("one finding per kind and component: the newest entry's, naming the XID, since its Created time", () => {
    const v = logHealthValues([xid("7", "2026-11-27T10:00:00Z"), xid("9", "2026-11-27T11:00:00Z")], NOW);
    expect(v).toEqual([
      {
        component: "GPU_SXM_2 (XID 48)",
        kind: "log:gpu-xid",
        health: "Critical",
        uri: "/redfish/v1/Systems/DGX/LogServices/EventLog/Entries/9",
        since: "2026-11-27T11:00:00Z",
      },
    ]);
  });

  it("a finding stays until the host powered on after it (LastResetTime, or off then on), or the node recovered", () => {
    const prior = [GPU, ...logHealthValues([xid("7", "2026-11-27T10:00:00Z")], NOW)];
    const kept = carryLogHealth(prior, [], { powerState: "On", offSeenBefore: false });
    expect(kept.map((f) => f.kind)).toEqual(["log:gpu-xid"]);
    const before = { powerState: "On", lastResetTime: "2026-11-27T09:00:00Z", offSeenBefore: false };
    expect(carryLogHealth(prior, [], before)).toHaveLength(1);
    expect(carryLogHealth(prior, [], { ...before, lastResetTime: "2026-11-27T10:30:00Z" })).toEqual([]);
    expect(carryLogHealth(prior, [], { powerState: "On", offSeenBefore: true })).toEqual([]);
    expect(carryLogHealth(prior, [], { powerState: "On", offSeenBefore: false, recovered: true })).toEqual([]);
    // Logged again after the power-on: found again.
    const again = logHealthValues([xid("8", "2026-11-27T10:31:00Z")], NOW);
    expect(carryLogHealth(prior, again, { ...before, lastResetTime: "2026-11-27T10:30:00Z" })).toEqual(again);
  });

  it("an entry logged as the host booted, read once the components recovered, is past: a reimage cured it", () => {
    const boot = { powerState: "On", lastResetTime: "2026-11-27T10:30:00Z", offSeenBefore: false, recovered: true };
    const atBoot = logHealthValues([xid("8", "2026-11-27T10:30:00Z")], NOW);
    expect(carryLogHealth([GPU], atBoot, boot)).toEqual([]);
    // Logged after the boot it counts, recovered or not; and without a recovery an entry at the boot counts too.
    const later = logHealthValues([xid("9", "2026-11-27T10:45:00Z")], NOW);
    expect(carryLogHealth([GPU], later, boot)).toEqual(later);
    expect(carryLogHealth([GPU], atBoot, { ...boot, recovered: false })).toEqual(atBoot);
  });

  it("the host-off flag is kept only while a read finds the host not On", () => {
    expect(withHostOff({ a: 1 }, "Off")).toEqual({ a: 1, host_off_seen: true });
    expect(withHostOff({ a: 1, host_off_seen: true }, "On")).toEqual({ a: 1 });
    expect(withHostOff({ host_off_seen: true }, undefined)).toEqual({ host_off_seen: true });
  });
});
