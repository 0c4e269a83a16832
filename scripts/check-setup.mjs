#!/usr/bin/env node
// Checks that every counterpart the test projects need is installed, before vitest starts (scripts/test.sh) and again
// at vitest's start (test/setup/preflight.ts): a missing one fails the run at once with what to do, instead of one
// test file failing late (or, worse, passing on a developer's machine that happened to have it).
//   node scripts/check-setup.mjs [project …]   (no project: all of them)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { node22Problem } from "./node22.mjs";

const OPENTOFU_VERSION = process.env.OPENTOFU_VERSION ?? "v1.12.6";
const FIX = "run scripts/setup.sh (npm test runs it first)";

const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;

const cacheDir = () => process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform");

function terraform() {
  const built = join(cacheDir(), `terraform-${process.env.TERRAFORM_VERSION ?? "v1.11.4"}`, "terraform");
  const bin =
    process.env.RACKFORM_TERRAFORM ?? (has("terraform") ? "terraform" : existsSync(built) ? built : undefined);
  if (!bin)
    return `Terraform is not on PATH (set RACKFORM_TERRAFORM, or ${FIX}: it builds Terraform 1.11 when missing)`;
  try {
    execFileSync(bin, ["version"], { stdio: "ignore", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null" } });
  } catch {
    return `${bin} version failed`;
  }
  return undefined;
}

function opentofu() {
  const bin = process.env.RACKFORM_TOFU ?? join(cacheDir(), `opentofu-${OPENTOFU_VERSION}`, "tofu");
  return existsSync(bin) ? undefined : `OpenTofu ${OPENTOFU_VERSION} is not built at ${bin}: ${FIX}`;
}

function ironic() {
  const missing = ["ironic-api", "ironic-conductor", "ironic-dbsync"].filter((b) => !has(b));
  return missing.length ? `Debian's Ironic is missing (${missing.join(", ")}): ${FIX}` : undefined;
}

function slurm() {
  const missing = ["slurmctld", "slurmd", "slurmrestd", "munged", "scontrol", "sbatch"].filter((b) => !has(b));
  return missing.length ? `Debian's Slurm 22.05 is missing (${missing.join(", ")}): ${FIX}` : undefined;
}

function kubernetes() {
  const cache = cacheDir();
  const bins = [
    process.env.RACKFORM_KUBE_APISERVER ??
      join(cache, `kube-${process.env.KUBE_VERSION ?? "v1.37.2"}`, "kube-apiserver"),
    process.env.RACKFORM_ETCD ?? join(cache, `etcd-${process.env.ETCD_VERSION ?? "v3.6.16"}`, "etcd"),
  ];
  const missing = bins.filter((b) => !existsSync(b));
  return missing.length
    ? `kube-apiserver and etcd are not built (${missing.join(", ")}): run scripts/build-kube.sh (scripts/setup.sh --tests runs it)`
    : undefined;
}

function postgres() {
  const ok = (dir) => ["initdb", "pg_ctl", "psql"].every((b) => existsSync(join(dir, b)));
  if (process.env.RACKFORM_PG_BIN) return ok(process.env.RACKFORM_PG_BIN) ? undefined : `RACKFORM_PG_BIN lacks initdb`;
  const debian = "/usr/lib/postgresql";
  const majors = existsSync(debian) ? readdirSync(debian) : [];
  if (majors.some((m) => ok(join(debian, m, "bin")))) return undefined;
  if ((process.env.PATH ?? "").split(":").some((d) => d && ok(d))) return undefined;
  return `PostgreSQL server binaries (initdb, pg_ctl, psql) are missing: ${FIX}`;
}

function chromium() {
  return has("chromium") || has("chromium-browser")
    ? undefined
    : `Chromium is missing (the browser tests of rackform watch run it headless): ${FIX}`;
}

function python() {
  const r = spawnSync("python3", ["-c", "import sushy, maas.client, sushy_tools.emulator.main, bcrypt"], {
    encoding: "utf8",
  });
  if (r.status !== 0)
    return `the Python counterparts (sushy, python-libmaas, sushy-tools) do not import: ${FIX} (${(r.stderr ?? "").trim().split("\n").pop()})`;
  return has("sushy-emulator") ? undefined : `sushy-emulator (PyPI sushy-tools) is not on PATH: ${FIX}`;
}

/** Counterpart → the test projects that need it. */
export const REQUIREMENTS = [
  { name: "terraform", projects: ["e2e-terraform", "constructs"], check: terraform },
  { name: "opentofu", projects: ["e2e-tofu", "constructs"], check: opentofu },
  { name: "ironic", projects: ["contract"], check: ironic },
  { name: "postgresql", projects: ["e2e-terraform", "e2e-tofu"], check: postgres },
  { name: "slurm", projects: ["contract", "e2e-terraform", "e2e-tofu"], check: slurm },
  { name: "python", projects: ["contract"], check: python },
  { name: "kubernetes", projects: ["contract"], check: kubernetes },
  { name: "node22", projects: ["e2e-terraform", "e2e-tofu"], check: node22Problem },
  { name: "chromium", projects: ["integration", "e2e-terraform", "e2e-tofu"], check: chromium },
];

/** Problems (one line each) for the given projects; all projects when none is given. */
export function checkSetup(projects = []) {
  return REQUIREMENTS.filter((r) => projects.length === 0 || r.projects.some((p) => projects.includes(p)))
    .map((r) => r.check())
    .filter(Boolean);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkSetup(process.argv.slice(2));
  if (problems.length) {
    console.error(`set-up is incomplete:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    process.exit(1);
  }
  console.log(`set-up complete: ${REQUIREMENTS.map((r) => r.name).join(", ")}`);
}
