/**
 * The refresh benchmark's peer: Dell's terraform-provider-redfish (Go, terraform-plugin-framework, gofish), fetched
 * as a module from the Go module proxy, built once into the cache and installed beside rackform. Its `redfish_power`
 * reads each BMC's power state through the same Redfish services (the lab's BMCs): the wall a mature Go provider
 * takes for a no-op plan of the same BMCs, which issue 31 sets as rackform's goal.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ProviderPackage } from "../../../src/cli/install.js";
import { cacheDir } from "../../support/engines.js";

export const DELL_MODULE = "github.com/dell/terraform-provider-redfish";
export const DELL_VERSION = "1.6.1";

/** Dell's provider, built if needed; undefined (and why) when Go or the module proxy cannot give it. */
export function dellProvider(): { pkg?: ProviderPackage; why?: string } {
  const dir = join(cacheDir(), `dell-redfish-${DELL_VERSION}`);
  const bin = join(dir, "terraform-provider-redfish");
  const src = join(dir, "src");
  try {
    if (!existsSync(bin)) {
      mkdirSync(dir, { recursive: true });
      console.log(`building Dell's terraform-provider-redfish v${DELL_VERSION} (Go module proxy) into ${dir}`);
      // `go install m@v` refuses a module whose go.mod has replace directives (this one does): download its source,
      // then build it as the main module.
      const info = JSON.parse(
        execFileSync("go", ["mod", "download", "-json", `${DELL_MODULE}@v${DELL_VERSION}`], { encoding: "utf8" }),
      ) as { Dir: string };
      rmSync(src, { recursive: true, force: true });
      cpSync(info.Dir, src, { recursive: true, mode: 0 });
      execFileSync("chmod", ["-R", "u+w", src]);
      execFileSync("go", ["build", "-o", bin, "."], { cwd: src, stdio: "inherit" });
    }
  } catch (e) {
    return { why: `Dell's provider could not be built here: ${(e as Error).message.split("\n")[0]}` };
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
  return { pkg: { namespace: "dell", type: "redfish", version: DELL_VERSION, exec: [bin] } };
}

/**
 * One `redfish_power` per BMC, holding it On (as the lab's nodes are): a no-op plan reads each power state. The BMCs'
 * certificates are verified, as rackform verifies them: the provider has no CA option, so the workdir's environment
 * names the lab's CA in SSL_CERT_FILE, which Go's crypto/x509 reads on Linux.
 */
export function dellResources(bmcs: readonly { name: string; url: string }[], user: string): string {
  const head =
    'terraform {\n  required_providers {\n    redfish = { source = "dell/redfish" }\n  }\n}\n' +
    'variable "bmc_password" {\n  type      = string\n  sensitive = true\n}\n';
  const body = bmcs.map(
    (b) => `resource "redfish_power" ${JSON.stringify(b.name)} {
  redfish_server {
    user         = ${JSON.stringify(user)}
    password     = var.bmc_password
    endpoint     = ${JSON.stringify(b.url)}
    ssl_insecure = false
  }
  desired_power_action = "On"
  maximum_wait_time    = 120
  check_interval       = 1
}
`,
  );
  return head + body.join("\n");
}
