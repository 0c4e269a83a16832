// Loaded into each provider process by the fleet benchmark (NODE_OPTIONS=--import): when the process exits, one line
// "<user µs> <system µs> <max RSS KiB> <max anonymous RSS KiB>" is appended to RF_BENCH_CPU_FILE. The provider exits
// through process.exit on the engine's Shutdown, so every process reports; nothing else changes in it. The anonymous
// part (RssAnon of /proc/self/status, sampled every 200 ms) is what the process itself holds: the rest of its RSS is
// the node executable's and libraries' pages, which every provider process on a runner shares.
import { appendFileSync, readFileSync } from "node:fs";

const file = process.env.RF_BENCH_CPU_FILE;
if (file) {
  let anonKiB = 0;
  const sample = () => {
    try {
      const m = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "latin1"));
      if (m) anonKiB = Math.max(anonKiB, Number(m[1]));
    } catch {
      // not Linux: the figure is left out
    }
  };
  setInterval(sample, 200).unref();
  process.on("exit", () => {
    sample();
    const u = process.resourceUsage();
    try {
      appendFileSync(file, `${u.userCPUTime} ${u.systemCPUTime} ${u.maxRSS} ${anonKiB}\n`);
    } catch {
      // a benchmark figure is lost; the provider's exit must not fail for it
    }
  });
}
