/** The backend seam's shared rules: one machine per identity (never a guess between several), MAC and BMC matching. */
import { describe, expect, it } from "vitest";
import {
  AmbiguousMachineError,
  bmcOrigin,
  type MachineFacts,
  normalMac,
  pickOne,
} from "../../../src/provider/backends/index.js";

const facts = (id: string, name: string): MachineFacts => ({
  id,
  name,
  state: "ready",
  status: "Ready",
  message: "",
  macs: [],
  power: "off",
});

describe("pickOne", () => {
  it("merges the ways one machine matched", () => {
    const found = pickOne("maas", [
      { facts: facts("abc", "r01-n01"), matchedBy: ["name"] },
      { facts: facts("abc", "r01-n01"), matchedBy: ["mac"] },
    ]);
    expect(found?.facts.id).toBe("abc");
    expect(found?.matchedBy).toEqual(["name", "mac"]);
  });

  it("finds nothing in no candidates", () => {
    expect(pickOne("ironic", [])).toBeUndefined();
  });

  it("fails when two machines match, naming both", () => {
    const two = () =>
      pickOne("maas", [
        { facts: facts("abc", "r01-n01"), matchedBy: ["name"] },
        { facts: facts("def", "old-name"), matchedBy: ["mac"] },
      ]);
    expect(two).toThrow(AmbiguousMachineError);
    expect(two).toThrow(/abc, def/);
  });
});

describe("identity normalization", () => {
  it("compares MACs case- and separator-blind", () => {
    expect(normalMac(" 3C-EC-EF-00-00-01 ")).toBe("3c:ec:ef:00:00:01");
  });

  it("compares BMC addresses by origin, with or without scheme, path or default port", () => {
    expect(bmcOrigin("10.0.0.5")).toBe("https://10.0.0.5");
    expect(bmcOrigin("https://10.0.0.5:443/redfish/v1")).toBe("https://10.0.0.5");
    expect(bmcOrigin("https://127.10.1.1:8443")).toBe("https://127.10.1.1:8443");
  });
});
