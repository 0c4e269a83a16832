/**
 * SIGKILL of the engine mid-apply leaves no provider process behind (checked by pid), and a re-apply converges.
 * The lab delays the PDU's answers so the kill lands while the provider is inside ApplyResourceChange.
 */
import { describe, expect, it } from "vitest";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import {
  e2eGround,
  outletOn,
  outletResources,
  providerBlock,
  providerPids,
  providersExited,
} from "../support/rackform-e2e.js";
import { until } from "../support/until.js";

const ground = e2eGround(8);

const SLOW = { timeoutMs: 60_000, everyMs: 100 };

describe.each(ENGINES.map((n, i) => [n, i] as const))("SIGKILL of %s mid-apply", (name, i) => {
  it("leaves no provider process, and the next apply converges", async () => {
    const nodes = [`r01-n0${1 + i * 4}`, `r01-n0${2 + i * 4}`];
    const pdu = ground.lab.info.nodes.find((n) => n.name === nodes[0])!.pdu;
    const w = await Workdir.create(engine(name), ground.cliConfig, {
      "main.tf": providerBlock(ground.lab) + outletResources(ground.lab, nodes, "On"),
    });
    await w.ok(["init", "-no-color"]);
    const fault = ground.lab.world.faults.add({ kind: "latency", pdu, method: "POST", ms: 30_000 });
    let enginePid = 0;
    let creating = false;
    const run = w.run(["apply", "-auto-approve", "-no-color"], {
      onSpawn: (pid) => {
        enginePid = pid;
      },
      onStdout: (out) => {
        creating ||= out.includes("Creating...");
      },
    });
    const pids = await until(
      "the provider to be inside apply",
      async () => {
        const p = await providerPids(enginePid);
        return creating && p.length > 0 ? p : undefined;
      },
      SLOW,
    );
    process.kill(enginePid, "SIGKILL");
    const r = await run;
    expect(r.signal).toBe("SIGKILL");
    await providersExited(pids, SLOW.timeoutMs);
    ground.lab.world.faults.remove(fault.id);
    // The killed run may have left a state lock or nothing at all; a re-apply must still converge.
    const again = await w.run(["apply", "-auto-approve", "-no-color", "-lock=false"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const n of nodes) expect(outletOn(ground.lab, n)).toBe(true);
    expect((await w.run(["plan", "-detailed-exitcode", "-no-color"])).code).toBe(0);
  });
});
