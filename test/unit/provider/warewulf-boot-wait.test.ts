/**
 * WarewulfBackend.deploy's wait on GET /status: `last seen` has one-second resolution, so a runtime record from the
 * second the boot began may be the old OS's last wwclient fetch. Deployed needs a stage of the new boot first, or a
 * runtime record from a later second; a boot that stops (warewulfd sent NOT_FOUND) fails at once.
 */
import { describe, expect, it } from "vitest";
import type { RedfishClient } from "../../../src/clients/redfish/index.js";
import type { WarewulfClient, WarewulfNode, WarewulfNodeStatus } from "../../../src/clients/warewulf/index.js";
import { createLogger } from "../../../src/framework/index.js";
import { WarewulfBackend } from "../../../src/provider/backends/index.js";

const SINCE = 1_800_000_000;
const rec = (stage: string, lastSeen: number, sent = "x"): WarewulfNodeStatus => ({
  node: "n1",
  stage,
  sent,
  ipaddr: "",
  lastSeen,
});

/** A backend whose warewulfd answers /status with `records` in turn (the last one repeated). */
function backendWith(records: WarewulfNodeStatus[]) {
  let node: WarewulfNode = {
    id: "n1",
    macs: ["52:54:00:00:00:01"],
    fields: {
      ipmi: { username: "u", password: "p", tags: { redfish_address: "https://127.0.0.1" } },
      tags: { rackform_state: "deployed", rackform_image: "old-1" },
    },
  };
  const seen: string[] = [];
  let i = 0;
  const client = {
    getNode: async () => node,
    getImage: async () => ({ name: "img-2", kernels: [], size: 1, buildtime: 1, writable: true }),
    patchNode: async (_id: string, f: { tags?: Record<string, string> }) => {
      node = { ...node, fields: { ...node.fields, tags: { ...node.fields.tags, ...f.tags } } };
      return node;
    },
    buildNodeOverlays: async () => undefined,
    status: async () => {
      // The first read (deploy's check of the node) sees the old OS at runtime; then the records in turn.
      const r = i === 0 ? rec("runtime", SINCE - 30) : records[Math.min(i - 1, records.length - 1)];
      i++;
      seen.push(r.stage);
      return { nodes: new Map([["n1", r]]), serverTime: SINCE };
    },
  } as unknown as WarewulfClient;
  const redfish = {
    setBootOverride: async () => undefined,
    getSystem: async () => ({ powerState: "On" }),
    power: async () => undefined,
  } as unknown as RedfishClient;
  const backend = new WarewulfBackend(client, { redfish: () => redfish, pollMs: 1 });
  return { backend, seen };
}

const deploy = (b: WarewulfBackend) =>
  b.deploy("n1", {
    log: createLogger({ write: () => undefined }),
    signal: AbortSignal.timeout(5_000),
    image: { name: "img", version: "2", sha256: "a".repeat(64) },
  });

describe("WarewulfBackend's wait for runtime", () => {
  it("does not take the old OS's runtime record of the reset's second for the new boot", async () => {
    const { backend, seen } = backendWith([
      rec("runtime", SINCE),
      rec("runtime", SINCE),
      rec("ipxe", SINCE),
      rec("runtime", SINCE),
    ]);
    const out = await deploy(backend);
    expect(out.kind).toBe("complete");
    // deploy's own check, the clock read after the reset, one stale runtime record (not taken), ipxe, runtime.
    expect(seen).toEqual(["runtime", "runtime", "runtime", "ipxe", "runtime"]);
  });

  it("takes a runtime record from a later second", async () => {
    const { backend, seen } = backendWith([rec("runtime", SINCE + 1)]);
    expect((await deploy(backend)).kind).toBe("complete");
    expect(seen.at(-1)).toBe("runtime");
  });

  it("fails at once when the new boot stops (warewulfd sent NOT_FOUND)", async () => {
    const { backend } = backendWith([rec("image", SINCE, "NOT_FOUND")]);
    const out = await deploy(backend);
    expect(out).toMatchObject({ kind: "failed" });
    if (out.kind === "failed") expect(out.message).toBe("the node stopped at stage image: warewulfd sent NOT_FOUND");
  });
});
