/** The check every service URL of the provider block shares (MAAS, Ironic, Slurm, Kubernetes), at validation. */
import { type Validator, validator } from "../../framework/index.js";

/** `raw` parsed as an http or https URL, or what is wrong with it (it is not a URL, or has another scheme). */
export function parseHttpUrl(raw: string): { url: URL; problem?: undefined } | { url?: URL; problem: string } {
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  if (!u) return { problem: "is not a URL" };
  if (u.protocol !== "http:" && u.protocol !== "https:")
    return { url: u, problem: `has the scheme ${u.protocol.replace(/:$/, "")}, not http or https` };
  return { url: u };
}

/**
 * An http(s) URL without credentials, query or fragment; `example` is shown in the fix. Credentials in a URL would
 * end up in state and logs, so they are refused with a pointer to the attribute that holds them.
 */
export function serviceUrl(example: string): Validator {
  return validator(`an http or https URL such as ${example}`, (req, resp) => {
    if (typeof req.value !== "string" || req.value === "") return;
    const { url: u, problem: bad } = parseHttpUrl(req.value);
    const problem =
      bad ??
      (u.username || u.password
        ? "contains credentials; set them in their own attributes instead"
        : u.search || u.hash
          ? "has a query or fragment"
          : undefined);
    if (problem) {
      // Echo only the origin: the rest may hold what was never meant to be shown.
      const shown = u && (u.protocol === "http:" || u.protocol === "https:") ? JSON.stringify(u.origin) : "the value";
      resp.diagnostics.error(
        "Invalid service URL",
        `${shown} ${problem}. Write the service address, e.g. ${example}.`,
        req.path,
      );
    }
  });
}
