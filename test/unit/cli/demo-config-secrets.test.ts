/**
 * Regression of chaos seed 1 (issue 15): the rack HCL passed credentials as sensitive variables only, and a saved
 * plan's JSON (`show -json PLAN`) held the BMC password, the MAAS API key and the Slurm JWT in clear. Every secret
 * variable is now ephemeral (kept out of plan and state files) and none is written into the configuration.
 */
import { describe, expect, it } from "vitest";
import { demoConfig } from "../../../src/cli/demo-config.js";
import type { LabInfo } from "../../../src/lab/index.js";

const SECRETS = {
  bmc: "bmc-Passw0rd-xyz",
  key: "ck:tk:maas-secret-0123456789",
  slurm: "eyJ.slurm.jwt",
  kube: "kube-tok-1",
};
const info = {
  ca: "/lab/ca.pem",
  control: { url: "http://127.0.0.1:1" },
  pdus: [{ id: "r01-pdu-a", rack: "r01", url: "https://127.11.1.1:1", username: "admin", password: SECRETS.bmc }],
  nodes: [
    {
      name: "r01-n01",
      rack: "r01",
      u: 2,
      pdu: "r01-pdu-a",
      outlet: 1,
      bmc: { url: "https://127.10.1.1:1", username: "admin", password: SECRETS.bmc },
    },
  ],
  maas: { url: "http://127.0.0.1:2/MAAS/", apiKey: SECRETS.key },
  ironic: { url: "http://127.0.0.1:3" },
  slurm: { url: "http://127.0.0.1:4", user: "rackform", token: SECRETS.slurm },
  kubernetes: { url: "http://127.0.0.1:5", token: SECRETS.kube },
} as LabInfo;
const image = { name: "ubuntu-gpu", version: "1", sha256: "0".repeat(64) };

/** The body of `variable "name" { … }` in the HCL. */
function variable(hcl: string, name: string): string {
  const m = new RegExp(`variable "${name}" \\{([^}]*)\\}`).exec(hcl);
  if (!m) throw new Error(`no variable ${name}`);
  return m[1];
}

describe("the rack HCL's credentials", () => {
  it.each([
    ["maas", "slurm", ["redfish_password", "maas_api_key", "slurm_token"]],
    ["ironic", "kubernetes", ["redfish_password", "kube_token"]],
  ] as const)("are ephemeral sensitive variables (%s, %s) and never literals", (backend, scheduler, names) => {
    const hcl = demoConfig(info, image, { backend, scheduler });
    for (const name of names) {
      expect(variable(hcl, name)).toMatch(/sensitive\s*=\s*true/);
      expect(variable(hcl, name)).toMatch(/ephemeral\s*=\s*true/);
    }
    for (const secret of Object.values(SECRETS)) expect(hcl).not.toContain(secret);
  });
});
