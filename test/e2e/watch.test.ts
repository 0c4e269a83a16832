/**
 * `rackform watch` (built, in dist/) beside a real apply under Terraform and OpenTofu: a 4-node rack on the demo
 * profile, one node made to fail its acceptance gate (marginal NCCL). Headless Chromium reads the watch page while the
 * apply runs and after it ends (stages, counts, the failing node's diagnostic; a screenshot kept under .rackform/),
 * then `watch --once` prints the right counts — and the lab's request logs prove the watch sent no write.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { chromiumBin, dumpDom, nodeStages, screenshot, stageCounts } from "../support/chromium.js";
import { ENGINES, engine } from "../support/engines.js";
import { rackStack, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, ROOT, testLab } from "../support/rackform-e2e.js";
import { until } from "../support/until.js";

const CLI = join(ROOT, "dist", "cli", "main.js");
const ARTIFACTS = join(ROOT, ".rackform", "test-artifacts");

let cliConfig: string;
beforeAll(async () => {
  chromiumBin(); // fails at once, naming what to install, when Chromium is missing
  cliConfig = await freshInstall([builtProvider()]);
});

/** `rackform ARGS` as a child, with the engine and the lab's MAAS for the watch's live reads. */
function rackform(args: string[], env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  return Object.assign(child, { output: () => out });
}

const exited = (c: ChildProcess) =>
  new Promise<number>((done) => (c.exitCode !== null ? done(c.exitCode) : c.once("close", (code) => done(code ?? 1))));

describe.each(ENGINES)("rackform watch under %s", (name) => {
  let lab: Lab;
  beforeAll(async () => {
    // The demo profile (commissioning 3 s, deploy 5 s, burn-in 3 s): on the instant one the apply is over before a
    // browser has loaded the page twice, and there would be nothing "on its way" to see.
    lab = await testLab(4, "demo");
    await uploadGoldenImage(lab);
  });
  afterAll(async () => {
    await lab?.close();
  });

  it("shows a 4-node rack converge in the browser, the failing node with its diagnostic, and --once counts it; it never writes", async () => {
    // GIVEN a 4-node rack stack whose third node's NCCL bandwidth is below the gate
    const nodes = lab.info.nodes.map((n) => n.name);
    const bad = nodes[2];
    lab.world.faults.add({ kind: "marginal-nccl", node: bad, value: 300 });
    const w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
    await w.ok(["init", "-no-color"]);
    const env = {
      TERRAFORM_BINARY_NAME: engine(name).bin,
      RACKFORM_MAAS_URL: lab.info.maas!.url,
      RACKFORM_MAAS_API_KEY: lab.info.maas!.apiKey,
    };

    // WHEN the watch serves its page and the rack is applied
    const watcher = rackform(["watch", `r01=${w.dir}`, "--listen", "127.0.0.1:0", "--interval", "0.3"], env);
    try {
      const url = await until(
        () => `the watch's URL in:\n${watcher.output()}`,
        () => /watch: (http:\/\/\S+)/.exec(watcher.output())?.[1],
        {
          timeoutMs: 30_000,
          everyMs: 100,
        },
      );
      expect(url, watcher.output()).toBeDefined();
      // (an HCL working directory tells the watch its nodes only as state records them; a cdktf.out lists them all)
      const first = await dumpDom(url as string);
      expect(first).toContain('<section class="rack" data-rack="r01">');
      expect(nodeStages(first).size).toBe(0);
      const apply = w.run(["apply", "-auto-approve", "-no-color"]);
      let done = false;
      void apply.finally(() => {
        done = true;
      });
      const seen: string[] = [];
      while (!done) {
        const counts = stageCounts(await dumpDom(url as string));
        seen.push(JSON.stringify(counts));
      }
      const result = await apply;
      expect(result.code, result.stdout + result.stderr).not.toBe(0);
      expect(result.stderr).toContain("measured all_reduce busbw 300 GB/s");

      // THEN the page settles on 3 joined and 1 quarantined, the failing node listed with the gate's measurement
      for (let i = 0; i < 100; i++) {
        const s = (await (await fetch(`${url}snapshot.json`)).json()) as { racks: { counts: object }[] };
        if (JSON.stringify(s.racks[0]?.counts) === JSON.stringify({ joined: 3, quarantined: 1 })) break;
        await sleep(300);
      }
      const dom = await dumpDom(url as string);
      expect(stageCounts(dom), watcher.output() + (/not read: [^<]*/.exec(dom)?.[0] ?? "")).toEqual({
        joined: 3,
        quarantined: 1,
      });
      expect(nodeStages(dom).get(bad)).toBe("quarantined");
      const failure = /<li class="failure" data-node="([^"]+)"[^>]*>(.*?)<\/li>/.exec(dom);
      expect(failure?.[1]).toBe(bad);
      expect(failure?.[2]).toContain("300 GB/s");
      // AND while the apply ran the page showed the rack on its way: some refresh had nodes neither off nor settled
      const settledOrOff = new Set(["off", "joined", "quarantined"]);
      const moving = seen.filter((c) => Object.keys(JSON.parse(c)).some((s) => !settledOrOff.has(s)));
      // Terraform writes local state as each resource completes; OpenTofu 1.12 only at intervals or at the end (a
      // 13 s apply showed nothing before its end), so under OpenTofu a working directory's nodes appear when it ends.
      if (name === "terraform") expect(moving.length, seen.join("\n")).toBeGreaterThan(0);
      expect(seen.length).toBeGreaterThan(0);
      mkdirSync(ARTIFACTS, { recursive: true });
      await screenshot(url as string, join(ARTIFACTS, `watch-${name}.png`));
      watcher.kill("SIGTERM");
      expect(await exited(watcher)).toBe(0);
    } finally {
      watcher.kill("SIGKILL"); // a no-op once it exited; on a failure above, no watch outlives the test
    }

    // WHEN `watch --once` reads the converged rack
    const redfishFrom = ((await (await fetch(`${lab.info.control.url}/requests`)).json()) as { last: number }).last;
    const backends = lab.backends!;
    const from = { maas: backends.maas.requests.length, ironic: backends.ironic.requests.length };
    const once = rackform(["watch", `r01=${w.dir}`, "--once"], env);
    expect(await exited(once), once.output()).toBe(0);

    // THEN it prints the rack's counts and the failure with its diagnostic
    expect(once.output()).toMatch(
      /^rack\s+nodes\s+off\s+BMC up\s+firmware\s+enrolled\s+commissioning\s+ready\s+deploying\s+deployed\s+testing\s+attesting\s+joined\s+quarantined$/m,
    );
    expect(once.output()).toMatch(/^r01\s+4(\s+0){10}\s+3\s+1$/m);
    expect(once.output()).toContain(`r01/${bad}  quarantined: `);
    expect(once.output()).toContain("300 GB/s");
    // AND it sent no write anywhere: nothing to a BMC or PDU, and only GETs to MAAS (its machine list)
    const redfish = (await (await fetch(`${lab.info.control.url}/requests?since=${redfishFrom}`)).json()) as {
      entries: { method: string; path: string }[];
    };
    expect(redfish.entries.filter((e) => e.method !== "GET")).toEqual([]);
    const maas = backends.maas.requests.slice(from.maas);
    expect(maas.length).toBeGreaterThan(0);
    expect(maas.filter((r) => r.method !== "GET")).toEqual([]);
    expect(backends.ironic.requests.length).toBe(from.ironic);
    // AND no secret reached its output
    expect(once.output()).not.toContain(lab.info.maas!.apiKey);
  }, 600_000); // an apply beside a browser on a shared 2-core machine; this only stops a hung run
});
