/**
 * The provider's `slurm` and `kubernetes` blocks (with environment fallbacks) and the scheduler clients they make.
 * Kept apart from config.ts so the Redfish and backend settings there stay short; config.ts spreads `schedulerBlocks`
 * into the provider schema and hands `SchedulerClients` to every resource through ProviderData.
 */
import { KubernetesClient } from "../../clients/kubernetes/index.js";
import { SlurmClient } from "../../clients/slurm/index.js";
import { attr, block, type Diagnostics, type ModelOf, path, stringLength } from "../../framework/index.js";
import { readCaBundle } from "./ca-bundle.js";
import { blockOf, envOr, known } from "./config-values.js";
import { serviceUrl } from "./service-url.js";

/** slurmrestd endpoint and JWT, resolved. */
export interface SlurmSettings {
  readonly url: string;
  readonly user: string;
  readonly token: string;
}

/** Kubernetes API server endpoint, bearer token and CA bundle (PEM text), resolved. */
export interface KubernetesSettings {
  readonly url: string;
  readonly token: string;
  readonly caPem?: string;
}

/** The provider block's `slurm` and `kubernetes` blocks. */
export const schedulerBlocks = {
  slurm: block.single(
    {
      attributes: {
        url: attr.string({
          optional: true,
          description: 'slurmrestd base URL, e.g. "http://slurmctl:6820". Falls back to RACKFORM_SLURM_URL.',
          validators: [stringLength({ min: 1 }), serviceUrl('"http://slurmctl:6820"')],
        }),
        user: attr.string({
          optional: true,
          description:
            "Slurm user the JWT was issued to (a Slurm operator or admin). Falls back to RACKFORM_SLURM_USER.",
          validators: [stringLength({ min: 1 })],
        }),
        token: attr.string({
          optional: true,
          sensitive: true,
          description: "Slurm JWT (`scontrol token`). Falls back to RACKFORM_SLURM_TOKEN. Never logged.",
        }),
      },
    },
    { description: 'The slurmrestd that rackform_cluster_member resources with scheduler = "slurm" join.' },
  ),
  kubernetes: block.single(
    {
      attributes: {
        url: attr.string({
          optional: true,
          description:
            'Kubernetes API server URL, e.g. "https://10.0.0.1:6443". Falls back to RACKFORM_KUBERNETES_URL.',
          validators: [stringLength({ min: 1 }), serviceUrl('"https://10.0.0.1:6443"')],
        }),
        token: attr.string({
          optional: true,
          sensitive: true,
          description:
            "Bearer token allowed to patch nodes, list pods and create pods/eviction. Falls back to RACKFORM_KUBERNETES_TOKEN. Never logged.",
        }),
        ca_file: attr.string({
          optional: true,
          description:
            "PEM file of the API server's CA. Falls back to RACKFORM_KUBERNETES_CA_FILE. @default the system store",
        }),
      },
    },
    { description: 'The Kubernetes API that rackform_cluster_member resources with scheduler = "kubernetes" join.' },
  ),
} as const;

/** The slurm and kubernetes blocks as configured: any attribute may be unknown at plan. */
export interface SchedulerConfig {
  readonly slurm: ModelOf<typeof schedulerBlocks.slurm.block, "config"> | null;
  readonly kubernetes: ModelOf<typeof schedulerBlocks.kubernetes.block, "config"> | null;
}

/** A scheduler used without its provider block (or environment variables); the message says what to set. */
export class SchedulerNotConfiguredError extends Error {
  override readonly name = "SchedulerNotConfiguredError";
  constructor(readonly scheduler: "slurm" | "kubernetes") {
    super(
      scheduler === "slurm"
        ? "the provider has no Slurm endpoint: set url, user and token in its slurm block (or RACKFORM_SLURM_URL, RACKFORM_SLURM_USER, RACKFORM_SLURM_TOKEN)"
        : "the provider has no Kubernetes endpoint: set url and token in its kubernetes block (or RACKFORM_KUBERNETES_URL, RACKFORM_KUBERNETES_TOKEN)",
    );
  }
}

/** Options of SchedulerClients. */
export interface SchedulerClientOptions {
  /**
   * Reads of nodes within this window share one node list, so that a refresh of a whole rack (the engine reads in
   * waves of -parallelism) costs a handful of list requests; writes through the clients always start a fresh one.
   * @default 2_000
   */
  readonly nodeCacheMaxAgeMs?: number;
}

/** Scheduler clients shared by every resource of one provider process, created on first use. */
export class SchedulerClients {
  private slurmC?: SlurmClient;
  private kubeC?: KubernetesClient;

  constructor(
    readonly slurmSettings?: SlurmSettings,
    readonly kubernetesSettings?: KubernetesSettings,
    private readonly opts: SchedulerClientOptions = {},
  ) {}

  private get maxAgeMs(): number {
    return this.opts.nodeCacheMaxAgeMs ?? 2_000;
  }

  /** The slurmrestd client; throws SchedulerNotConfiguredError or the client's ClientConfigError (bad URL). */
  slurm(): SlurmClient {
    const s = this.slurmSettings;
    if (!s) throw new SchedulerNotConfiguredError("slurm");
    this.slurmC ??= new SlurmClient({ url: s.url, user: s.user, token: s.token, nodeCacheMaxAgeMs: this.maxAgeMs });
    return this.slurmC;
  }

  /** The Kubernetes API client; throws SchedulerNotConfiguredError or the client's ClientConfigError (bad URL). */
  kubernetes(): KubernetesClient {
    const k = this.kubernetesSettings;
    if (!k) throw new SchedulerNotConfiguredError("kubernetes");
    this.kubeC ??= new KubernetesClient({
      url: k.url,
      token: k.token,
      ca: k.caPem,
      nodeCacheMaxAgeMs: this.maxAgeMs,
    });
    return this.kubeC;
  }

  /** Closes the clients made so far (their connection pools). */
  async close(): Promise<void> {
    await Promise.all([this.slurmC?.close(), this.kubeC?.close()]);
  }
}

/** Reads the two blocks with their environment fallbacks; undefined after an error diagnostic. */
export function resolveSchedulers(config: SchedulerConfig, diags: Diagnostics): SchedulerClients | undefined {
  const [slurm, kube] = [blockOf(config.slurm), blockOf(config.kubernetes)];
  const sUrl = envOr(known(slurm?.url ?? null), "RACKFORM_SLURM_URL");
  const sUser = envOr(known(slurm?.user ?? null), "RACKFORM_SLURM_USER");
  const sToken = envOr(known(slurm?.token ?? null), "RACKFORM_SLURM_TOKEN");
  if (sUrl && (!sUser || !sToken)) {
    diags.error(
      "Incomplete Slurm settings",
      `slurm.url is set but ${!sUser ? "user" : "token"} is missing: slurmrestd's rest_auth/jwt needs the user name and its JWT (scontrol token). Set them in the slurm block or RACKFORM_SLURM_USER / RACKFORM_SLURM_TOKEN.`,
      path("slurm", !sUser ? "user" : "token"),
    );
    return undefined;
  }
  const kUrl = envOr(known(kube?.url ?? null), "RACKFORM_KUBERNETES_URL");
  const kToken = envOr(known(kube?.token ?? null), "RACKFORM_KUBERNETES_TOKEN");
  if (kUrl && !kToken) {
    diags.error(
      "Incomplete Kubernetes settings",
      "kubernetes.url is set but token is missing: set a bearer token in the kubernetes block or RACKFORM_KUBERNETES_TOKEN.",
      path("kubernetes", "token"),
    );
    return undefined;
  }
  const caFile = envOr(known(kube?.ca_file ?? null), "RACKFORM_KUBERNETES_CA_FILE");
  const caPem = readCaBundle(caFile, "Kubernetes", "the API server's CA", path("kubernetes", "ca_file"), diags);
  if (caPem === null) return undefined;
  return new SchedulerClients(
    sUrl && sUser && sToken ? { url: sUrl, user: sUser, token: sToken } : undefined,
    kUrl && kToken ? { url: kUrl, token: kToken, caPem } : undefined,
  );
}
