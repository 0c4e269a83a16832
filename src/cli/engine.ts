/** Which engine binary the commands that run one (`rackform demo`, `rackform watch`) use. */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The engine binary: Terraform on PATH, else the pinned OpenTofu build (or the one `name` asks for). */
export function findEngine(name?: string): string {
  const tofu = join(process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform"), "opentofu-v1.12.6", "tofu");
  const candidates = name === "tofu" ? [tofu] : name === "terraform" ? ["terraform"] : ["terraform", tofu];
  for (const c of candidates) {
    const onPath = (process.env.PATH ?? "").split(":").find((d) => !c.includes("/") && existsSync(join(d, c)));
    if (onPath) return join(onPath, c);
    if (c.includes("/") && existsSync(c)) return c;
  }
  throw new Error("no engine found: install Terraform 1.11, or run scripts/build-opentofu.sh for OpenTofu");
}
