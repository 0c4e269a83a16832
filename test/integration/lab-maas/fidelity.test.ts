/**
 * Requests independent MAAS clients send, answered as real MAAS answers them (issue #14, items A–C):
 * - gomaasclient creates with `POST machines/?op=` — OperationsHandlerMixin.dispatch (src/maasserver/api/support.py)
 *   takes `request.GET.get("op") or request.POST.get("op")`, so an empty op is the REST create;
 * - `POST machines/?op=release` with `machines=<id>` is MachinesHandler.release (src/maasserver/api/machines.py):
 *   200 with the released system ids, 400 for unknown ids, 409 naming machines in a state that cannot be released;
 * - `op=allocate` filters on AcquireNodeForm's constraints (src/maasserver/node_constraint_filter_forms.py) and answers
 *   409 NodesNotAvailable "No available machine matches constraints: … (resolved to "…")" when nothing matches.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { oauthHeader } from "../../support/maas-oauth.js";
import { API_KEY, call, createMachine, DELAYS, type Lab, startLab, statusOf } from "./support.js";

let lab: Lab;
beforeEach(async () => {
  lab = await startLab();
});
afterEach(async () => lab.close());

async function readyMachine(name: string, mac: string, extra: Record<string, string> = {}): Promise<string> {
  const m = await createMachine(lab, name, mac, extra);
  await call(lab, `machines/${m.system_id}/`, { method: "PUT", form: extra });
  await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
  expect(await statusOf(lab, m.system_id)).toBe("Ready");
  return m.system_id;
}

describe("MAAS lab: op dispatch as OperationsHandlerMixin", () => {
  it("creates a machine from POST machines/?op= (the empty op Go clients send)", async () => {
    const body = new URLSearchParams({
      architecture: "amd64/generic",
      mac_addresses: "52:54:00:14:00:01",
      hostname: "go-client-1",
      power_type: "manual",
    });
    const res = await fetch(new URL("api/2.0/machines/?op=", lab.url), {
      method: "POST",
      headers: { Authorization: oauthHeader(API_KEY), "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    expect(res.status).toBe(200);
    const m = await res.json();
    expect(m).toMatchObject({ hostname: "go-client-1", status_name: "New" });
    expect((await call(lab, "machines/", { form: { hostname: "go-client-1" } })).json).toHaveLength(1);
  });

  it("takes op from the form when the query has none, and still refuses an op no handler exports", async () => {
    const viaForm = await call(lab, "machines/", { method: "POST", form: { op: "allocate" } });
    expect(viaForm.status).toBe(409);
    expect(viaForm.text).toBe("No machine available.");
    const unknown = await call(lab, "machines/", { method: "POST", op: "frobnicate" });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toBe("Unrecognised signature: method=POST op=frobnicate");
  });
});

describe("MAAS lab: machines/?op=release (bulk)", () => {
  it("releases allocated machines, leaves Ready ones, and answers the released system ids", async () => {
    const a = await readyMachine("bulk-1", "52:54:00:14:01:01");
    const b = await readyMachine("bulk-2", "52:54:00:14:01:02");
    expect((await call(lab, "machines/", { method: "POST", op: "allocate", form: { system_id: a } })).status).toBe(200);
    const r = await call(lab, "machines/", {
      method: "POST",
      op: "release",
      form: { machines: [a, b], comment: "terraform destroy" },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([a]);
    await lab.clock.advance(DELAYS.releaseMs);
    expect(await statusOf(lab, a)).toBe("Ready");
    expect((await call(lab, `machines/${a}/`)).json.owner).toBeNull();
  });

  it("fails with 400 for an unknown system id and 409 for a machine that cannot be released", async () => {
    const a = await readyMachine("bulk-3", "52:54:00:14:01:03");
    const unknown = await call(lab, "machines/", { method: "POST", op: "release", form: { machines: [a, "nope42"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toBe("Unknown machine(s): nope42.");
    const fresh = await createMachine(lab, "bulk-4", "52:54:00:14:01:04");
    const busy = await call(lab, "machines/", { method: "POST", op: "release", form: { machines: fresh.system_id } });
    expect(busy.status).toBe(409);
    expect(busy.text).toBe(
      `Machine(s) cannot be released in their current state: ${fresh.system_id} ('Commissioning').`,
    );
  });
});

describe("MAAS lab: op=allocate constraints", () => {
  beforeEach(async () => {
    expect((await call(lab, "zones/", { method: "POST", form: { name: "rack-b" } })).status).toBe(200);
    expect((await call(lab, "resourcepools/", { method: "POST", form: { name: "gpu" } })).status).toBe(200);
  });

  it("allocates only a machine in the asked zone and pool with enough CPUs and memory", async () => {
    await readyMachine("small", "52:54:00:14:02:01", { cpu_count: "8", memory: "16384" });
    const big = await readyMachine("big", "52:54:00:14:02:02", {
      cpu_count: "224",
      memory: "2097152",
      zone: "rack-b",
      pool: "gpu",
    });
    const r = await call(lab, "machines/", {
      method: "POST",
      op: "allocate",
      form: { cpu_count: "64", mem: "1048576", zone: "rack-b", pool: "gpu" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      system_id: big,
      status_name: "Allocated",
      zone: { name: "rack-b" },
      pool: { name: "gpu" },
    });
  });

  it("fails with 409 naming the constraints when no Ready machine has enough CPUs", async () => {
    const small = await readyMachine("small-2", "52:54:00:14:02:03", { cpu_count: "8", memory: "16384" });
    const r = await call(lab, "machines/", { method: "POST", op: "allocate", form: { cpu_count: "64" } });
    expect(r.status).toBe(409);
    expect(r.text).toBe(
      `No available machine matches constraints: [('cpu_count', ['64'])] (resolved to "cpu_count=64.0")`,
    );
    expect(await statusOf(lab, small)).toBe("Ready");
  });

  it("fails with 409 for the default zone when the only machine is elsewhere, and 400 for an unknown zone", async () => {
    await readyMachine("zoned", "52:54:00:14:02:04", { zone: "rack-b" });
    const other = await call(lab, "machines/", { method: "POST", op: "allocate", form: { zone: "default" } });
    expect(other.status).toBe(409);
    const unknown = await call(lab, "machines/", { method: "POST", op: "allocate", form: { zone: "mars", mem: "x" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({ zone: ["No such zone: 'mars'."], mem: ["Invalid memory: number of MiB required."] });
  });

  it("picks the cheapest match (cpu_count + memory/1024) as MAAS orders candidates; dry_run acquires nothing", async () => {
    await readyMachine("large", "52:54:00:14:02:05", { cpu_count: "128", memory: "524288" });
    const cheap = await readyMachine("medium", "52:54:00:14:02:06", { cpu_count: "32", memory: "131072" });
    const dry = await call(lab, "machines/", {
      method: "POST",
      op: "allocate",
      form: { cpu_count: "16", dry_run: "true" },
    });
    expect(dry.json).toMatchObject({ system_id: cheap, status_name: "Ready" });
    const r = await call(lab, "machines/", { method: "POST", op: "allocate", form: { cpu_count: "16" } });
    expect(r.json.system_id).toBe(cheap);
  });
});
