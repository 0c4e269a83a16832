/** Per-vendor resource ids: real BMCs differ here, and clients that hard-code "1" or "System.Embedded.1" break. */
import type { VendorStyle } from "./spec.js";

/** Id scheme of one vendor's Redfish service. */
export interface VendorIds {
  readonly system: (serial: string) => string;
  readonly manager: string;
  readonly chassis: (serial: string) => string;
  readonly cpu: (i: number) => string;
  readonly gpu: (i: number) => string;
  readonly nic: (nic: number, port: number) => string;
  readonly firmware: { readonly bmc: string; readonly bios: string; readonly gpu: string; readonly nic: string };
  readonly bmcName: string;
}

const plain = (name: string): VendorIds => ({
  system: () => "1",
  manager: "1",
  chassis: () => "1",
  cpu: (i) => `${i + 1}`,
  gpu: (i) => `GPU${i + 1}`,
  nic: (n, p) => `${n + 1}${p > 0 ? `-${p + 1}` : ""}`,
  firmware: { bmc: "BMC", bios: "BIOS", gpu: "GPU", nic: "NIC" },
  bmcName: name,
});

/** Id schemes by vendor style. */
export const VENDOR_IDS: Readonly<Record<VendorStyle, VendorIds>> = {
  dell: {
    system: () => "System.Embedded.1",
    manager: "iDRAC.Embedded.1",
    chassis: () => "System.Embedded.1",
    cpu: (i) => `CPU.Socket.${i + 1}`,
    gpu: (i) => `Video.Slot.${31 + i}-1`,
    nic: (n, p) => `NIC.Slot.${n + 1}-${p + 1}-1`,
    firmware: { bmc: "Installed-25227-iDRAC", bios: "Installed-159-BIOS", gpu: "Installed-GPU", nic: "Installed-NIC" },
    bmcName: "iDRAC",
  },
  "nvidia-dgx": {
    system: () => "DGX",
    manager: "BMC",
    chassis: () => "DGX",
    cpu: (i) => `CPU_${i}`,
    gpu: (i) => `GPU_SXM_${i + 1}`,
    nic: (n, p) => `eth${n * 2 + p}`,
    firmware: { bmc: "HGX_FW_BMC_0", bios: "HostBIOS_0", gpu: "HGX_FW_GPU_SXM_1", nic: "CX7_FW_0" },
    bmcName: "DGX BMC",
  },
  supermicro: plain("BMC"),
  hpe: { ...plain("iLO"), gpu: (i) => `${i + 3}`, firmware: { bmc: "1", bios: "2", gpu: "3", nic: "4" } },
  lenovo: { ...plain("XClarity Controller"), firmware: { bmc: "BMC-Primary", bios: "UEFI", gpu: "GPU", nic: "NIC" } },
  contoso: {
    ...plain("BMC"),
    system: (serial) => serial,
    manager: "BMC",
    chassis: () => "1U",
  },
};
