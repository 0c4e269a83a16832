/** Script result sets of a machine's runs: created pending, started, then finished with each script's outcome. */
import type { LabClock } from "./clock.js";
import type { ScriptOutcome, ScriptRunner } from "./lifecycle-types.js";
import { SCRIPT_FAILED, ScriptStatus } from "./statuses.js";
import type { MaasStore, MachineRecord, ScriptSetRecord } from "./store.js";

const OUTCOME_STATUS: Record<string, number> = { passed: 2, failed: 3, timedout: 4, degraded: 6, skipped: 9 };

/** Creates and completes script sets; what each script reports comes from `setOutcome`, else `runner`. */
export class ScriptSets {
  private readonly outcomes = new Map<string, ScriptOutcome>();
  /** Consulted for scripts without a `setOutcome`; undefined = passed. */
  runner: ScriptRunner | undefined;

  constructor(
    private readonly store: MaasStore,
    private readonly clock: LabClock,
  ) {}

  /** Sets what a script reports on its future runs on the machine. */
  setOutcome(systemId: string, scriptName: string, outcome: ScriptOutcome): void {
    this.outcomes.set(`${systemId}\n${scriptName}`, outcome);
  }

  /** A new pending set on the machine, one result per script (`inputs`: each script's parameters). */
  create(
    m: MachineRecord,
    type: number,
    names: string[],
    inputs: Readonly<Record<string, Record<string, unknown>>> = {},
  ): ScriptSetRecord {
    const now = this.clock.now();
    const set: ScriptSetRecord = {
      id: this.store.nextId("scriptset"),
      type,
      started: now,
      ended: null,
      lastPing: now,
      results: names.map((name) => ({
        id: this.store.nextId("scriptresult"),
        name,
        scriptId: this.store.scripts.get(name)?.id ?? null,
        status: ScriptStatus.PENDING,
        exitStatus: null,
        output: Buffer.alloc(0),
        created: now,
        updated: now,
        started: null,
        ended: null,
        parameters: { ...inputs[name] },
      })),
    };
    m.scriptSets.push(set);
    return set;
  }

  /** Marks every script of the set running. */
  start(set: ScriptSetRecord): void {
    const now = this.clock.now();
    for (const r of set.results) Object.assign(r, { status: ScriptStatus.RUNNING, started: now, updated: now });
  }

  /** Completes a set: each script takes its configured outcome (default passed); `failFirst` forces one failure. */
  finish(m: MachineRecord, set: ScriptSetRecord, failFirst: boolean): boolean {
    const now = this.clock.now();
    let ok = true;
    set.results.forEach((r, i) => {
      const o = this.outcomes.get(`${m.systemId}\n${r.name}`) ?? this.runner?.(m, r.name, r.parameters);
      let status = o ? (typeof o.status === "number" ? o.status : OUTCOME_STATUS[o.status]) : ScriptStatus.PASSED;
      let output = o?.output ?? "";
      if (failFirst && i === 0) {
        status = ScriptStatus.FAILED;
        output = `${r.name} failed (lab fault injection)\n`;
      }
      const failed = SCRIPT_FAILED.includes(status);
      Object.assign(r, {
        status,
        exitStatus: o?.exitStatus ?? (failed ? 1 : 0),
        output: Buffer.from(output),
        started: r.started ?? now,
        ended: now,
        updated: now,
      });
      if (failed) ok = false;
    });
    set.ended = now;
    set.lastPing = now;
    return ok;
  }
}
