/**
 * Turns typed client errors into diagnostics that say what went wrong, where, and what to do.
 * Clients never see diagnostics; this is the only place that maps their codes: `ERROR_HINTS` gives, per code, what to
 * check and which attribute of the resource (or provider block) to highlight.
 */
import { type ERROR_CODES, isClientError, type RackformClientError } from "../../clients/errors.js";
import type { AttributePath, Diagnostics } from "../../framework/index.js";

/** Where to point the user for each kind of failure: the attribute that names the endpoint, and the object's label. */
export interface ErrorSite {
  /** e.g. `PDU https://127.20.0.1 outlet A1` */
  readonly what: string;
  /** The attribute holding the address (connect, TLS and timeout failures point here). */
  readonly endpointPath?: AttributePath;
  /** The attribute naming the thing that was not found. */
  readonly notFoundPath?: AttributePath;
  /** Which Redfish service answered: "BMC" (default) or "PDU", for credential hints. */
  readonly device?: "BMC" | "PDU";
  /** The provider setting holding the service's address when it is not the resource's own (e.g. `maas.url`). */
  readonly endpointSetting?: string;
}

/**
 * The attribute a diagnostic highlights: the site's endpoint or not-found attribute. Provider-block settings
 * (`maas.api_key`) cannot be highlighted from a resource's diagnostic: the hints name them instead.
 */
type Highlight = "endpoint" | "notFound";

interface ErrorHint {
  /** What to check or do; may depend on the error and the site. */
  readonly hint: string | ((e: RackformClientError, site: ErrorSite) => string);
  readonly highlight?: Highlight;
}

const creds = (block: string, names: string, env: string) =>
  `Check ${names} in the provider's \`${block}\` block (or ${env}).`;

/** Per code: what to check, and where. Codes without an entry get the device's own message and no hint. */
export const ERROR_HINTS: Partial<Record<keyof typeof ERROR_CODES, ErrorHint>> = {
  RACKFORM_ERR_HTTP_CONNECT: {
    hint: "Check the address, that the device is powered and reachable from this machine, and retry.",
    highlight: "endpoint",
  },
  RACKFORM_ERR_HTTP_TIMEOUT: {
    hint: "The device is slow or hung. Retry, or raise the operation's timeout in the `timeouts` block.",
    highlight: "endpoint",
  },
  RACKFORM_ERR_TLS: {
    hint: "Set `ca_file` in the provider's `redfish` block to the CA that signed the device certificate (or, for a lab you trust, `insecure = true`).",
    highlight: "endpoint",
  },
  RACKFORM_ERR_HTTP_STATUS: {
    hint: (e) =>
      e.status === 429 || e.status === 503
        ? "The device kept asking to retry later; lower parallelism (-parallelism) or retry."
        : "See the device's message above.",
  },
  RACKFORM_ERR_REDFISH_AUTH: {
    hint: (_e, site) =>
      `The ${site.device ?? "BMC"} refused the credentials. ${creds("redfish", "`username` and `password`", "RACKFORM_REDFISH_USERNAME / RACKFORM_REDFISH_PASSWORD")}`,
  },
  RACKFORM_ERR_REDFISH_NOT_FOUND: { hint: "", highlight: "notFound" },
  RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED: { hint: "", highlight: "notFound" },
  RACKFORM_ERR_REDFISH_BMC_BUSY: {
    hint: "The BMC is busy with another job or operation; wait for it to finish (see its task or job queue) and apply again.",
  },
  RACKFORM_ERR_REDFISH_TASK_UNTRACKED: {
    hint: "Check the BMC's task or job queue for the outcome of the update before applying again.",
  },
  RACKFORM_ERR_MAAS_AUTH: {
    hint: `MAAS refused the API key. ${creds("maas", "`api_key` (consumer:token:secret, from `maas apikey`)", "RACKFORM_MAAS_API_KEY")}`,
  },
  RACKFORM_ERR_MAAS_FORBIDDEN: {
    hint: "The MAAS user of this API key may not do this: use an administrator's key, or grant the user the machine's pool.",
  },
  RACKFORM_ERR_MAAS_NOT_FOUND: {
    hint: "MAAS does not have it (deleted by hand?): refresh (terraform apply -refresh-only) so the plan creates it again.",
    highlight: "notFound",
  },
  RACKFORM_ERR_BCM_AUTH: {
    hint: `BCM refused the login. ${creds("bcm", "`username` and `password`", "RACKFORM_BCM_USERNAME / RACKFORM_BCM_PASSWORD")}`,
  },
  RACKFORM_ERR_BCM_REJECTED: {
    hint: "cmdaemon's validation names the field; fix the value (or the duplicate device in BCM) and apply again.",
  },
  RACKFORM_ERR_BCM_POWER_FAILED: {
    hint: "cmdaemon could not power the node through its BMC: check the BMC's address and the credentials BCM holds for it (rackform_machine's BMC), that the BMC answers, then apply again.",
  },
  RACKFORM_ERR_BCM_POWER_TIMEOUT: {
    hint: "Check the node in BCM (cmsh: device status) and its BMC, then apply again.",
  },
  RACKFORM_ERR_BCM_NOT_FOUND: {
    hint: "BCM does not have it (removed by hand?): refresh (terraform apply -refresh-only) so the plan creates it again.",
    highlight: "notFound",
  },
  RACKFORM_ERR_IRONIC_AUTH: {
    hint: `Ironic refused the credentials. ${creds("ironic", "`username` and `password`, or `token`", "RACKFORM_IRONIC_USERNAME / RACKFORM_IRONIC_PASSWORD / RACKFORM_IRONIC_TOKEN")}`,
  },
  RACKFORM_ERR_IRONIC_MICROVERSION: {
    hint: "rackform needs Ironic API 1.1–1.87 with the features it uses; upgrade Ironic or point `url` at a newer one.",
  },
  RACKFORM_ERR_IRONIC_NOT_FOUND: {
    hint: "Ironic does not have it (deleted by hand?): refresh (terraform apply -refresh-only) so the plan creates it again.",
    highlight: "notFound",
  },
  RACKFORM_ERR_SLURM_AUTH: {
    hint: `slurmrestd refused the user and JWT. ${creds("slurm", "`user` and `token` (scontrol token)", "RACKFORM_SLURM_USER / RACKFORM_SLURM_TOKEN")}`,
  },
  RACKFORM_ERR_SLURM_FORBIDDEN: {
    hint: "The Slurm user may not update nodes: use an operator or administrator account (AdminLevel=Operator).",
  },
  RACKFORM_ERR_SLURM_NOT_FOUND: {
    hint: "Slurm does not know this node: check its name and that it is in slurm.conf (or registered as a dynamic node).",
    highlight: "notFound",
  },
  RACKFORM_ERR_IMAGE_SOURCE: {
    hint: "Publish the image where url (or source_file) says, with its size (Content-Length), or correct the attribute, then apply again.",
    highlight: "notFound",
  },
  RACKFORM_ERR_IMAGE_DIGEST: {
    hint: "Check that url (or source_file) and sha256 name the same release (sha256sum the file), correct the one that is wrong, then apply again.",
  },
  RACKFORM_ERR_KUBERNETES_AUTH: {
    hint: `The API server refused the bearer token. ${creds("kubernetes", "`token`", "RACKFORM_KUBERNETES_TOKEN")}`,
  },
  RACKFORM_ERR_KUBERNETES_FORBIDDEN: {
    hint: "The token's identity may not do this (RBAC): it needs get/list/patch on nodes and create on pods/eviction.",
  },
  RACKFORM_ERR_KUBERNETES_NOT_FOUND: {
    hint: "The API server has no such node: check its name and that its kubelet registered.",
    highlight: "notFound",
  },
};

/** The hint and attribute path for an error at a site (both may be empty). */
export function hintFor(e: RackformClientError, site: ErrorSite): { hint: string; path?: AttributePath } {
  const h = ERROR_HINTS[e.code as keyof typeof ERROR_CODES];
  if (!h) return { hint: "" };
  const hint = typeof h.hint === "function" ? h.hint(e, site) : h.hint;
  const p = h.highlight === "endpoint" ? site.endpointPath : h.highlight === "notFound" ? site.notFoundPath : undefined;
  const setting =
    site.endpointSetting && h.highlight === "endpoint" ? `Check the provider's \`${site.endpointSetting}\`. ` : "";
  return { hint: `${setting}${hint}`, path: p };
}

/** Adds one error diagnostic for `err` (a client error or anything else) to `diags`. */
export function addClientError(diags: Diagnostics, err: unknown, action: string, site: ErrorSite): void {
  if (!isClientError(err)) {
    diags.error(`Failed to ${action}`, `${site.what}: ${(err as Error)?.message ?? String(err)}`);
    return;
  }
  const id = err.messageId ? ` (${err.messageId}${err.resolution ? `; resolution: ${err.resolution}` : ""})` : "";
  const server = err.serverMessage ? `\nThe device said: ${err.serverMessage}${id}` : "";
  const { hint, path: p } = hintFor(err, site);
  const detail = `${site.what}: ${err.message}${server}\n${hint} (${err.code})`.trim();
  diags.error(`Failed to ${action}`, detail, p);
}

/**
 * The messages of a failed Redfish update task (the node's evidence: the task's Messages, else the error's own), or
 * undefined for any other error.
 */
export function failedTaskMessages(e: unknown): string[] | undefined {
  if (!isClientError(e) || e.code !== "RACKFORM_ERR_REDFISH_TASK_FAILED") return undefined;
  const task = (e as { details?: { task?: { messages?: readonly string[] } } }).details?.task;
  return task?.messages?.length ? [...task.messages] : [e.message];
}
