/**
 * BIOS settings judged by real AttributeRegistry payloads (DMTF DSP2046 example, sushy samples) before any write.
 */
import { describe, expect, it } from "vitest";
import { checkBiosSettings, parseAttributeRegistry } from "../../../src/clients/redfish/bios-registry.js";
import { fixture } from "../../support/clients/mockup-server.js";

const dmtf = parseAttributeRegistry(fixture("dmtf/mockups/DSP2046-examples/AttributeRegistry-v1-example.json"));
const sushy = parseAttributeRegistry(fixture("sushy/json_samples/bios_attribute_registry.json"));
const sushyBios = fixture("sushy/json_samples/bios.json").Attributes as Record<string, string | number>;

describe("AttributeRegistry", () => {
  it("reads attributes with their types, allowed values and read-only flags", () => {
    expect(dmtf.id).toBe("BiosAttributeRegistryG9000.v1_0_0");
    expect(dmtf.attributes.get("EmbeddedSata")).toMatchObject({ type: "Enumeration", allowed: ["Ahci", "Raid"] });
    expect(sushy.attributes.get("SystemModelName")).toMatchObject({ type: "String", readOnly: true, maxLength: 40 });
    expect(dmtf.dependencies).toEqual([
      {
        target: "EmbeddedSata",
        property: "ReadOnly",
        value: true,
        from: [
          { attribute: "BootMode", property: "CurrentValue", condition: "EQU", value: "LegacyBios", terms: "AND" },
        ],
      },
    ]);
  });

  it("accepts settings the registry allows", () => {
    expect(checkBiosSettings(dmtf, { BootMode: "Uefi" }, { EmbeddedSata: "Ahci", NicBoot1: "Disabled" })).toEqual([]);
    expect(checkBiosSettings(sushy, sushyBios, { ProcVirtualization: "Disabled" })).toEqual([]);
  });

  it("names an unknown attribute, a value outside the list (with the list) and a wrong type", () => {
    const got = checkBiosSettings(dmtf, {}, { SriovGlobalEnable: "Enabled", EmbeddedSata: "Nvme", NicBoot1: 1 });
    expect(got).toEqual([
      {
        attribute: "SriovGlobalEnable",
        kind: "unknown",
        detail: "not in the registry BiosAttributeRegistryG9000.v1_0_0",
      },
      { attribute: "EmbeddedSata", kind: "value", detail: '"Nvme" is not allowed', allowed: ["Ahci", "Raid"] },
      { attribute: "NicBoot1", kind: "type", detail: "Enumeration attribute given number" },
    ]);
  });

  it("refuses a read-only attribute unless it already holds the value", () => {
    const current = { SystemModelName: "Ultra 4" };
    expect(checkBiosSettings(sushy, current, { SystemModelName: "Ultra 5" })).toEqual([
      { attribute: "SystemModelName", kind: "read-only", detail: "read-only" },
    ]);
    expect(checkBiosSettings(sushy, current, { SystemModelName: "Ultra 4" })).toEqual([]);
  });

  it("applies the registry's dependencies to the settings after the change", () => {
    // EmbeddedSata is read-only in legacy boot mode: refused when the change also sets LegacyBios, allowed otherwise.
    expect(checkBiosSettings(dmtf, { BootMode: "Uefi" }, { BootMode: "LegacyBios", EmbeddedSata: "Ahci" })).toEqual([
      {
        attribute: "BootMode",
        kind: "unknown",
        detail: "not in the registry BiosAttributeRegistryG9000.v1_0_0",
      },
      { attribute: "EmbeddedSata", kind: "dependency", detail: 'read-only while BootMode EQU "LegacyBios"' },
    ]);
    expect(checkBiosSettings(dmtf, { BootMode: "LegacyBios" }, { EmbeddedSata: "Ahci" })[0]?.kind).toBe("dependency");
  });

  it("checks integer bounds and steps, and string lengths", () => {
    const reg = parseAttributeRegistry({
      Id: "R",
      RegistryEntries: {
        Attributes: [
          { AttributeName: "Cores", Type: "Integer", LowerBound: 0, UpperBound: 64, ScalarIncrement: 2 },
          { AttributeName: "Tag", Type: "String", MaxLength: 4, ValueExpression: "[A-Z]+" },
        ],
      },
    });
    expect(checkBiosSettings(reg, {}, { Cores: 66, Tag: "ABCDE" }).map((p) => p.detail)).toEqual([
      "66 is above the upper bound 64",
      "longer than 4 characters",
    ]);
    expect(checkBiosSettings(reg, {}, { Cores: 3, Tag: "ab" }).map((p) => p.detail)).toEqual([
      "3 is not a step of 2",
      "does not match [A-Z]+",
    ]);
    expect(checkBiosSettings(reg, {}, { Cores: 2.5 })[0]?.detail).toBe("Integer attribute given 2.5");
  });
});
