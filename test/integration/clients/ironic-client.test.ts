/** IronicClient behaviours that a real Ironic cannot be made to show on demand: bounded lock retries, auth, wait failures. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { IronicClient } from "../../../src/clients/ironic/index.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server | undefined;
const seen: { method: string; url: string; headers: IncomingMessage["headers"] }[] = [];

async function serve(h: Handler): Promise<string> {
  seen.length = 0;
  server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    if (req.url === "/") return json(res, 200, { versions: [{ id: "v1", version: "1.82", min_version: "1.1" }] });
    h(req, res, body);
  });
  const s = server;
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function fault(res: ServerResponse, status: number, faultstring: string): void {
  json(res, status, { error_message: JSON.stringify({ faultcode: "Client", faultstring, debuginfo: null }) });
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** Fails the test when a call that should fail succeeds. */
const unexpected = (): never => {
  throw new Error("expected the call to fail");
};
const noSleep = { sleep: async () => undefined, random: () => 0 };

describe("IronicClient on loopback", () => {
  it("retries a PATCH while the node is locked and gives up after the bound with a typed conflict", async () => {
    const url = await serve((_q, res) =>
      fault(res, 409, "Node n1 is locked by host conductor-2, please retry after the current operation is completed."),
    );
    const c = new IronicClient({ url, lockRetry: { maxAttempts: 4 }, clock: noSleep });
    const e = await c
      .updateNode("n1", [{ op: "replace", path: "/extra/a", value: 1 }])
      .then(unexpected, (x: unknown) => x as Error & { code: string });
    await c.close();
    expect(e.code).toBe("RACKFORM_ERR_IRONIC_CONFLICT");
    expect(e.message).toContain("is locked by host conductor-2");
    expect(seen.filter((s) => s.method === "PATCH")).toHaveLength(4);
    expect(seen.find((s) => s.method === "PATCH")?.headers["x-openstack-ironic-api-version"]).toBe("1.82");
  });

  it("sends basic credentials and keeps the password out of an auth error", async () => {
    const url = await serve((_q, res) => fault(res, 401, "Invalid credentials"));
    const c = new IronicClient({ url, auth: { type: "basic", username: "ironic", password: "hunter2-Secret" } });
    const e = await c.getNode("n1").then(unexpected, (x: unknown) => x as Error & { code: string });
    await c.close();
    expect(e.code).toBe("RACKFORM_ERR_IRONIC_AUTH");
    expect(seen[1].headers.authorization).toBe(`Basic ${Buffer.from("ironic:hunter2-Secret").toString("base64")}`);
    const text = `${e.message}${e.stack}${JSON.stringify(e)}`;
    expect(text).not.toContain("hunter2-Secret");
    expect(text).not.toContain(Buffer.from("ironic:hunter2-Secret").toString("base64"));
  });

  it("sends a token as X-Auth-Token", async () => {
    const url = await serve((_q, res) => json(res, 200, { uuid: "u1", name: "n1", provision_state: "available" }));
    const c = new IronicClient({ url, auth: { type: "token", token: "gAAAAtok" } });
    expect((await c.getNode("n1", { fields: ["provision_state"] })).provisionState).toBe("available");
    await c.close();
    expect(seen[1].headers["x-auth-token"]).toBe("gAAAAtok");
    expect(seen[1].url).toBe("/v1/nodes/n1?fields=uuid,provision_state");
  });

  it("fails a provision wait with last_error when the node enters deploy failed", async () => {
    const states = [
      { provision_state: "deploying", target_provision_state: "active", last_error: null },
      {
        provision_state: "deploy failed",
        target_provision_state: "active",
        last_error: "Timeout reached while waiting for callback",
      },
    ];
    // The first poll reads the node, later ones the shared node list (a list of one here).
    const url = await serve((q, res) => {
      const node = { uuid: "u1", name: "gpu-1", ...(states.shift() ?? {}) };
      json(res, 200, q.url?.startsWith("/v1/nodes?") ? { nodes: [node] } : node);
    });
    const c = new IronicClient({ url, clock: noSleep });
    const e = await c
      .waitForProvisionState("u1", "active", { pollMs: 1 })
      .then(unexpected, (x: unknown) => x as Error & { code: string });
    await c.close();
    expect(e.code).toBe("RACKFORM_ERR_IRONIC_PROVISION_FAILED");
    expect(e.message).toBe(
      "node gpu-1 (u1) entered deploy failed while waiting for active: Timeout reached while waiting for callback",
    );
  });

  it("fails a provision wait when the node settles back in another stable state (a failed manage)", async () => {
    const url = await serve((q, res) => {
      const node = {
        uuid: "u1",
        name: null,
        provision_state: "enroll",
        target_provision_state: null,
        last_error: "Failed to get power state: BMC unreachable",
      };
      json(res, 200, q.url?.startsWith("/v1/nodes?") ? { nodes: [node] } : node);
    });
    const c = new IronicClient({ url, clock: noSleep });
    const e = await c
      .waitForProvisionState("u1", "manageable", { pollMs: 1 })
      .then(unexpected, (x: unknown) => x as Error & { code: string });
    await c.close();
    expect(e.code).toBe("RACKFORM_ERR_IRONIC_PROVISION_FAILED");
    expect(e.message).toContain(
      "settled in enroll while waiting for manageable: Failed to get power state: BMC unreachable",
    );
  });

  it("refuses the service target before sending it when the server is older than 1.87", async () => {
    const url = await serve((_q, res) => json(res, 202, {}));
    const c = new IronicClient({ url });
    const e = await c
      .setProvisionState("u1", "service", { serviceSteps: [] })
      .then(unexpected, (x: unknown) => x as Error & { code: string });
    await c.close();
    expect(e.code).toBe("RACKFORM_ERR_IRONIC_MICROVERSION");
    expect(e.message).toContain("needs Ironic API 1.87");
    expect(seen.filter((s) => s.method === "PUT")).toHaveLength(0);
  });

  it("concurrent identical node lists (one per resource being read) share one request", async () => {
    const url = await serve((_q, res) =>
      setTimeout(
        () =>
          json(res, 200, {
            nodes: [
              { uuid: "u1", name: "a", provision_state: "active" },
              { uuid: "u2", name: "b", provision_state: "available" },
            ],
          }),
        20,
      ),
    );
    const c = new IronicClient({ url });
    await c.negotiate();
    const all = await Promise.all(Array.from({ length: 20 }, () => c.indexNodes({ fields: ["provision_state"] })));
    await c.close();
    expect(all.every((idx) => idx.byName.get("b")?.uuid === "u2")).toBe(true);
    expect(seen.filter((r) => r.url.startsWith("/v1/nodes"))).toHaveLength(1);
  });
});
