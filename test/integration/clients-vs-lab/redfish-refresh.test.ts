/**
 * Issue 12: the Redfish client's cheap reads against one lab BMC switched through every feature mode ($expand and
 * ETags each on or off, quirks no-expand-query / no-etags). The inventory must be the same in every mode, the request
 * counts are what each mode allows, and a change the user cares about (GPU lost, MAC replaced, firmware changed) is
 * found by `recheck` and by the inventory in every mode.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Inventory, RefreshFingerprint } from "../../../src/clients/redfish/index.js";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import type { LabNode } from "../../../src/lab/index.js";
import type { NicPort } from "../../../src/lab/world/model.js";
import type { Quirk } from "../../../src/lab/world/quirks.js";
import { type ClientLab, startClientLab } from "./support.js";

const MODES: readonly { name: string; quirks: Quirk[]; expand: boolean; etags: boolean }[] = [
  { name: "expand + ETags", quirks: [], expand: true, etags: true },
  { name: "ETags only", quirks: ["no-expand-query"], expand: false, etags: true },
  { name: "expand only", quirks: ["no-etags"], expand: true, etags: false },
  { name: "neither", quirks: ["no-expand-query", "no-etags"], expand: false, etags: false },
];

let env: ClientLab;
let node: LabNode;
const clients: RedfishClient[] = [];

beforeAll(async () => {
  env = await startClientLab(1);
  node = [...env.lab.world.nodes.values()][0];
});
afterEach(() => setQuirks([]));
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await env?.close();
});

function setQuirks(q: Quirk[]): void {
  (node.spec as { quirks?: Quirk[] }).quirks = q;
}

function client(): RedfishClient {
  const n = env.lab.info.nodes[0];
  const c = new RedfishClient({
    baseUrl: n.bmc.url,
    username: n.bmc.username,
    password: n.bmc.password,
    ca: env.lab.info.ca,
    http: { log: () => {}, sleep: async () => {}, retry: { maxAttempts: 2, baseDelayMs: 1 } },
  });
  clients.push(c);
  return c;
}

/** What `fn` sent to the BMC: requests (GET, POST…) as `METHOD path?query status`. */
async function sent<T>(fn: () => Promise<T>): Promise<{ value: T; requests: string[] }> {
  const since = env.lab.requests.last();
  const value = await fn();
  const requests = env
    .requestsSince(since, node.spec.name)
    .map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""} ${r.status}`);
  return { value, requests };
}

/** The inventory without the fingerprint, which only exists where $expand does. */
/** What every mode must read alike (the Bios attributes and the event log come only inline with an expansion). */
const facts = ({ refresh: _, biosAttributes: __, eventLog: ___, ...inv }: Inventory) => inv;

describe("inventory in every feature mode", () => {
  it("reads the same inventory in every mode, in 6 requests with $expand and the full link walk without", async () => {
    const seen: { mode: string; inv: ReturnType<typeof facts>; requests: string[]; refresh?: RefreshFingerprint }[] =
      [];
    for (const m of MODES) {
      setQuirks(m.quirks);
      const { value, requests } = await sent(() => client().inventory());
      seen.push({ mode: m.name, inv: facts(value), requests, refresh: value.refresh });
    }
    const [full] = seen;
    expect(full.inv.gpus.length).toBe(node.gpus.length);
    expect(full.inv.macs).toEqual(node.ports.map((p) => p.mac.toUpperCase()));
    for (const s of seen) expect(s.inv, s.mode).toEqual(full.inv);
    for (const [i, m] of MODES.entries()) {
      const s = seen[i];
      const expanded = s.requests.filter((r) => r.includes("$expand"));
      if (m.expand) {
        // Root, login, Systems, the expanded System, UpdateService, the expanded FirmwareInventory (which lists the
        // BMC's own firmware with its Manager as RelatedItem, so the Manager is not read).
        expect(s.requests.length, `${m.name}: ${s.requests.join("\n")}`).toBe(6);
        expect(
          s.requests.some((r) => r.includes("/Managers/")),
          m.name,
        ).toBe(false);
        expect(expanded.length, m.name).toBe(2);
        expect(s.refresh?.system.path, m.name).toMatch(/\?\$expand=\.\(\$levels=3\)$/);
        expect(s.refresh?.system.etag !== undefined, m.name).toBe(m.etags);
      } else {
        expect(s.requests.length, m.name).toBeGreaterThan(30);
        expect(expanded, m.name).toEqual([]);
        expect(s.refresh, m.name).toBeUndefined();
      }
    }
  });

  it("$expand without $levels: the same inventory, but no fingerprint (members read by link are not covered by it)", async () => {
    setQuirks([]);
    const full = await client().inventory();
    setQuirks(["expand-one-level"]);
    const { value, requests } = await sent(() => client().inventory());
    expect(facts(value)).toEqual(facts(full));
    expect(value.refresh).toBeUndefined();
    expect(requests.filter((r) => r.includes("$expand")).every((r) => !r.includes("$levels"))).toBe(true);
  });

  it("a BMC with dead member links: the same warnings and parts with and without $expand", async () => {
    const runs: Inventory[] = [];
    for (const q of [["dead-member-links"], ["dead-member-links", "no-expand-query"]] as Quirk[][]) {
      setQuirks(q);
      runs.push(await client().inventory());
    }
    expect(runs[0].warnings?.length).toBeGreaterThan(0);
    expect(facts(runs[0])).toEqual(facts(runs[1]));
  });
});

describe.each(MODES.filter((m) => m.expand))("recheck with $expand ($name)", (m) => {
  let fp: RefreshFingerprint;
  beforeAll(async () => {
    setQuirks(m.quirks);
    fp = (await client().inventory()).refresh!;
  });

  it(`an unchanged BMC: two conditional GETs${m.etags ? ", both 304" : ""}, and unchanged`, async () => {
    setQuirks(m.quirks);
    const c = client();
    await c.login();
    const { value, requests } = await sent(() => c.recheck(fp));
    expect(value.unchanged).toBe(true);
    expect(requests.length).toBe(2);
    for (const r of requests) expect(r).toMatch(m.etags ? / 304$/ : / 200$/);
  });

  it("refreshSince: a host power change rebuilds the inventory from the two payloads re-read, as a full read finds it", async () => {
    setQuirks(m.quirks);
    const c = client();
    await c.login();
    const was = env.lab.world.powerState(node) === "On";
    env.lab.world.setHostPower(node, !was);
    try {
      const { value, requests } = await sent(() => c.refreshSince(fp, { bmcFirmwareVersion: "known" }));
      expect(requests.map((r) => r.replace(/ \d+$/, ""))).toEqual(
        [fp.system.path, fp.firmware!.path].map((p) => `GET ${p}`),
      );
      if (!value || value.unchanged) throw new Error("expected a changed System");
      expect(value.system.powerState).toBe(env.lab.world.powerState(node));
      expect(value.system.powerState).not.toBe(was ? "On" : "Off");
      // The Manager was not read: the firmware is unchanged, so the known version stands.
      expect(value.inventory.bmcFirmwareVersion).toBe("known");
      const full = await client().inventory();
      expect({ ...facts(value.inventory), bmcFirmwareVersion: full.bmcFirmwareVersion }).toEqual(facts(full));
      expect(value.inventory.refresh?.system.etag !== undefined).toBe(m.etags);
    } finally {
      env.lab.world.setHostPower(node, was);
    }
  });

  it("refreshSince: a firmware change reads the Manager again and reports the new versions", async () => {
    setQuirks(m.quirks);
    const f = env.lab.world.faults.add({
      kind: "firmware-drift",
      node: node.spec.name,
      component: "bmc",
      version: "9.9.9",
    });
    try {
      const value = await client().refreshSince(fp, { bmcFirmwareVersion: "stale" });
      if (!value || value.unchanged) throw new Error("expected a change");
      expect(value.inventory.bmcFirmwareVersion).toBe("9.9.9");
      expect(value.inventory.firmware.map((x) => x.version)).toContain("9.9.9");
    } finally {
      env.lab.world.faults.remove(f.id);
    }
  });

  const drifts: [string, () => () => void][] = [
    [
      "a GPU lost",
      () => {
        const f = env.lab.world.faults.add({ kind: "missing-gpu", node: node.spec.name, gpus: 1 });
        return () => env.lab.world.faults.remove(f.id);
      },
    ],
    [
      "a NIC's MAC replaced",
      () => {
        const ports = node.ports;
        (node as unknown as { ports: NicPort[] }).ports = ports.map((p, i) =>
          i === 0 ? { ...p, mac: `02:aa:bb:${p.mac.slice(9)}` } : p,
        );
        return () => {
          (node as unknown as { ports: readonly NicPort[] }).ports = ports;
        };
      },
    ],
    [
      // The BMC's firmware shows only in FirmwareInventory (and the Manager), not in the expanded System.
      "the BMC's firmware version changed",
      () => {
        const f = env.lab.world.faults.add({
          kind: "firmware-drift",
          node: node.spec.name,
          component: "bmc",
          version: "9.9.9",
        });
        return () => env.lab.world.faults.remove(f.id);
      },
    ],
  ];
  it.each(drifts)("%s: recheck says changed", async (_, make) => {
    setQuirks(m.quirks);
    const undo = make();
    try {
      expect((await client().recheck(fp)).unchanged).toBe(false);
    } finally {
      undo();
    }
  });
});

describe.each(MODES)("drift in the inventory ($name)", (m) => {
  it("a GPU lost, a MAC replaced and a firmware version changed all show in the inventory", async () => {
    setQuirks(m.quirks);
    const before = await client().inventory();
    const gpu = env.lab.world.faults.add({ kind: "missing-gpu", node: node.spec.name, gpus: 1 });
    const fw = env.lab.world.faults.add({
      kind: "firmware-drift",
      node: node.spec.name,
      component: "gpu",
      version: "9.9.9",
    });
    const ports = node.ports;
    (node as unknown as { ports: NicPort[] }).ports = ports.map((p, i) =>
      i === 0 ? { ...p, mac: `02:aa:bb:${p.mac.slice(9)}` } : p,
    );
    try {
      const after = await client().inventory();
      expect(after.gpus.length).toBe(before.gpus.length - 1);
      expect(after.macs[0]).toBe(`02:AA:BB:${ports[0].mac.slice(9).toUpperCase()}`);
      expect(after.firmware.filter((f) => f.version === "9.9.9").length).toBeGreaterThan(0);
    } finally {
      env.lab.world.faults.remove(gpu.id);
      env.lab.world.faults.remove(fw.id);
      (node as unknown as { ports: readonly NicPort[] }).ports = ports;
    }
  });
});
