/**
 * rackform_cluster_member waiting for a registration and meeting slurmctld's refusal of one (INVALID_REG), with a
 * scheduler in memory: the wait says what it waits for and what the scheduler shows; a refused registration fails at
 * once with the scheduler's reason and the fix, the node left as it was; after a reboot only a newer registration
 * counts, so the refusal from before the reboot is not judged.
 */
import { describe, expect, it } from "vitest";
import { RackformClientError } from "../../../src/clients/errors.js";
import { backgroundContext, createLogger, Diagnostics } from "../../../src/framework/index.js";
import { converge } from "../../../src/provider/resources/cluster-member-converge.js";
import { createMember, updateMember } from "../../../src/provider/resources/cluster-member-ops.js";
import { registeredSince } from "../../../src/provider/resources/cluster-member-registration.js";
import type { Observed } from "../../../src/provider/resources/cluster-member-scheduler.js";
import type { ClusterMemberState } from "../../../src/provider/resources/cluster-member-schema.js";
import { fakeDeps, memberPlan } from "../../support/member-fakes.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

const plan = memberPlan;

const joined: ClusterMemberState = {
  ...plan(),
  id: "slurm:n1",
  partitions: ["gpu"],
  state: "IDLE",
  joined: true,
} as ClusterMemberState;

const REASON = "gres/gpu count reported lower than configured (7 < 8)";
const refused: Observed = {
  registered: true,
  state: "IDLE+DRAIN+INVALID_REG",
  reason: REASON,
  invalidRegistration: true,
  joined: false,
  features: ["h100"],
  partitions: ["gpu"],
};

/** A request whose log lines are kept, parsed. */
function logged() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ write: (l) => void lines.push(JSON.parse(l)) });
  return { r: { ...typedRequest(), context: backgroundContext(undefined, log) }, lines };
}

describe("a registration slurmctld refused (INVALID_REG)", () => {
  it("fails the create at once, naming the node, slurmctld's reason and the fix, and does not resume the node", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", refused);
    const r = typedRequest();
    expect(await createMember({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(diagnosticLines(r.diagnostics)).toEqual(["error Slurm refuses node n1: its registration is invalid @ node"]);
    const detail = r.diagnostics.items[0].detail;
    expect(detail).toContain(`slurmctld holds node n1 IDLE+DRAIN+INVALID_REG (reason: ${REASON})`);
    expect(detail).toContain("restart slurmd or reboot the node so it registers again, and apply again");
    expect(f.calls.filter((c) => c.startsWith("join"))).toEqual([]);
  });

  it("fails the update of a joined node the same way, without a retry until the timeout", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", refused);
    const r = typedRequest();
    const s = await updateMember({ ...r, plan: plan({ features: ["h100", "nvlink4"] }), state: joined }, f.deps);
    expect(s).toBeUndefined();
    expect(diagnosticLines(r.diagnostics)).toEqual(["error Slurm refuses node n1: its registration is invalid @ node"]);
    expect(f.calls).not.toContain("join n1");
  });

  it("stops retrying a rejected RESUME once slurmctld shows the registration refused", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", { registered: true, state: "DOWN", reason: "Not responding", joined: false });
    let joins = 0;
    f.ops.join = async () => {
      joins++;
      // The node drops DOWN again after each RESUME; on the third, slurmd's registration comes back short.
      if (joins === 3) f.nodes.set("n1", refused);
      throw new RackformClientError("RACKFORM_ERR_SLURM_REJECTED", "node n1 is still DOWN after RESUME");
    };
    const r = typedRequest();
    expect(await createMember({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(joins).toBe(3);
    expect(diagnosticLines(r.diagnostics)).toEqual(["error Slurm refuses node n1: its registration is invalid @ node"]);
  });
});

describe("the wait for a registration", () => {
  it("says what it waits for and what the scheduler shows, once per change", async () => {
    const f = fakeDeps();
    const shows: (Observed | undefined)[] = [
      undefined,
      undefined,
      { registered: false, state: "DOWN+NOT_RESPONDING", reason: "Not responding", joined: false },
      { registered: false, state: "DOWN+NOT_RESPONDING", reason: "Not responding", joined: false },
      { registered: true, state: "DOWN", reason: "Not responding", joined: false },
    ];
    f.ops.lookup = async () => (shows.length > 1 ? shows.shift() : shows[0]);
    const { r, lines } = logged();
    await createMember({ ...r, plan: plan() }, f.deps);
    expect(diagnosticLines(r.diagnostics)).toEqual([]);
    const waits = lines.filter((l) => l["@message"] === "waiting for slurmd to register");
    expect(waits.map((l) => l.scheduler_shows)).toEqual([
      "not known to the scheduler",
      "DOWN+NOT_RESPONDING (reason: Not responding)",
    ]);
    expect(waits[0]).toMatchObject({ node: "n1", scheduler: "slurm" });
  });

  it("after a reboot takes only a newer registration: the refusal from before the reboot is not judged", async () => {
    const f = fakeDeps();
    const before = Date.UTC(2026, 10, 27, 17, 0, 0);
    const shows: Observed[] = [
      { ...refused, startedAt: before },
      { ...refused, startedAt: before },
      { registered: true, state: "IDLE+DRAIN", reason: REASON, joined: false, startedAt: before + 90_000 },
    ];
    f.ops.lookup = async () => (shows.length > 1 ? shows.shift() : shows[0]);
    const { r, lines } = logged();
    const c = { ops: f.ops, pollMs: 1, ctx: r.context, plan: plan(), prior: null, diags: r.diagnostics };
    const s = await converge({ ...c, reboot: { at: before + 60_000, startedBefore: before } });
    expect(diagnosticLines(r.diagnostics)).toEqual([]);
    expect(s?.joined).toBe(true);
    expect(lines.some((l) => l["@message"] === "waiting for slurmd to register after the reboot")).toBe(true);
  });

  it("judges the first registration after a reboot: one still short fails with the reason", async () => {
    const f = fakeDeps();
    const before = Date.UTC(2026, 10, 27, 17, 0, 0);
    const shows: Observed[] = [
      { registered: false, state: "DOWN+DRAIN+NOT_RESPONDING", reason: REASON, joined: false, startedAt: before },
      { ...refused, state: "DOWN+DRAIN+INVALID_REG", startedAt: before + 90_000 },
    ];
    f.ops.lookup = async () => (shows.length > 1 ? shows.shift() : shows[0]);
    const diags = new Diagnostics();
    const c = { ops: f.ops, pollMs: 1, ctx: typedRequest().context, plan: plan(), prior: null, diags };
    expect(await converge({ ...c, reboot: { at: before + 60_000, startedBefore: before } })).toBeUndefined();
    expect(diagnosticLines(diags)).toEqual(["error Slurm refuses node n1: its registration is invalid @ node"]);
    expect(f.calls).not.toContain("join n1");
  });
});

describe("registeredSince", () => {
  const at = Date.UTC(2026, 10, 27, 17, 0, 30, 400);
  const seen = (startedAt?: number): Observed => ({ registered: true, state: "IDLE", joined: true, startedAt });

  it("takes any registration when there was no reboot, or the scheduler reports no start time", () => {
    expect(registeredSince(seen(at - 3_600_000), undefined)).toBe(true);
    expect(registeredSince(seen(undefined), { at, startedBefore: at - 3_600_000 })).toBe(true);
    expect(registeredSince(undefined, undefined)).toBe(false);
    expect(registeredSince({ ...seen(at + 5000), registered: false }, { at })).toBe(false);
  });

  it("after a reboot takes a start other than the one before it, or one in the reboot's second or later", () => {
    const before = at - 3_600_000;
    expect(registeredSince(seen(before), { at, startedBefore: before })).toBe(false);
    expect(registeredSince(seen(at + 40_000), { at, startedBefore: before })).toBe(true);
    // The scheduler's clock behind ours: a new start still counts.
    expect(registeredSince(seen(before + 1000), { at, startedBefore: before })).toBe(true);
    // Whole seconds: a start in the reboot's own second counts.
    expect(registeredSince(seen(Math.floor(at / 1000) * 1000), { at })).toBe(true);
    expect(registeredSince(seen(before), { at })).toBe(false);
  });
});
