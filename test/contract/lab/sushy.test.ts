/**
 * Contract: real sushy (the Python Redfish client Ironic uses) accepts a lab BMC. It verifies TLS against the lab CA,
 * logs in with a session, reads the system, sets one-time PXE boot and power-cycles, reads and switches UEFI Secure
 * Boot (system.secure_boot; sushy 5.14 has no API for Secure Boot certificates/signatures nor for ComponentIntegrity)
 * — driven by sushy_drive.py.
 * Needs `python3` with sushy installed (`pip install sushy`); fails with that instruction when it is missing.
 */
import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control, type Json, powerOutlet, startTestLab, type TestLab } from "../../integration/lab/lab-client.js";

const SCRIPT = join(import.meta.dirname, "sushy_drive.py");

async function requireSushy(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)("python3", [
      "-c",
      "import sushy, importlib.metadata as m; print(m.version('sushy'))",
    ]);
    return stdout.trim();
  } catch (e) {
    throw new Error(`sushy is not importable by python3 (${String(e).split("\n")[0]}); install it: pip install sushy`);
  }
}

function drive(url: string, username: string, password: string, ca: string): Promise<Json> {
  return new Promise((resolve, reject) => {
    const p = spawn("python3", [SCRIPT, url, username, ca], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sushy_drive.py exited ${code}:\n${err}`)),
    );
    p.stdin.end(`${password}\n`);
  });
}

describe("sushy against a lab BMC", () => {
  let t: TestLab;
  beforeAll(async () => {
    await requireSushy();
    // The Dell-style and DGX-style nodes: ids differ ("System.Embedded.1" vs "DGX"), sushy must follow links.
    t = await startTestLab({ nodes: 2 });
  });
  afterAll(async () => t?.stop());

  for (const index of [0, 1]) {
    it(`logs in, reads, sets one-time PXE and power-cycles node ${index + 1}`, async () => {
      const node = t.lab.info.nodes[index];
      await powerOutlet(t, node.name);
      const since = t.lab.requests.last();
      const seen = await drive(node.bmc.url, node.bmc.username, node.bmc.password, t.lab.info.ca);
      const labNode = t.lab.world.node(node.name)!;

      expect(seen.session_token_set).toBe(true);
      expect(seen.system_paths).toEqual([`/redfish/v1/Systems/${labNode.systemId}`]);
      expect(seen.serial).toBe(labNode.serial);
      expect(seen.power_before).toBe("Off");
      expect(seen.boot_targets).toContain("Pxe");
      expect(seen.reset_types).toContain("PowerCycle");
      expect(seen.macs).toEqual(labNode.ports.map((p) => p.mac).sort());
      expect(seen.gpus).toHaveLength(8);
      expect(seen.memory_gib).toBe(2048);
      // sushy sums TotalThreads: 2 sockets × 56 cores × 2 threads.
      expect(seen.cpu_count).toBe(224);
      expect(seen.disk_max_bytes).toBe(3576 * 1024 ** 3);
      expect(seen.boot_after_set).toEqual({ target: "Pxe", enabled: "Once" });
      expect(seen.power_after_cycle).toBe("On");
      // The one-time override was consumed by the boot it applied to.
      expect(seen.boot_after_cycle.enabled).toBe("Disabled");
      expect((await control(t, "GET", `/nodes/${node.name}`)).body.boot.lastBootSource).toBe("Pxe");
      expect(seen.vmedia_inserted).toEqual({ image: "http://127.0.0.1:8080/images/ipa.iso", inserted: true });
      expect(seen.vmedia_after_eject).toBe(false);
      expect(seen.firmware.length).toBeGreaterThanOrEqual(3);
      // UEFI Secure Boot through sushy's system.secure_boot: read, enable for the next boot, reset.
      expect(seen.secure_boot).toEqual({ enabled: false, current_boot: "Disabled", mode: "UserMode" });
      expect(seen.secure_boot_reset_keys).toEqual(["DeleteAllKeys", "DeletePK", "ResetAllKeysToDefault"]);
      expect(seen.secure_boot_databases).toEqual(
        ["KEK", "KEKDefault", "PK", "PKDefault", "db", "dbDefault", "dbx", "dbxDefault"].sort(),
      );
      expect(seen.db_reset_keys).toEqual(["DeleteAllKeys", "ResetAllKeysToDefault"]);
      expect(seen.secure_boot_pending).toEqual({ enabled: true, current_boot: "Disabled", mode: "UserMode" });
      expect(seen.secure_boot_after_reset).toEqual({ enabled: true, current_boot: "Enabled", mode: "UserMode" });
      expect(seen.secure_boot_after_disable).toEqual({ enabled: false, current_boot: "Disabled", mode: "UserMode" });

      const log = t.lab.requests.since(since).filter((e) => e.target === node.name);
      const line = (m: string, p: RegExp) => log.find((e) => e.method === m && p.test(e.path));
      expect(line("POST", /\/SessionService\/Sessions$/)?.status).toBe(201);
      expect(line("PATCH", /\/Systems\/[^/]+$/)?.status).toBe(200);
      expect(line("POST", /ComputerSystem\.Reset$/)?.status).toBe(204);
      expect(line("DELETE", /\/Sessions\/[^/]+$/)?.status).toBe(204);
      expect(log.filter((e) => e.status === 401)).toEqual([]);
    });
  }
});
