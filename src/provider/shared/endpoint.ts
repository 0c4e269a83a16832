/**
 * Redfish endpoints (BMCs, rack PDUs, DPU BMCs) as the provider compares and uses them. A node's identity is its
 * hardware, not its address: two spellings of one address (a trailing slash, the default port, the host's case, the
 * optional /redfish/v1) are the same endpoint and plan nothing, and a real re-address is an in-place update that
 * checks the same device answers there (issue 35).
 */
import {
  type AttributePath,
  type Diagnostics,
  formatPath,
  keepStateWhenEquivalent,
  type PlanModifier,
  type Value,
  validator,
} from "../../framework/index.js";

/**
 * The endpoint's canonical form: scheme and host lower case, the scheme's default port dropped, no path (the
 * validator allows only none or /redfish/v1), no trailing slash. A string that is not a URL is returned as it is.
 */
export function normalEndpoint(endpoint: string): string {
  try {
    return new URL(endpoint.trim()).origin;
  } catch {
    return endpoint;
  }
}

/** True when both are strings naming the same Redfish service. */
export function sameEndpoint(a: Value, b: Value): boolean {
  return typeof a === "string" && typeof b === "string" && normalEndpoint(a) === normalEndpoint(b);
}

/** Keeps the recorded endpoint when the configured one is another spelling of it, so the engine sees no change. */
export function endpointSpelling(): PlanModifier {
  return keepStateWhenEquivalent(
    sameEndpoint,
    "plans no change for another spelling of the same address (trailing slash, default port, host case)",
  );
}

/** Accepts http(s)://host[:port] (optionally /redfish/v1) without credentials; plain http is judged at plan. */
export const redfishEndpoint = validator("a Redfish service URL such as https://10.0.0.5", (req, resp) => {
  if (typeof req.value !== "string") return;
  let u: URL;
  try {
    u = new URL(req.value);
  } catch {
    resp.diagnostics.error(
      "Invalid Redfish endpoint",
      `${JSON.stringify(req.value)} is not a URL. Write the service address, e.g. "https://10.0.0.5".`,
      req.path,
    );
    return;
  }
  const problem =
    u.protocol !== "https:" && u.protocol !== "http:"
      ? `the scheme ${u.protocol} is not https`
      : u.username || u.password
        ? "it contains credentials; put them in the provider's redfish block instead"
        : !/^\/?(redfish\/v1\/?)?$/.test(u.pathname)
          ? `it has a path (${u.pathname}); give only the service address`
          : u.search || u.hash
            ? "it has a query or fragment"
            : undefined;
  if (problem) {
    resp.diagnostics.error(
      "Invalid Redfish endpoint",
      `${JSON.stringify(u.origin)}…: ${problem}. Write the service address, e.g. "https://10.0.0.5".`,
      req.path,
    );
  }
});

/**
 * Plain HTTP would carry the BMC or PDU password in clear (a conformant Redfish service requires TLS): refused unless
 * the provider's redfish block sets allow_http = true, then a warning. Judged at plan (and again at apply for values
 * unknown then), because resource validation runs before the provider block is known.
 */
export function checkEndpointScheme(
  endpoint: Value,
  allowHttp: boolean,
  attribute: AttributePath,
  diags: Diagnostics,
): void {
  if (typeof endpoint !== "string" || !/^http:\/\//i.test(endpoint.trim())) return;
  const attr = formatPath(attribute);
  const https = endpoint.trim().replace(/^http:/i, "https:");
  if (allowHttp) {
    diags.warning(
      `Plain HTTP Redfish endpoint: ${normalEndpoint(endpoint)}`,
      `${attr} = ${JSON.stringify(endpoint)} is used over plain HTTP because the provider's redfish block sets ` +
        "allow_http = true: the Redfish password and every reply travel unencrypted. Use https:// as soon as the " +
        "device serves it.",
      attribute,
    );
    return;
  }
  diags.error(
    "Plain HTTP Redfish endpoint refused",
    `${attr} = ${JSON.stringify(endpoint)} would send the Redfish password in clear; a conformant Redfish service ` +
      `serves HTTPS. Write ${JSON.stringify(https)} (with redfish.ca_file naming the CA that signed its ` +
      "certificate), or, for a device that cannot serve HTTPS, set allow_http = true in the provider's redfish " +
      "block (unsafe: credentials travel unencrypted).",
    attribute,
  );
}
