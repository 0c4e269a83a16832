/** Host power sightings: a fresh "On" from the machine's own BMC stands; anything else sends the question on. */
import { describe, expect, it } from "vitest";
import { HostSightings, SIGHTING_MAX_AGE_MS } from "../../../src/provider/shared/host-sightings.js";

describe("HostSightings", () => {
  it("answers for a machine linked to a BMC seen on within the window, by origin", () => {
    let t = 0;
    const s = new HostSightings(() => t);
    s.link("maas:abc", "https://10.0.0.11/");
    expect(s.seenOn("maas:abc")).toBe(false);
    s.saw("https://10.0.0.11:443", "/redfish/v1/Systems/1", "On");
    expect(s.seenOn("maas:abc")).toBe(true);
    expect(s.seenOn("maas:other")).toBe(false);
    t += SIGHTING_MAX_AGE_MS + 1;
    expect(s.seenOn("maas:abc")).toBe(false);
  });

  it("does not answer for a host seen off or in any other state, or whose BMC went unanswered", () => {
    const s = new HostSightings(() => 0);
    s.link("ironic:n1", "https://10.0.0.11");
    for (const state of ["Off", "PoweringOn", null]) {
      s.saw("https://10.0.0.11", "/redfish/v1/Systems/1", state);
      expect(s.seenOn("ironic:n1"), String(state)).toBe(false);
    }
    s.saw("https://10.0.0.11", "/redfish/v1/Systems/1", "On");
    s.lost("https://10.0.0.11");
    expect(s.seenOn("ironic:n1")).toBe(false);
  });

  it("never answers for a BMC that serves more than one system: the endpoint does not say which host", () => {
    const s = new HostSightings(() => 0);
    s.link("maas:a", "https://10.0.0.20");
    s.saw("https://10.0.0.20", "/redfish/v1/Systems/Blade1", "On");
    s.saw("https://10.0.0.20", "/redfish/v1/Systems/Blade2", "On");
    expect(s.seenOn("maas:a")).toBe(false);
    s.saw("https://10.0.0.20", "/redfish/v1/Systems/Blade1", "On");
    expect(s.seenOn("maas:a")).toBe(false);
  });
});
