// The provider executable's entry (dist/main.js, written from this file by scripts/bundle-provider.mjs, which sets
// BUNDLE_HASH): runs the bundle dist/provider.cjs through a V8 code cache kept beside it. The engine starts a provider
// process for every plan and apply (three for a plan), and compiling the bundle was a large share of each start: with
// the cache V8 reuses the bytecode of every function a previous process compiled. Node 20 has no module compile
// cache (module.enableCompileCache came with Node 22), hence vm.Script's cachedData.
// The cache is named after the bundle's content hash, Node's version and the architecture, so a rebuilt bundle or
// another Node never reads a cache made for something else (V8 itself only checks its version, flags and the source
// length). A missing or rejected cache is written at exit, atomically (several processes start at once); a read-only
// install simply runs without one.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

const BUNDLE_HASH = "__BUNDLE_HASH__";
const BUNDLE_ENCODING = "__BUNDLE_ENCODING__";
const dir = dirname(fileURLToPath(import.meta.url));
const bundle = join(dir, "provider.cjs");
const cacheFile = join(dir, `provider.cjs.${BUNDLE_HASH}.${process.version}-${process.arch}.cache`);

// The GetProviderSchema answer the build encoded for this very bundle (src/protocol/prebuilt-schema.ts), if present.
try {
  globalThis[Symbol.for("rackform.prebuiltProviderSchema")] = readFileSync(
    join(dir, `provider-schema.${BUNDLE_HASH}.bin`),
  );
} catch {
  // Without it the provider builds its schema when asked.
}

let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache yet: this process writes one at exit.
}
// "latin1" when the build made the bundle ASCII (read exactly, without a UTF-8 decode), else "utf8".
const script = new Script(Module.wrap(readFileSync(bundle, BUNDLE_ENCODING)), { filename: bundle, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once("exit", () => {
    try {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      // A read-only install runs without a cache.
    }
  });
}
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dir);
