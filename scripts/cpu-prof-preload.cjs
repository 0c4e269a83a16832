// Preloaded with NODE_OPTIONS="--require scripts/cpu-prof-preload.cjs" (node refuses --cpu-prof in NODE_OPTIONS, and
// the engines start the provider themselves): profiles the whole process with the inspector and writes
// <RACKFORM_CPU_PROF_DIR>/provider-<pid>.cpuprofile at exit, for scripts/cpu-prof-top.mjs.
const { Session } = require("node:inspector");
const { mkdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.RACKFORM_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  process.on("exit", () => {
    // A same-thread session answers synchronously, so the profile is written before the process ends.
    session.post("Profiler.stop", (err, res) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `provider-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
