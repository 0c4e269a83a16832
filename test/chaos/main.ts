/**
 * `npm run chaos -- --seed N [--nodes 64] [--backend maas|ironic] [--engine terraform|tofu] [--profile instant]
 * [--kills 20] [--until-step K] [--no-trace] [--stacks S --max-unavailable M]`: one seeded chaos run (run.ts) against a
 * fresh lab with the built provider (`npm run build` first); with `--stacks`, the nodes are split into S stacks of one
 * partition rolled to a new image at once by S engines under one disruption budget (rolling.ts). Prints per-step
 * progress, every violation with its seed, step and replay command, and the run's figures; exits 1 on any violation,
 * 2 on a bad option.
 *
 * A test tool, not a product command: it drives the engines through the e2e support code (test/support), so it lives
 * beside the tests rather than in `rackform`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { liveRollingEngines, type RollingOptions, rollingReplay, runRolling } from "./rolling.js";
import { type ChaosOptions, liveEngines, replayCommand, runChaos } from "./run.js";

const USAGE =
  "usage: npm run chaos -- --seed N [--nodes 64] [--backend maas|ironic] [--engine terraform|tofu] " +
  "[--profile instant|demo|realistic] [--kills 20] [--until-step K] [--no-trace] [--no-health] [--stacks S --max-unavailable M]";

function fail(message: string): never {
  process.stderr.write(`chaos: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv: readonly string[]): ChaosOptions & { stacks?: number; maxUnavailable: number } {
  const v: Record<string, string> = {};
  let trace = true;
  let health = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--no-trace") trace = false;
    else if (a === "--no-health") health = false;
    else if (a === "--help" || a === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (a.startsWith("--") && i + 1 < argv.length) v[a.slice(2)] = argv[++i];
    else fail(`unknown or incomplete option ${a}`);
  }
  for (const k of Object.keys(v))
    if (
      !["seed", "nodes", "backend", "engine", "profile", "kills", "until-step", "stacks", "max-unavailable"].includes(k)
    )
      fail(`unknown option --${k}`);
  const int = (k: string, d: number | undefined, min: number) => {
    if (v[k] === undefined) return d;
    const n = Number(v[k]);
    if (!Number.isInteger(n) || n < min) fail(`--${k}: must be an integer ≥ ${min}, got ${v[k]}`);
    return n;
  };
  const seed = int("seed", undefined, 0);
  if (seed === undefined) fail("--seed is required");
  const backend = (v.backend ?? (seed % 2 === 0 ? "maas" : "ironic")) as ChaosOptions["backend"];
  if (backend !== "maas" && backend !== "ironic") fail(`--backend: must be maas or ironic, got ${backend}`);
  const eng = (v.engine ?? (Math.floor(seed / 2) % 2 === 0 ? "terraform" : "tofu")) as ChaosOptions["engine"];
  if (eng !== "terraform" && eng !== "tofu") fail(`--engine: must be terraform or tofu, got ${eng}`);
  const profile = v.profile ?? "instant";
  if (!["instant", "demo", "realistic"].includes(profile)) fail(`--profile: must be instant, demo or realistic`);
  return {
    seed,
    nodes: int("nodes", 64, 1)!,
    backend,
    engine: eng,
    profile,
    kills: int("kills", 20, 0)!,
    untilStep: int("until-step", undefined, 0),
    trace,
    health,
    stacks: int("stacks", undefined, 2),
    maxUnavailable: int("max-unavailable", 1, 1)!,
  };
}

const opts = parse(process.argv.slice(2));
if (opts.stacks !== undefined && opts.nodes % opts.stacks !== 0) fail("--nodes must be a multiple of --stacks");
// Every temp file of the run (lab CA keys, mirror, workdir, trace logs) lives in one folder removed at the end.
const root = mkdtempSync(join(tmpdir(), "rackform-chaos-"));
process.env.TMPDIR = root;
// The lab's fast profiles finish steps in milliseconds: the provider polls every 200 ms (test-only, as the e2e do).
process.env.RACKFORM_TEST_POLL_MS ??= "200";
// Stopped by a signal: end the engine it runs (its providers exit with it) and remove the temp folder.
for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.on(sig, () => {
    for (const pid of [...liveEngines, ...liveRollingEngines]) process.kill(pid, "SIGKILL");
    rmSync(root, { recursive: true, force: true });
    process.exit(130);
  });
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
log(
  `chaos: seed ${opts.seed}, ${opts.nodes} nodes, ${opts.backend} under ${opts.engine}, ${opts.profile} profile, ${opts.kills} kills`,
);
let code = 1;
try {
  code = opts.stacks === undefined ? await single() : await rolling(opts.stacks);
} catch (e) {
  log(`chaos run failed: ${(e as Error).stack ?? e}`);
  log(`  replay: ${opts.stacks === undefined ? replayCommand(opts) : rollingReplay(rollingOpts(opts.stacks))}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(code);

function rollingOpts(stacks: number): RollingOptions {
  const { seed, backend, engine, kills, maxUnavailable } = opts;
  return { seed, backend, engine, kills, maxUnavailable, stacks, nodesPerStack: opts.nodes / stacks, log };
}

/** Several stacks of one partition rolled at once under one budget; the exit code. */
async function rolling(stacks: number): Promise<number> {
  const o = rollingOpts(stacks);
  const r = await runRolling(o);
  const f = r.figures;
  log(
    `figures: drains ${f.drains}; most out at once ${f.peakOut} (max_unavailable ${o.maxUnavailable}); ` +
      `kills ${f.kills} (${f.missedKills} missed, ${f.statesRestored} states restored); halts re-applied ${f.halts}; applies ${f.applies}; rollout ${f.rolloutS} s; wall ${f.wallS} s`,
  );
  for (const v of r.violations) log(`violation: seed ${o.seed}, ${v.step}: ${v.message}`);
  if (r.violations.length > 0) log(`  replay: ${rollingReplay(o)}`);
  log(r.violations.length === 0 ? "PASS: every invariant held" : `FAIL: ${r.violations.length} violation(s)`);
  return r.violations.length === 0 ? 0 : 1;
}

/** One stack under the seeded schedule of faults and kills; the exit code. */
async function single(): Promise<number> {
  const r = await runChaos({ ...opts, log });
  const f = r.figures;
  const faults = Object.entries(f.faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  log(
    `figures: faults ${Object.values(f.faults).reduce((a, b) => a + b, 0)} (${faults}); BMC reboots ${f.reboots}; ` +
      `outlet cycles ${f.outletCycles}; backend storms ${f.storms}; kills ${f.kills} (${f.missedKills} missed, carried); ` +
      `applies ${f.applies}; final apply ${f.finalApplyS} s; trace logs ${f.traceMiB.toFixed(0)} MiB scanned; wall ${f.wallS} s`,
  );
  const h = f.health;
  if (h)
    log(
      `health: faults ${h.healthFaults}; laddered ${h.laddered}; power cycles ${h.powerCycles}; reimages ${h.reimages}; ` +
        `held for repair ${h.heldForRepair}; most health steps in one apply ${h.mostStepsInOneApply}; ladder rounds ${h.rounds}`,
    );
  for (const v of r.violations) {
    const step = Number(v.step);
    log(`violation: seed ${opts.seed}, step ${v.step}: ${v.message}`);
    log(`  replay: ${replayCommand(opts, Number.isInteger(step) ? step : undefined)}`);
  }
  log(r.violations.length === 0 ? "PASS: every invariant held" : `FAIL: ${r.violations.length} violation(s)`);
  return r.violations.length === 0 ? 0 : 1;
}
