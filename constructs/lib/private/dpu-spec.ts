/**
 * A flavor's BlueField DPUs: the JSON Schema of Flavor's `dpus` prop. The BFB version's pattern is the provider's
 * (rackform_dpu `bfb.version`), so a declaration the provider would refuse fails at synth instead.
 */
import type { PropsSchema } from "./validate.js";

/** The most DPUs a node can carry (the lab's limit, and more than any GPU server ships with). */
export const MAX_DPUS = 4;

/** Schema of a Flavor's `dpus`. */
export const DPUS_SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["count", "bfb"],
  fix: "describe the DPUs, e.g. { count: 1, bfb: { version, url, sha256 } }",
  properties: {
    count: {
      type: "integer",
      minimum: 1,
      maximum: MAX_DPUS,
      expect: `a whole number of DPUs in 1..${MAX_DPUS}`,
      fix: "give the DPUs every node has, e.g. 1",
    },
    mode: {
      enum: ["DpuMode", "NicMode"],
      expect: 'a mode of operation, "DpuMode" or "NicMode"',
      fix: 'use "DpuMode" (the Arm cores own the NIC) or "NicMode"',
    },
    rshim: {
      enum: ["bmc", "host"],
      expect: 'an rshim policy, "bmc" or "host"',
      fix: 'use "bmc" (the DPU BMC keeps the rshim) or "host" (handed back after an install)',
    },
    bfb: {
      type: "object",
      additionalProperties: false,
      required: ["version", "url", "sha256"],
      fix: "pin the BFB: { version, url, sha256 }",
      properties: {
        version: {
          type: "string",
          pattern: "^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$",
          expect: "a DPU_OS version",
          fix: 'give the version FirmwareInventory/DPU_OS reports, e.g. "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod"',
        },
        url: {
          type: "string",
          format: "http-url",
          expect: "an http(s) URL",
          fix: "give the URL the DPU's BMC downloads the .bfb from, e.g. http://images.example/doca.bfb",
        },
        sha256: {
          type: "string",
          format: "sha256",
          expect: "a sha256 digest",
          fix: "write the .bfb's sha256 as 64 hex digits (sha256sum FILE.bfb)",
        },
      },
    },
  },
};
