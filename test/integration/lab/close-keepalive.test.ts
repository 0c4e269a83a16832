/**
 * Regression: Lab.close() used to wait until clients hung up their keep-alive connections (a provider's pool keeps
 * them ~30 s). It must drop them itself. Asserted by behaviour: the client sees its connection closed by the lab.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { describe, expect, it } from "vitest";
import { startLab } from "../../../src/lab/index.js";

describe("Lab.close with keep-alive clients", () => {
  it("closes the client's open keep-alive connection instead of waiting for the client", async () => {
    const lab = await startLab({ nodes: 1, profile: "instant", stateDir: mkdtempSync(join(tmpdir(), "rf-close-")) });
    const n = lab.info.nodes[0];
    lab.world.setOutlet(n.pdu, n.outlet, "On");
    const url = new URL(n.bmc.url);
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: readFileSync(lab.info.ca) });
    await new Promise<void>((r) => socket.once("secureConnect", () => r()));
    const closedByServer = new Promise<boolean>((r) => socket.once("close", () => r(true)));
    socket.write(`GET /redfish/v1/ HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise<void>((r) => socket.once("data", () => r()));
    await lab.close();
    expect(await closedByServer).toBe(true);
  });
});
