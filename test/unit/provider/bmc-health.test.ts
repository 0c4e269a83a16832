/** rackform_bmc's health findings: `since` kept while a component stays at the same health, new when it changes. */
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../../src/framework/index.js";
import { healthValues, warnUnhealthy } from "../../../src/provider/resources/bmc-health.js";

const GPU = "/redfish/v1/Systems/1/Processors/GPU0";
const T0 = new Date("2026-11-20T10:00:00Z");
const T1 = new Date("2026-11-27T10:00:00Z");

describe("healthValues", () => {
  it("records each finding with when it was first seen, and keeps that time while nothing changes", () => {
    const first = healthValues([{ kind: "gpu", id: GPU, name: "GPU 1", health: "Warning" }], null, T0);
    expect(first).toEqual([{ component: "GPU 1", kind: "gpu", health: "Warning", uri: GPU, since: T0.toISOString() }]);
    const same = healthValues([{ kind: "gpu", id: GPU, name: "GPU 1", health: "Warning" }], first, T1);
    expect(same[0].since).toBe(T0.toISOString());
  });

  it("starts a new time when the health changes, and names a component without a name by its URI", () => {
    const first = healthValues([{ kind: "gpu", id: GPU, health: "Warning" }], null, T0);
    const worse = healthValues([{ kind: "gpu", id: GPU, health: "Critical" }], first, T1);
    expect(worse).toEqual([{ component: GPU, kind: "gpu", health: "Critical", uri: GPU, since: T1.toISOString() }]);
    expect(healthValues([], worse, T1)).toEqual([]);
  });
});

describe("warnUnhealthy", () => {
  it("warns once per node, naming every component, and says nothing for a healthy node", () => {
    const d = new Diagnostics();
    warnUnhealthy(d, "https://10.0.0.5", []);
    expect(d.items).toEqual([]);
    warnUnhealthy(
      d,
      "https://10.0.0.5",
      healthValues([{ kind: "memory", id: "/m/DIMM3", name: "DIMM3", health: "Critical" }], null, T0),
    );
    expect(d.items.map((x) => [x.severity, x.summary])).toEqual([
      ["warning", "Node health: 1 component not OK: https://10.0.0.5"],
    ]);
    expect(d.items[0].detail).toContain("DIMM3 (memory): Critical since 2026-11-20T10:00:00.000Z");
  });
});
