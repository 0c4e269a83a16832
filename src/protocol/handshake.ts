/** The go-plugin launch contract: what the engine puts in the environment and the one line it reads back on stdout. */
import { handshakeCertField } from "./tls.js";

/** The environment variable holding the magic cookie (Terraform/OpenTofu internal/plugin6/serve.go). */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
/** The cookie value every Terraform and OpenTofu release sets for plugins. */
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/** The plugin protocol major version rackform speaks. */
export const PROTOCOL_VERSION = 6;
/** go-plugin's core protocol version, always 1. */
export const CORE_PROTOCOL_VERSION = 1;

/** What the launch environment asks of the plugin. */
export type LaunchRequest =
  | { readonly ok: true; readonly clientCertPem?: string }
  | { readonly ok: false; readonly message: string };

/** Checks the environment the engine set: magic cookie, offered protocol versions, and the client certificate. */
export function checkLaunchEnvironment(env: Readonly<Record<string, string | undefined>>): LaunchRequest {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    return {
      ok: false,
      message:
        "This binary is a plugin for Terraform and OpenTofu. It is not meant to be executed directly.\n" +
        "Run terraform or tofu, which launch the provider plugin automatically.\n",
    };
  }
  const offered = env.PLUGIN_PROTOCOL_VERSIONS;
  // Without the variable go-plugin assumes the plugin's own default version.
  if (offered !== undefined && offered.trim() !== "") {
    const versions = offered.split(",").map((v) => Number.parseInt(v.trim(), 10));
    if (!versions.includes(PROTOCOL_VERSION)) {
      return {
        ok: false,
        message:
          `This provider speaks plugin protocol ${PROTOCOL_VERSION}, but the engine offered only ${offered}. ` +
          "Use Terraform ≥ 1.0 or OpenTofu.\n",
      };
    }
  }
  const cert = env.PLUGIN_CLIENT_CERT;
  return cert && cert.trim() !== "" ? { ok: true, clientCertPem: cert } : { ok: true };
}

/** The handshake line: `1|6|unix|/path|grpc|CERT` (the certificate field only when serving TLS), with newline. */
export function handshakeLine(network: "unix" | "tcp", address: string, serverCertDer?: Uint8Array): string {
  const fields = [String(CORE_PROTOCOL_VERSION), String(PROTOCOL_VERSION), network, address, "grpc"];
  if (serverCertDer) fields.push(handshakeCertField(serverCertDer));
  return `${fields.join("|")}\n`;
}
