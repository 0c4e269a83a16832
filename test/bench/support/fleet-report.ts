/**
 * What the fleet benchmark prints: the fleet's figures beside issue 31's goals, and what one runner pays per stack.
 */
import { KINDS, type Kind, type ProviderFigures } from "./fleet-run.js";

export interface StackResult {
  readonly name: string;
  readonly nodes: number;
  readonly applyS: number;
  readonly ok: boolean;
  readonly errors: string[];
  readonly engineCpuS: number;
}

export interface FleetRun {
  readonly what: "apply" | "no-op plan";
  readonly nodes: number;
  readonly wallS: number;
  /** One node's chain on the lab's profile: the apply's floor. */
  readonly criticalS?: number;
  readonly stacks: readonly StackResult[];
  readonly providers: readonly ProviderFigures[];
  readonly rates: { total: Record<Kind, number>; peakPerS: Record<Kind, number> };
  /** CPU seconds of the benchmark's own process, which serves the lab: not the runner's cost. */
  readonly labCpuS: number;
}

/** Issue 31's goal for the apply's ratio: one stack alone, or a few side by side. */
function ratioGoal(stacks: number): string {
  if (stacks === 1) return "goal ≤ 1.05 for one stack alone";
  return stacks <= 4 ? "goal ≤ 1.10 with 4 concurrent" : "no goal at this size: every stack converged is";
}

const BACKENDS: readonly Kind[] = ["maas", "ironic"];

export function report(run: FleetRun): void {
  const { what, nodes, wallS, criticalS, stacks, providers, rates } = run;
  const failed = stacks.filter((s) => !s.ok);
  const slowest = stacks.reduce((a, b) => (b.applyS > a.applyS ? b : a));
  const providerCpu = providers.reduce((a, p) => a + p.cpuS, 0);
  const engineCpu = stacks.reduce((a, s) => a + s.engineCpuS, 0);
  const peakEach = Math.max(...providers.map((p) => p.peakRssMiB));
  const peakSum = providers.reduce((a, p) => a + p.peakRssMiB, 0);
  const ratio = criticalS
    ? ` = ${(wallS / criticalS).toFixed(2)}× the critical path ${criticalS.toFixed(1)} s (${ratioGoal(stacks.length)})`
    : stacks.length === 1 && nodes === 64
      ? " (goal ≤ 5 s for one 64-node stack alone)"
      : "";
  console.log(
    `  ${what}: ${wallS.toFixed(1)} s${ratio}; ${stacks.length - failed.length}/${stacks.length} stacks ok (goal: all)`,
  );
  for (const s of failed.slice(0, 5))
    console.log(
      `    ${s.name} failed: ${[...new Set(s.errors)].slice(0, 2).join(" | ") || "(no error: the plan has changes)"}`,
    );
  const times = stacks.map((s) => s.applyS).sort((a, b) => a - b);
  console.log(
    `    slowest stack ${slowest.name}: ${slowest.applyS.toFixed(1)} s (fastest ${times[0].toFixed(1)} s, ` +
      `median ${times[Math.floor(times.length / 2)].toFixed(1)} s)`,
  );
  console.log(
    `    CPU-s per node: provider ${(providerCpu / nodes).toFixed(3)}, engine ${(engineCpu / nodes).toFixed(3)}` +
      `${what === "apply" ? " (goal: the provider's ≤ the engine's)" : ""} ` +
      `(provider processes ${providers.reduce((a, p) => a + p.processes, 0)}); ` +
      `the lab's own ${(run.labCpuS / nodes).toFixed(3)} (not the runner's)`,
  );
  const anonEach = Math.max(...providers.map((p) => p.peakAnonMiB));
  console.log(
    `    provider peak RSS: ${peakEach.toFixed(0)} MiB per process (goal ≤ 120), ${peakSum.toFixed(0)} MiB summed over stacks; ` +
      `its own (anonymous) memory ${anonEach.toFixed(0)} MiB at most (sampled), the rest file pages (the node ` +
      "executable and its libraries) every provider process on the runner shares",
  );
  const goal = what === "apply" ? "" : " (goal ≤ 5 per kind)";
  console.log(
    `    requests per node${goal}: ${KINDS.map((k) => `${k} ${(rates.total[k] / nodes).toFixed(1)}`).join(", ")}`,
  );
  console.log(`    peak requests per second: ${KINDS.map((k) => `${k} ${rates.peakPerS[k]}`).join(", ")}`);
  const backend = BACKENDS.map((k) => rates.peakPerS[k]).reduce((a, b) => a + b, 0);
  console.log(`    the backend's peak per node in flight: ${(backend / nodes).toFixed(3)} requests a second`);
}

const fmt = (xs: readonly number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(" / ");
const spread = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[0], s[Math.floor(s.length / 2)], s[s.length - 1]];
};

/**
 * What one runner pays for one stack: its apply (or plan) wall against its own critical path, its provider's and
 * engine's CPU-s per node and its provider's peak RSS. Every stack for a few; min / median / max for many.
 */
export function perStackView(
  stacks: readonly StackResult[],
  providers: readonly ProviderFigures[],
  criticalS: number | undefined,
): void {
  const rows = stacks.map((s, i) => ({
    name: s.name,
    wall: s.applyS,
    ratio: criticalS ? s.applyS / criticalS : undefined,
    provider: providers[i].cpuS / s.nodes,
    engine: s.engineCpuS / s.nodes,
    rss: providers[i].peakRssMiB,
  }));
  const head = `wall s${criticalS ? " (÷ its critical path)" : ""}, provider / engine CPU-s per node, the provider's peak RSS MiB`;
  if (rows.length <= 8) {
    console.log(`    per stack: ${head}`);
    for (const r of rows)
      console.log(
        `      ${r.name}: ${r.wall.toFixed(1)}${r.ratio ? ` (${r.ratio.toFixed(2)}×)` : ""}, ` +
          `${r.provider.toFixed(3)} / ${r.engine.toFixed(3)}, ${r.rss.toFixed(0)}`,
      );
    return;
  }
  console.log(`    per stack, min / median / max: ${head}`);
  const ratios = rows.flatMap((r) => (r.ratio ? [r.ratio] : []));
  console.log(
    `      wall ${fmt(spread(rows.map((r) => r.wall)), 1)}${ratios.length ? ` (${fmt(spread(ratios), 2)}×)` : ""}; ` +
      `provider ${fmt(spread(rows.map((r) => r.provider)), 3)}; engine ${fmt(spread(rows.map((r) => r.engine)), 3)}; ` +
      `RSS ${fmt(spread(rows.map((r) => r.rss)), 0)}`,
  );
}
