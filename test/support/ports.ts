/**
 * Ports for a counterpart that binds long after its port is chosen (a real slurmd starts when the lab's deployed OS
 * would start it, minutes into a run). A port from the kernel's ephemeral range (what listen(0) hands out) may by then
 * be the local port of any client connection of the run — under a full suite's load, thousands — and the late bind
 * fails with EADDRINUSE. Ports below that range are never given to a client socket, only to an explicit bind.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The first port of the kernel's ephemeral range (Linux's default 32768 when it cannot be read). */
export function ephemeralStart(): number {
  try {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 2048 ? first : 32768;
  } catch {
    return 32768;
  }
}

/** Whether 127.0.0.1:`port` can be bound now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

const taken = new Set<number>();

/**
 * A free port below the ephemeral range, never returned twice by this process: for a counterpart that binds it
 * later. Random between 10000 and the range's start, so concurrent runs rarely try the same one.
 */
export async function fixedPort(): Promise<number> {
  const top = ephemeralStart();
  for (let i = 0; i < 200; i++) {
    const port = 10_000 + Math.floor(Math.random() * (top - 10_000));
    if (taken.has(port) || !(await bindable(port))) continue;
    taken.add(port);
    return port;
  }
  throw new Error(`no free port found between 10000 and ${top} in 200 tries`);
}
