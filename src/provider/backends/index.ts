/** The backends behind rackform_machine, built once per provider process from the provider's `maas`/`ironic` blocks. */
import { IronicClient } from "../../clients/ironic/index.js";
import { MaasClient } from "../../clients/maas/index.js";
import type { ProviderData } from "../config.js";
import type { Backend, BackendName } from "./backend.js";
import { IronicBackend } from "./ironic.js";
import { MaasBackend } from "./maas.js";
import { MaasAcceptance } from "./maas-acceptance.js";

export * from "./backend.js";
export { IRONIC_STATE_TABLE, IronicBackend, type IronicDeployImages } from "./ironic.js";
export { IRONIC_ACCEPTANCE_STEP } from "./ironic-acceptance.js";
export { MAAS_STATE_TABLE, MaasBackend } from "./maas.js";
export { MAAS_ACCEPTANCE_SCRIPT, MaasAcceptance } from "./maas-acceptance.js";

/** The provider block lacks the endpoint of the backend a machine names. */
export class BackendNotConfiguredError extends Error {
  override readonly name = "BackendNotConfiguredError";
  readonly code = "RACKFORM_ERR_BACKEND_NOT_CONFIGURED";
  constructor(readonly backend: BackendName) {
    super(
      backend === "maas"
        ? 'backend = "maas" needs the provider\'s maas block (url and api_key), or RACKFORM_MAAS_URL and RACKFORM_MAAS_API_KEY'
        : 'backend = "ironic" needs the provider\'s ironic block (url), or RACKFORM_IRONIC_URL',
    );
  }
}

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

function build(data: ProviderData, name: BackendName): Backend {
  if (data.backendOverride) return data.backendOverride(name);
  if (name === "maas") {
    const s = data.backends.maas;
    if (!s) throw new BackendNotConfiguredError(name);
    const client = new MaasClient({ url: s.url, apiKey: s.apiKey, core: data.core });
    return new MaasBackend(client, new MaasAcceptance(client, { core: data.core, apiKey: s.apiKey }), {
      pollMs: data.timings.backendPollMs,
    });
  }
  const s = data.backends.ironic;
  if (!s) throw new BackendNotConfiguredError(name);
  if (s.auth.type === "basic") data.core.redactor.add(s.auth.password);
  if (s.auth.type === "token") data.core.redactor.add(s.auth.token);
  return new IronicBackend(new IronicClient({ url: s.url, auth: s.auth, core: data.core }), {
    pollMs: data.timings.backendPollMs,
    deployImages: s.deployImages === "unknown" ? undefined : s.deployImages,
  });
}
