/** The backends behind rackform_machine, built once per provider process from the provider's backend blocks. */
import { BcmClient } from "../../clients/bcm/index.js";
import { IronicClient } from "../../clients/ironic/index.js";
import { MaasClient } from "../../clients/maas/index.js";
import { WarewulfClient } from "../../clients/warewulf/index.js";
import type { ProviderData } from "../config/config.js";
import type { Backend, BackendName } from "./backend.js";
import { BcmBackend } from "./bcm.js";
import { IronicBackend } from "./ironic.js";
import { MaasBackend } from "./maas.js";
import { MaasAcceptance } from "./maas-acceptance.js";
import { WarewulfBackend } from "./warewulf.js";

export * from "./backend.js";
export { BCM_ACCEPTANCE_BURN, BcmBackend } from "./bcm.js";
export { IronicBackend, type IronicDeployImages } from "./ironic.js";
export { IRONIC_ACCEPTANCE_STEP } from "./ironic-acceptance.js";
export { IRONIC_STATE_TABLE } from "./ironic-states.js";
export { MAAS_STATE_TABLE, MaasBackend } from "./maas.js";
export { MAAS_ACCEPTANCE_SCRIPT, MaasAcceptance } from "./maas-acceptance.js";
export { BACKEND_TRAITS, type BackendTraits } from "./traits.js";
export { WarewulfBackend, type WarewulfBackendOptions } from "./warewulf.js";
export { WAREWULF_ACCEPTANCE } from "./warewulf-acceptance.js";

/** The provider block lacks the endpoint of the backend a machine names. */
export class BackendNotConfiguredError extends Error {
  override readonly name = "BackendNotConfiguredError";
  readonly code = "RACKFORM_ERR_BACKEND_NOT_CONFIGURED";
  constructor(readonly backend: BackendName) {
    super(NOT_CONFIGURED[backend]);
  }
}

const NOT_CONFIGURED: Record<BackendName, string> = {
  maas: 'backend = "maas" needs the provider\'s maas block (url and api_key), or RACKFORM_MAAS_URL and RACKFORM_MAAS_API_KEY',
  ironic: 'backend = "ironic" needs the provider\'s ironic block (url), or RACKFORM_IRONIC_URL',
  warewulf:
    'backend = "warewulf" needs the provider\'s warewulf block (url, username and password), or RACKFORM_WAREWULF_URL, ' +
    "RACKFORM_WAREWULF_USERNAME and RACKFORM_WAREWULF_PASSWORD",
  bcm: 'backend = "bcm" needs the provider\'s bcm block (url, username, password), or RACKFORM_BCM_URL, RACKFORM_BCM_USERNAME and RACKFORM_BCM_PASSWORD',
};

const cache = new WeakMap<ProviderData, Map<BackendName, Backend>>();

/** The backend `name` of this provider process (one client per backend, sharing the provider's HTTP core). */
export function backendFor(data: ProviderData, name: BackendName): Backend {
  let byName = cache.get(data);
  if (!byName) {
    byName = new Map();
    cache.set(data, byName);
  }
  const hit = byName.get(name);
  if (hit) return hit;
  const b = build(data, name);
  byName.set(name, b);
  return b;
}

/**
 * How long a refresh may read machines from a list this process already holds (ProviderTimings): every machine of a
 * plan from the same few lists (a new list only for machines none of them carries), so a no-op plan sends at most
 * one list per node. A write by this process drops every list at once, and status waits take only lists started
 * after their previous read, so this bounds only how far a plain read may lag behind the backend.
 */
const REFRESH_LIST_MAX_AGE_MS = 30_000;

function build(data: ProviderData, name: BackendName): Backend {
  if (name === "maas") {
    const s = data.backends.maas;
    if (!s) throw new BackendNotConfiguredError(name);
    const client = new MaasClient({
      url: s.url,
      apiKey: s.apiKey,
      core: data.core,
      machineListMaxAgeMs: data.timings.refreshListMaxAgeMs ?? REFRESH_LIST_MAX_AGE_MS,
    });
    return new MaasBackend(client, new MaasAcceptance(client, { core: data.core, apiKey: s.apiKey }), {
      pollMs: data.timings.backendPollMs,
    });
  }
  if (name === "warewulf") return buildWarewulf(data);
  if (name === "bcm") {
    const b = data.backends.bcm;
    if (!b) throw new BackendNotConfiguredError(name);
    if (b.caPem || b.insecure) data.core.configureOrigin(b.url, { tls: { ca: b.caPem, insecure: b.insecure } });
    const client = new BcmClient({ url: b.url, username: b.username, password: b.password, core: data.core });
    return new BcmBackend(client, { pollMs: data.timings.backendPollMs, category: b.category });
  }
  const s = data.backends.ironic;
  if (!s) throw new BackendNotConfiguredError(name);
  if (s.auth.type === "basic") data.core.redactor.add(s.auth.password);
  if (s.auth.type === "token") data.core.redactor.add(s.auth.token);
  const client = new IronicClient({
    url: s.url,
    auth: s.auth,
    core: data.core,
    nodeListMaxAgeMs: data.timings.refreshListMaxAgeMs ?? REFRESH_LIST_MAX_AGE_MS,
  });
  return new IronicBackend(client, {
    pollMs: data.timings.backendPollMs,
    deployImages: s.deployImages === "unknown" ? undefined : s.deployImages,
  });
}

function buildWarewulf(data: ProviderData): Backend {
  const s = data.backends.warewulf;
  if (!s) throw new BackendNotConfiguredError("warewulf");
  if (s.insecure) data.core.configureOrigin(new URL(s.url).origin, { tls: { insecure: true } });
  const client = new WarewulfClient({ url: s.url, username: s.username, password: s.password, core: data.core });
  return new WarewulfBackend(client, {
    // The node's BMC, with the credentials stored on the node (one shared client per address and credentials).
    redfish: (address, username, password) => data.dpuClient(address, username, password),
    profile: s.profile,
    pollMs: data.timings.backendPollMs,
    redact: (secret) => data.core.redactor.add(secret),
  });
}
