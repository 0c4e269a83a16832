/**
 * The watch's few live reads: one machine list per backend per refresh (MAAS `GET machines/`, Ironic's field-selected
 * `GET /v1/nodes`) and one node list per scheduler (slurmrestd `GET nodes`, Kubernetes `GET /api/v1/nodes`), through
 * the same clients and with the same settings as the provider (its `maas`, `ironic`, `slurm` and `kubernetes` blocks
 * in the stack's cdk.tf.json, `${var.x}` from TF_VAR_x, else RACKFORM_MAAS_URL, RACKFORM_MAAS_API_KEY,
 * RACKFORM_IRONIC_URL, RACKFORM_SLURM_URL, …). Only GETs: the clients' write methods are never called here. A service
 * that does not answer costs that refresh its live view, nothing else.
 */
import { readFileSync } from "node:fs";
import { type IronicAuth, IronicClient } from "../../clients/ironic/index.js";
import { KubernetesClient } from "../../clients/kubernetes/index.js";
import { MaasClient } from "../../clients/maas/index.js";
import { SlurmClient } from "../../clients/slurm/index.js";
import type { BackendReading, SchedulerReading } from "../stages-live.js";

/** Where the backends and schedulers are and how to authenticate; the secrets are never shown. */
export interface BackendSettings {
  readonly maas?: { readonly url: string; readonly apiKey: string };
  readonly ironic?: { readonly url: string; readonly auth: IronicAuth };
  readonly slurm?: { readonly url: string; readonly user: string; readonly token: string };
  readonly kubernetes?: { readonly url: string; readonly token: string; readonly caFile?: string };
}

type Env = Readonly<Record<string, string | undefined>>;

/** A provider block's value: a literal, or `${var.name}` read from TF_VAR_name as the engine would. */
function resolveValue(v: unknown, env: Env): string | undefined {
  if (typeof v !== "string" || v === "") return undefined;
  const m = /^\$\{var\.([A-Za-z0-9_-]+)\}$/.exec(v);
  if (m) return env[`TF_VAR_${m[1]}`] || undefined;
  return v.includes("${") ? undefined : v;
}

/** The backend settings of the provider block of a cdk.tf.json (first rackform provider), with env fallbacks. */
export function backendSettings(config: Record<string, unknown> | undefined, env: Env): BackendSettings {
  const providers = (config?.provider as Record<string, unknown> | undefined)?.rackform;
  const p = (Array.isArray(providers) ? providers[0] : providers) as Record<string, unknown> | undefined;
  const block = (name: string) => {
    const b = p?.[name];
    return (Array.isArray(b) ? b[0] : b) as Record<string, unknown> | undefined;
  };
  const get = (b: string, attr: string, fallback: string) => resolveValue(block(b)?.[attr], env) ?? env[fallback];
  const maasUrl = get("maas", "url", "RACKFORM_MAAS_URL");
  const apiKey = get("maas", "api_key", "RACKFORM_MAAS_API_KEY");
  const ironicUrl = get("ironic", "url", "RACKFORM_IRONIC_URL");
  const user = get("ironic", "username", "RACKFORM_IRONIC_USERNAME");
  const pass = get("ironic", "password", "RACKFORM_IRONIC_PASSWORD");
  const token = get("ironic", "token", "RACKFORM_IRONIC_TOKEN");
  const auth: IronicAuth = token
    ? { type: "token", token }
    : user && pass
      ? { type: "basic", username: user, password: pass }
      : { type: "noauth" };
  const slurmUrl = get("slurm", "url", "RACKFORM_SLURM_URL");
  const slurmUser = get("slurm", "user", "RACKFORM_SLURM_USER");
  const slurmToken = get("slurm", "token", "RACKFORM_SLURM_TOKEN");
  const kubeUrl = get("kubernetes", "url", "RACKFORM_KUBERNETES_URL");
  const kubeToken = get("kubernetes", "token", "RACKFORM_KUBERNETES_TOKEN");
  const caFile = get("kubernetes", "ca_file", "RACKFORM_KUBERNETES_CA_FILE");
  return {
    ...(maasUrl && apiKey ? { maas: { url: maasUrl, apiKey } } : {}),
    ...(ironicUrl ? { ironic: { url: ironicUrl, auth } } : {}),
    ...(slurmUrl && slurmUser && slurmToken ? { slurm: { url: slurmUrl, user: slurmUser, token: slurmToken } } : {}),
    ...(kubeUrl && kubeToken ? { kubernetes: { url: kubeUrl, token: kubeToken, ...(caFile ? { caFile } : {}) } } : {}),
  };
}

/** What the backends report now, by machine name; `errors` says which backend did not answer (no secret in it). */
export interface LiveView {
  readonly byName: ReadonlyMap<string, BackendReading>;
  /** What the schedulers report, by scheduler node name. */
  readonly scheduler?: ReadonlyMap<string, SchedulerReading>;
  readonly errors: readonly string[];
}

/** Reads every configured backend and scheduler once per call; close() ends its connections. */
export class LiveReader {
  private maas?: MaasClient;
  private ironic?: IronicClient;
  private slurm?: SlurmClient;
  private kubernetes?: KubernetesClient;
  private readonly setupErrors: string[] = [];

  constructor(settings: BackendSettings) {
    const http = { totalTimeoutMs: 10_000 };
    if (settings.maas) this.maas = new MaasClient({ url: settings.maas.url, apiKey: settings.maas.apiKey, http });
    if (settings.ironic) this.ironic = new IronicClient({ url: settings.ironic.url, auth: settings.ironic.auth, http });
    try {
      if (settings.slurm) this.slurm = new SlurmClient({ ...settings.slurm, http });
      const k = settings.kubernetes;
      if (k) {
        const ca = k.caFile ? readFileSync(k.caFile, "utf8") : undefined;
        this.kubernetes = new KubernetesClient({ url: k.url, token: k.token, ...(ca ? { ca } : {}), http });
      }
    } catch (e) {
      this.setupErrors.push(`scheduler: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Whether any backend or scheduler is configured. */
  get enabled(): boolean {
    return [this.maas, this.ironic, this.slurm, this.kubernetes].some((c) => c !== undefined);
  }

  /** One list per backend and scheduler. */
  async read(): Promise<LiveView> {
    const byName = new Map<string, BackendReading>();
    const scheduler = new Map<string, SchedulerReading>();
    const errors: string[] = [...this.setupErrors];
    const failed = (what: string) => (e: unknown) => {
      errors.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    };
    await Promise.all([
      this.maas
        ?.listMachines()
        .then((ms) => {
          for (const m of ms) {
            const owned = m.owner !== null;
            byName.set(m.hostname, { backend: "maas", status: m.statusName, owned, message: m.statusMessage });
          }
        })
        .catch(failed("MAAS")),
      this.ironic
        ?.listNodes({ fields: ["name", "provision_state", "maintenance", "maintenance_reason", "last_error"] })
        .then((ns) => {
          for (const n of ns) {
            if (!n.name) continue;
            const message = (n.maintenance ? n.maintenanceReason : n.lastError) ?? n.lastError ?? undefined;
            byName.set(n.name, {
              backend: "ironic",
              status: n.provisionState ?? "",
              maintenance: n.maintenance === true,
              message: message ?? undefined,
            });
          }
        })
        .catch(failed("Ironic")),
      this.slurm
        ?.listNodes()
        .then((ns) => {
          for (const n of ns) {
            const state = n.state.join("+");
            scheduler.set(n.name, { scheduler: "slurm", state, drain: n.drain, down: n.down });
          }
        })
        .catch(failed("Slurm")),
      this.kubernetes
        ?.listNodes()
        .then((ns) => {
          for (const n of ns) {
            const state = [n.ready ? "Ready" : "NotReady", ...(n.unschedulable ? ["cordoned"] : [])].join(",");
            scheduler.set(n.name, { scheduler: "kubernetes", state, drain: n.unschedulable, down: !n.ready });
          }
        })
        .catch(failed("Kubernetes")),
    ]);
    return { byName, scheduler, errors };
  }

  async close(): Promise<void> {
    await Promise.all([this.maas?.close(), this.ironic?.close(), this.slurm?.close(), this.kubernetes?.close()]);
  }
}
