// A tiny Redfish BMC over HTTPS (one ComputerSystem) so the MAAS lab's redfish power driver can be tested end to end.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TlsMaterial {
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** A throwaway CA and a server certificate for 127.0.0.1, made with the openssl CLI. */
export function makeTls(): TlsMaterial {
  const dir = mkdtempSync(join(tmpdir(), "maas-lab-tls-"));
  const run = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  try {
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    run(["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=maas lab test CA"]);
    run(["req", ...ec, "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1"]);
    writeFileSync(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n");
    run([
      "x509",
      "-req",
      "-in",
      "srv.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "srv.pem",
      "-days",
      "1",
      "-extfile",
      "ext.cnf",
    ]);
    const read = (f: string) => readFileSync(join(dir, f), "utf8");
    return { caPem: read("ca.pem"), certPem: read("srv.pem"), keyPem: read("srv.key") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface RedfishStandIn {
  address: string;
  power: "On" | "Off";
  resets: string[];
  patches: unknown[];
  /** How many of the next requests answer 503 (a BMC busy or resetting). */
  failNext: number;
  /** How many of the next requests have their connection reset before any answer (a BMC under load). */
  resetNext: number;
  /** Requests received so far, reset connections included. */
  requests: number;
  /** Whether the BMC answers 403 (a user without the power privilege) instead of serving the request. */
  forbid: boolean;
  close(): Promise<void>;
}

/** Starts the stand-in BMC on 127.0.0.1:0 with basic auth user/password. */
export async function startRedfish(tls: TlsMaterial, user: string, password: string): Promise<RedfishStandIn> {
  const state: Omit<RedfishStandIn, "address" | "close"> = {
    power: "Off",
    resets: [],
    patches: [],
    failNext: 0,
    resetNext: 0,
    forbid: false,
    requests: 0,
  };
  const system = "/redfish/v1/Systems/System.Embedded.1";
  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.requests++;
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { "Content-Type": "application/json" });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (state.resetNext > 0) {
        state.resetNext--;
        return req.socket.destroy();
      }
      if (state.failNext > 0) {
        state.failNext--;
        return send(503, { error: { message: "busy" } });
      }
      if (state.forbid) return send(403, { error: { message: "insufficient privilege" } });
      const expected = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return send(401, { error: { message: "unauthorized" } });
      const path = (req.url ?? "").replace(/\/$/, "");
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      if (req.method === "GET" && path === "/redfish/v1/Systems")
        return send(200, { Members: [{ "@odata.id": system }] });
      if (req.method === "GET" && path === system) {
        return send(200, {
          "@odata.id": system,
          PowerState: state.power,
          Actions: { "#ComputerSystem.Reset": { target: `${system}/Actions/ComputerSystem.Reset` } },
        });
      }
      if (req.method === "PATCH" && path === system) {
        state.patches.push(body);
        return send(200, {});
      }
      if (req.method === "POST" && path === `${system}/Actions/ComputerSystem.Reset`) {
        const type = String(body?.ResetType);
        state.resets.push(type);
        state.power = type === "ForceOff" || type === "GracefulShutdown" ? "Off" : "On";
        return send(204);
      }
      send(404, { error: { message: `no ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const standIn = state as RedfishStandIn;
  standIn.address = `https://127.0.0.1:${port}`;
  standIn.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return standIn;
}
