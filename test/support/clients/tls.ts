/** Throw-away certificates for loopback TLS tests: a CA, a server certificate for 127.0.0.1 it signed, and an unrelated CA. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** PEM material for a TLS test. */
export interface TestPki {
  /** The folder holding the PEM files (test-ca.pem, server.pem, server.key); removed by cleanup. */
  readonly dir: string;
  readonly caPem: string;
  readonly caFile: string;
  readonly otherCaPem: string;
  readonly serverKey: string;
  readonly serverCert: string;
  cleanup(): void;
}

/** Generates the PKI with the openssl CLI (in a new folder under `parent`); fails with a clear message when openssl is absent. */
export function makeTestPki(parent: string = tmpdir()): TestPki {
  const dir = mkdtempSync(join(parent, "rackform-pki-"));
  const ssl = (...args: string[]) => {
    try {
      execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    } catch (e) {
      throw new Error(`openssl is required to generate test certificates: ${(e as Error).message}`);
    }
  };
  const ca = (name: string) =>
    ssl(
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.pem`,
      "-days",
      "2",
      "-subj",
      `/CN=${name}`,
    );
  ca("test-ca");
  ca("other-ca");
  ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
  const ext = join(dir, "san.ext");
  execFileSync("sh", ["-c", `printf 'subjectAltName=IP:127.0.0.1\\n' > ${JSON.stringify(ext)}`]);
  ssl(
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "test-ca.pem",
    "-CAkey",
    "test-ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "san.ext",
  );
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return {
    dir,
    caPem: read("test-ca.pem"),
    caFile: join(dir, "test-ca.pem"),
    otherCaPem: read("other-ca.pem"),
    serverKey: read("server.key"),
    serverCert: read("server.pem"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
