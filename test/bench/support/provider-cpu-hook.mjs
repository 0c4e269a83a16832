// Loaded into each provider process by the fleet benchmark (NODE_OPTIONS=--import): when the process exits, one line
// "<user µs> <system µs> <max RSS KiB>" is appended to RF_BENCH_CPU_FILE. The provider exits through process.exit on
// the engine's Shutdown, so every process reports; nothing else changes in it.
import { appendFileSync } from "node:fs";

const file = process.env.RF_BENCH_CPU_FILE;
if (file) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    try {
      appendFileSync(file, `${u.userCPUTime} ${u.systemCPUTime} ${u.maxRSS}\n`);
    } catch {
      // a benchmark figure is lost; the provider's exit must not fail for it
    }
  });
}
