// Completes package-lock.json with optional platform packages that this workplace's npm registry does not serve
// (e.g. @biomejs/cli-darwin-x64): npm leaves them out of the lock, and `npm ci` then refuses the lock as out of sync.
// Each entry is written as npm records any optional package for another platform (os/cpu), so installs skip it here.
// Run after changing dependencies: `npm install && node scripts/complete-lock.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORM = {
  "android-arm64": [["android"], ["arm64"]],
  "android-x64": [["android"], ["x64"]],
  "darwin-arm64": [["darwin"], ["arm64"]],
  "darwin-x64": [["darwin"], ["x64"]],
  "linux-arm64": [["linux"], ["arm64"]],
  "linux-arm64-musl": [["linux"], ["arm64"]],
  "linux-x64": [["linux"], ["x64"]],
  "linux-x64-musl": [["linux"], ["x64"]],
  "win32-arm64": [["win32"], ["arm64"]],
  "win32-x64": [["win32"], ["x64"]],
};
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  // Bundled packages ship inside their parent's tarball; npm never installs their optional dependencies.
  if (pkg.inBundle) continue;
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (lock.packages[key]) continue;
    const suffix = Object.keys(PLATFORM).find((s) => dep.endsWith(`-${s}`));
    if (!suffix)
      throw new Error(`${path}: optional ${dep} is missing from the lock and is not a known platform package`);
    const [os, cpu] = PLATFORM[suffix];
    lock.packages[key] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, os, cpu };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: ${added} optional platform entries added`);
