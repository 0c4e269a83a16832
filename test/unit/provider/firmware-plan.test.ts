import { describe, expect, it } from "vitest";
import type { FirmwareInfo } from "../../../src/clients/redfish/index.js";
import { componentClass, describeMove, firmwarePlan } from "../../../src/provider/shared/firmware-plan.js";

const FW = "/redfish/v1/UpdateService/FirmwareInventory";
const inventory: FirmwareInfo[] = [
  { id: "BMC", name: "iDRAC firmware", version: "7.10", odataId: `${FW}/BMC` },
  { id: "BIOS", name: "BIOS", version: "2.1", odataId: `${FW}/BIOS` },
  { id: "GPU0", name: "GPU firmware", version: "96.00.5E", odataId: `${FW}/GPU0` },
  { id: "GPU1", name: "GPU firmware", version: "96.00.74", odataId: `${FW}/GPU1` },
  { id: "NIC.1", name: "ConnectX-7", version: "28.39.1002" },
];
const t = (version: string) => ({ version, url: `https://img/${version}.bin`, sha256: "a".repeat(64) });

describe("firmware plan", () => {
  it("lists components behind the baseline in vendor order: BMC, BIOS, then devices", () => {
    const plan = firmwarePlan(inventory, {
      "GPU firmware": t("96.00.74"),
      BIOS: t("2.3"),
      BMC: t("7.20"),
      "NIC.1": t("28.39.1002"),
    });
    expect(plan.unknown).toEqual([]);
    expect(plan.moves.map(describeMove)).toEqual([
      "BMC 7.10 → 7.20",
      "BIOS 2.1 → 2.3",
      "GPU firmware 96.00.5E → 96.00.74",
    ]);
    // Both GPUs are targets of the one image; the NIC is at its version and is left alone.
    expect(plan.moves[2]?.targets).toEqual([`${FW}/GPU0`, `${FW}/GPU1`]);
  });

  it("names baseline keys the node has no item for, and moves nothing at its version", () => {
    expect(firmwarePlan(inventory, { NVSwitch: t("1.0"), BMC: t("7.10") })).toEqual({
      moves: [],
      unknown: ["NVSwitch"],
    });
  });

  it("classifies components by key and inventory names", () => {
    expect(componentClass("iDRAC")).toBe("bmc");
    expect(componentClass("bmc_firmware_version")).toBe("bmc");
    expect(componentClass("Firmware", [{ id: "UEFI", name: "System UEFI" }])).toBe("bios");
    expect(componentClass("HGX_FW_GPU_SXM_1")).toBe("device");
  });
});
