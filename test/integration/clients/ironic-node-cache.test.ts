/**
 * IronicClient.nodes on loopback: a refresh of many nodes costs one node list and one port list, and a shared list
 * never answers with something older than a write or a direct read this client already made.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { IronicClient } from "../../../src/clients/ironic/index.js";

interface FakeNode {
  uuid: string;
  name: string;
  provision_state: string;
}
let server: Server | undefined;
const seen: { method: string; path: string }[] = [];

/** A tiny Ironic: node list and show (fields ignored), port list; every write is accepted (202). */
async function fakeIronic(nodes: FakeNode[], ports: { uuid: string; node_uuid: string; address: string }[]) {
  seen.length = 0;
  server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    for await (const _ of req);
    const u = new URL(req.url ?? "/", "http://x");
    seen.push({ method: req.method ?? "", path: u.pathname });
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (u.pathname === "/") return reply(200, { versions: [{ id: "v1", version: "1.87", min_version: "1.1" }] });
    if (req.method !== "GET") return reply(202, {});
    if (u.pathname === "/v1/nodes") return reply(200, { nodes: nodes.map((n) => ({ ...n })) });
    if (u.pathname === "/v1/ports") return reply(200, { ports });
    const one = /^\/v1\/nodes\/([^/]+)$/.exec(u.pathname);
    const n = one && nodes.find((x) => x.uuid === one[1] || x.name === one[1]);
    if (!n) return reply(404, { error_message: JSON.stringify({ faultstring: "Node not found." }) });
    return reply(200, { ...n });
  });
  const s = server;
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const FIELDS = ["provision_state"];
const lists = () => seen.filter((s) => s.method === "GET" && (s.path === "/v1/nodes" || s.path === "/v1/ports"));

describe("IronicClient.nodes (batched reads)", () => {
  it("serves 40 concurrent reads of different nodes, with their MACs, from one node list and one port list", async () => {
    // GIVEN forty active nodes with one port each
    const nodes = Array.from({ length: 40 }, (_, i) => ({ uuid: `u${i}`, name: `n${i}`, provision_state: "active" }));
    const ports = nodes.map((n, i) => ({ uuid: `p${i}`, node_uuid: n.uuid, address: `aa:bb:cc:00:00:${i}` }));
    const c = new IronicClient({ url: await fakeIronic(nodes, ports) });

    // WHEN every node is read at once, by uuid or by name, as a refresh of forty resources does
    const got = await Promise.all(
      nodes.map(async (n, i) => {
        const x = await c.nodes.get(i % 2 ? n.uuid : n.name, FIELDS);
        return { uuid: x?.uuid, state: x?.provisionState, macs: x && (await c.nodes.macsOf(x)) };
      }),
    );
    await c.close();

    // THEN each got its own node and MAC, and the server saw one list of each kind and no per-node GET
    expect(got).toEqual(nodes.map((n, i) => ({ uuid: n.uuid, state: "active", macs: [`aa:bb:cc:00:00:${i}`] })));
    expect(
      lists()
        .map((s) => s.path)
        .sort(),
    ).toEqual(["/v1/nodes", "/v1/ports"]);
    expect(seen.filter((s) => s.path.startsWith("/v1/nodes/"))).toEqual([]);
  });

  it("answers undefined for a node the list does not hold, so the caller reads it directly", async () => {
    const c = new IronicClient({ url: await fakeIronic([{ uuid: "u1", name: "n1", provision_state: "active" }], []) });
    expect(await c.nodes.get("u9", FIELDS)).toBeUndefined();
    await c.close();
  });

  it("fails to reuse a list from before a write: the next read sends a new list", async () => {
    // GIVEN a list kept for a minute, read once
    const nodes = [{ uuid: "u1", name: "n1", provision_state: "active" }];
    const c = new IronicClient({ url: await fakeIronic(nodes, []), nodeListMaxAgeMs: 60_000 });
    await c.nodes.get("u1", FIELDS);
    await c.nodes.get("u1", FIELDS);
    expect(lists()).toHaveLength(1);

    // WHEN this client writes to a node, and Ironic's answer changes
    await c.setMaintenance("u1", true, "test");
    nodes[0].provision_state = "servicing";

    // THEN the next read is a new list and sees the change
    expect((await c.nodes.get("u1", FIELDS))?.provisionState).toBe("servicing");
    expect(lists()).toHaveLength(2);
    await c.close();
  });

  it("fails to answer from a list older than a direct read of the node (a waiter saw a newer state)", async () => {
    // GIVEN a list taken while the node was deploying, kept for a minute
    const nodes = [{ uuid: "u1", name: "n1", provision_state: "deploying" }];
    const c = new IronicClient({ url: await fakeIronic(nodes, []), nodeListMaxAgeMs: 60_000 });
    const before = await c.nodes.get("u1", FIELDS);
    expect(before?.provisionState).toBe("deploying");
    expect(await c.nodes.macsOf(before!)).toEqual([]);

    // WHEN the conductor finishes (no write by this client) and a wait reads the node directly
    nodes[0].provision_state = "active";
    expect((await c.getNode("u1", { fields: FIELDS })).provisionState).toBe("active");

    // THEN the old list no longer answers for it (the caller reads directly), and a later list does again
    expect(await c.nodes.get("u1", FIELDS)).toBeUndefined();
    expect(await c.nodes.macsOf(before!)).toBeUndefined();
    c.nodes.invalidate();
    expect((await c.nodes.get("u1", FIELDS))?.provisionState).toBe("active");
    await c.close();
  });
});
