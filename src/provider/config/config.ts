/**
 * The provider block: Redfish defaults shared by every BMC and PDU, and process-wide limits.
 * Configure decodes it once into its model (ProviderConfig) and turns that into `ProviderData` (provider-data.ts),
 * handed to every resource: one HTTP core per process so connections are reused.
 */
import { HttpCore } from "../../clients/http/index.js";
import type { IronicAuth } from "../../clients/ironic/index.js";
import {
  attr,
  block,
  conflictsWith,
  type Diagnostics,
  decode,
  isUnknown,
  isUnknownValue,
  type ModelOf,
  numberBetween,
  parseDuration,
  path,
  type Schema,
  stringLength,
  stringMatches,
  type Value,
  validator,
} from "../../framework/index.js";
import { IMAGE_URL } from "../resources/deployment-schema.js";
import type { StaggerClock } from "../shared/power-on-stagger.js";
import { readCaBundle } from "./ca-bundle.js";
import { type BcmSettings, bcmBlocks, resolveBcm } from "./config-bcm.js";
import { blockOf, completeConfig, envOr, isUnknownBlock, known } from "./config-values.js";
import { resolveWarewulf, type WarewulfSettings, warewulfBlock } from "./config-warewulf.js";
import { ProviderData } from "./provider-data.js";
import { resolveSchedulers, schedulerBlocks } from "./scheduler-config.js";
import { serviceUrl } from "./service-url.js";
import { DEFAULT_TIMINGS, type ProviderTimings } from "./timings.js";

export { ProviderData, type ProviderDataInit } from "./provider-data.js";

/** A MAAS API key as `maas apikey` prints it: consumer_key:token_key:token_secret. */
const MAAS_API_KEY = /^[^:\s]+:[^:\s]+:[^:\s]+$/;
const MAAS_API_KEY_FIX =
  "maas.api_key must have the form consumer_key:token_key:token_secret (three parts separated by colons), as `maas apikey --username=…` prints it.";

// The key itself is never echoed: it is a secret even when malformed.
const maasApiKey = validator("consumer_key:token_key:token_secret", (req, resp) => {
  if (typeof req.value === "string" && !MAAS_API_KEY.test(req.value)) {
    resp.diagnostics.error("Invalid MAAS API key", MAAS_API_KEY_FIX, req.path);
  }
});

const notWithCaFile = validator("not true together with ca_file", (req, resp) => {
  if (req.value === true && typeof req.parent.ca_file === "string") {
    resp.diagnostics.error(
      "insecure conflicts with ca_file",
      "insecure = true turns off the TLS verification that ca_file configures. Remove insecure to verify the BMCs " +
        "against ca_file (recommended), or remove ca_file.",
      req.path,
    );
  }
});

const needsUsername = validator("set together with username", (req, resp) => {
  if (typeof req.value === "string" && (req.parent.username === null || req.parent.username === undefined)) {
    resp.diagnostics.error(
      "Ironic password without username",
      "HTTP basic authentication needs both: set ironic.username too, or use ironic.token for a Keystone token.",
      req.path,
    );
  }
});

/** Ironic takes the conductor's defaults only when driver_info names neither image: one alone is refused. */
function setTogether(other: string) {
  return validator(`set together with ${other}`, (req, resp) => {
    if (typeof req.value !== "string" || isUnknown(req.parent[other] ?? null)) return;
    if (req.parent[other] === null || req.parent[other] === undefined) {
      resp.diagnostics.error(
        "Set deploy_kernel and deploy_ramdisk together",
        `Ironic takes the conductor's [conductor]deploy_kernel/deploy_ramdisk only when the node's driver_info names neither, so with one set cleaning and deploys would fail for want of ironic.${other}. Set ${other} too, or remove both to use the conductor's defaults.`,
        req.path,
      );
    }
  });
}

const duration = validator("a duration such as 500ms or 2s", (req, resp) => {
  if (typeof req.value !== "string") return;
  try {
    parseDuration(req.value);
  } catch (e) {
    resp.diagnostics.error("Invalid duration", (e as Error).message, req.path);
  }
});

/** The provider block's schema with its literal types: its model is ProviderConfig. */
const providerBlockSchema = {
  description:
    "rackform: bare-metal GPU racks as code. Redfish BMCs and rack PDUs, MAAS or Ironic, Slurm or Kubernetes.",
  attributes: {},
  blocks: {
    redfish: block.single(
      {
        description: "Defaults for every Redfish service (server BMCs and rack PDUs).",
        attributes: {
          username: attr.string({
            optional: true,
            description:
              "User name for Redfish sessions (HTTP Basic auth at a BMC whose service root offers no SessionService, " +
              "or that has reached its session limit). Falls back to RACKFORM_REDFISH_USERNAME.",
            validators: [stringLength({ min: 1 })],
          }),
          password: attr.string({
            optional: true,
            sensitive: true,
            description: "Password for Redfish sessions. Falls back to RACKFORM_REDFISH_PASSWORD. Never logged.",
          }),
          ca_file: attr.string({
            optional: true,
            description:
              "PEM file of the CA that signed the BMCs' certificates. Falls back to RACKFORM_REDFISH_CA_FILE; else Node.js's root store with the certificates of NODE_EXTRA_CA_CERTS.",
          }),
          insecure: attr.bool({
            optional: true,
            description: "Skip TLS verification. Only for a lab you trust; not together with ca_file. @default false",
            validators: [notWithCaFile],
          }),
          allow_http: attr.bool({
            optional: true,
            description:
              "Accept plain http:// BMC and PDU endpoints (each plan then warns). Unsafe: the Redfish password and " +
              "every reply travel unencrypted, and a conformant Redfish service serves HTTPS; only for a device that " +
              "cannot. Without it an http:// endpoint is refused at plan. @default false",
          }),
          max_concurrent_per_bmc: attr.number({
            optional: true,
            description: "Requests in flight to one BMC or PDU at a time (BMCs serve few). @default 4",
            validators: [numberBetween(1, 64)],
          }),
          power_on_interval: attr.string({
            optional: true,
            description:
              "Minimum spacing between two outlet power-ons on the same rack PDU (one circuit), to limit inrush current " +
              '(e.g. "500ms"). Power-ons on different PDUs run in parallel. The spacing holds within one provider process ' +
              '(one stack): stacks applied at the same time that share a PDU must split it (see docs/hcl.md). @default "250ms"',
            validators: [duration],
          }),
        },
      },
      { description: "Defaults for every Redfish service (server BMCs and rack PDUs)." },
    ),
    maas: block.single(
      {
        attributes: {
          url: attr.string({
            optional: true,
            description: 'MAAS region URL, e.g. "http://maas:5240/MAAS/". Falls back to RACKFORM_MAAS_URL.',
            validators: [stringLength({ min: 1 }), serviceUrl('"http://maas:5240/MAAS/"')],
          }),
          api_key: attr.string({
            optional: true,
            sensitive: true,
            description:
              "MAAS API key `consumer_key:token_key:token_secret`. Falls back to RACKFORM_MAAS_API_KEY. Never logged.",
            validators: [maasApiKey],
          }),
        },
      },
      { description: 'The MAAS region that rackform_machine resources with backend = "maas" enroll into.' },
    ),
    ironic: block.single(
      {
        attributes: {
          url: attr.string({
            optional: true,
            description: 'Ironic API endpoint, e.g. "http://ironic:6385". Falls back to RACKFORM_IRONIC_URL.',
            validators: [stringLength({ min: 1 }), serviceUrl('"http://ironic:6385"')],
          }),
          username: attr.string({
            optional: true,
            description:
              "HTTP basic user name (with password). Falls back to RACKFORM_IRONIC_USERNAME. @default noauth",
          }),
          password: attr.string({
            optional: true,
            sensitive: true,
            description: "HTTP basic password (with username). Falls back to RACKFORM_IRONIC_PASSWORD. Never logged.",
            validators: [needsUsername],
          }),
          token: attr.string({
            optional: true,
            sensitive: true,
            description: "Keystone token (X-Auth-Token), instead of basic auth. Falls back to RACKFORM_IRONIC_TOKEN.",
            validators: [conflictsWith("username")],
          }),
          deploy_kernel: attr.string({
            optional: true,
            description:
              "URL of the deploy (IPA) kernel, written to each node's driver_info when rackform_machine enrolls it " +
              "(before manage, inspect and provide), so the automated cleaning of provide boots the ramdisk. Needed " +
              "when ironic.conf has no `[conductor]deploy_kernel`: without either, cleaning ends in clean failed + " +
              "maintenance. Set it with deploy_ramdisk. A change is written to existing nodes in place. " +
              "rackform_deployment's deploy_kernel overrides it for one deployment. @default not written (the " +
              "conductor's default applies)",
            validators: [stringMatches(IMAGE_URL, "an http(s):// or file:// URL"), setTogether("deploy_ramdisk")],
          }),
          deploy_ramdisk: attr.string({
            optional: true,
            description:
              "URL of the deploy (IPA) ramdisk, written to each node's driver_info with deploy_kernel (see there). " +
              "@default not written (the conductor's default applies)",
            validators: [stringMatches(IMAGE_URL, "an http(s):// or file:// URL"), setTogether("deploy_kernel")],
          }),
        },
      },
      { description: 'The Ironic API that rackform_machine resources with backend = "ironic" enroll into.' },
    ),
    warewulf: warewulfBlock,
    ...schedulerBlocks,
    ...bcmBlocks,
  },
} as const;

/** The `provider "rackform"` schema. */
export const providerSchema: Schema = providerBlockSchema;

/** The provider block as configured: any attribute, or a whole block, may be unknown at plan. */
export type ProviderConfig = ModelOf<typeof providerBlockSchema, "config">;

/** Decodes the provider block into its model, once, before anything reads it. */
export function decodeProviderConfig(config: Value): ProviderConfig {
  return decode(providerBlockSchema, completeConfig(providerBlockSchema, config), "config");
}

/** Redfish settings resolved from the provider block and the environment. */
export interface RedfishSettings {
  readonly username?: string;
  readonly password?: string;
  readonly caPem?: string;
  readonly insecure: boolean;
  /** redfish.allow_http: plain http:// endpoints are accepted (with a warning) instead of refused. */
  readonly allowHttp: boolean;
  readonly maxConcurrent: number;
  readonly powerOnIntervalMs: number;
  /** The redfish block, its username or its password is not known yet (plan time, from another resource). */
  readonly credentialsUnknown?: boolean;
}

/** Backend endpoints resolved from the `maas` and `ironic` blocks; absent when not configured. */
export interface BackendSettings {
  readonly maas?: { readonly url: string; readonly apiKey: string };
  readonly ironic?: { readonly url: string; readonly auth: IronicAuth; readonly deployImages?: DeployImages };
  readonly warewulf?: WarewulfSettings;
  readonly bcm?: BcmSettings;
}

/** The deploy (IPA) kernel and ramdisk every Ironic node gets at enrollment; "unknown" while the plan cannot tell. */
export type DeployImages = { readonly kernel: string; readonly ramdisk: string } | "unknown";

/** Resolves the provider block; config values may be unknown during plan, in which case defaults stand in. */
export function resolveConfig(
  config: Value,
  diags: Diagnostics,
  timings: ProviderTimings = DEFAULT_TIMINGS,
  powerOnClock?: StaggerClock,
): ProviderData | undefined {
  const c = decodeProviderConfig(config);
  const redfish = resolveRedfish(c, diags);
  if (!redfish) return undefined;
  const backends = resolveBackends(c, diags);
  if (!backends) return undefined;
  const schedulers = resolveSchedulers(c, diags);
  if (!schedulers) return undefined;
  // Only once every block is valid, so a configuration error leaves no connection pool behind.
  const core = new HttpCore({
    tls: { ca: redfish.caPem, insecure: redfish.insecure },
    maxConcurrentPerHost: redfish.maxConcurrent,
  });
  if (redfish.password) core.redactor.add(redfish.password);
  return new ProviderData({ redfish, core, backends, schedulers, timings, powerOnClock });
}

/** The `redfish` block with its environment fallbacks; undefined after a diagnostic (an unreadable CA file). */
function resolveRedfish(c: ProviderConfig, diags: Diagnostics): RedfishSettings | undefined {
  const rf = blockOf(c.redfish);
  const credentialsUnknown =
    isUnknownBlock(c.redfish) || (rf !== null && (isUnknownValue(rf.username) || isUnknownValue(rf.password)));
  const username = envOr(known(rf?.username ?? null), "RACKFORM_REDFISH_USERNAME");
  const password = envOr(known(rf?.password ?? null), "RACKFORM_REDFISH_PASSWORD");
  const caFile = envOr(known(rf?.ca_file ?? null), "RACKFORM_REDFISH_CA_FILE");
  const caPem = readCaBundle(
    caFile,
    "Redfish",
    "the CA that signed the BMCs' certificates",
    path("redfish", "ca_file"),
    diags,
  );
  if (caPem === null) return undefined;
  const interval = known(rf?.power_on_interval ?? null);
  return {
    username,
    password,
    caPem,
    insecure: known(rf?.insecure ?? null) ?? false,
    allowHttp: known(rf?.allow_http ?? null) ?? false,
    maxConcurrent: known(rf?.max_concurrent_per_bmc ?? null) ?? 4,
    powerOnIntervalMs: interval ? parseDuration(interval) : 250,
    credentialsUnknown,
  };
}

/** The `maas` and `ironic` blocks (with environment fallbacks); undefined after a diagnostic. */
function resolveBackends(c: ProviderConfig, diags: Diagnostics): BackendSettings | undefined {
  const bcm = resolveBcm(c.bcm, diags);
  if (bcm === null) return undefined;
  const out: { -readonly [K in keyof BackendSettings]: BackendSettings[K] } = {
    warewulf: resolveWarewulf(c.warewulf),
    bcm,
  };
  const [maas, ironic] = [blockOf(c.maas), blockOf(c.ironic)];
  const maasUrl = envOr(known(maas?.url ?? null), "RACKFORM_MAAS_URL");
  const apiKey = envOr(known(maas?.api_key ?? null), "RACKFORM_MAAS_API_KEY");
  if (apiKey !== undefined && !MAAS_API_KEY.test(apiKey)) {
    // Checked again here for a key from RACKFORM_MAAS_API_KEY, which validation does not see.
    diags.error("Invalid MAAS API key", MAAS_API_KEY_FIX, path("maas", "api_key"));
    return undefined;
  }
  if (maasUrl && apiKey) out.maas = { url: maasUrl, apiKey };
  const ironicUrl = envOr(known(ironic?.url ?? null), "RACKFORM_IRONIC_URL");
  const user = envOr(known(ironic?.username ?? null), "RACKFORM_IRONIC_USERNAME");
  const pass = envOr(known(ironic?.password ?? null), "RACKFORM_IRONIC_PASSWORD");
  const token = envOr(known(ironic?.token ?? null), "RACKFORM_IRONIC_TOKEN");
  const auth: IronicAuth = token
    ? { type: "token", token }
    : user
      ? { type: "basic", username: user, password: pass ?? "" }
      : { type: "noauth" };
  if (ironicUrl) out.ironic = { url: ironicUrl, auth, deployImages: resolveDeployImages(c.ironic) };
  return out;
}

/** The ironic block's deploy_kernel/deploy_ramdisk: both, neither (undefined) or not known yet. */
function resolveDeployImages(ironic: ProviderConfig["ironic"]): DeployImages | undefined {
  if (isUnknownBlock(ironic)) return "unknown";
  if (!ironic) return undefined;
  if (isUnknownValue(ironic.deploy_kernel) || isUnknownValue(ironic.deploy_ramdisk)) return "unknown";
  const [kernel, ramdisk] = [ironic.deploy_kernel, ironic.deploy_ramdisk];
  return typeof kernel === "string" && typeof ramdisk === "string" ? { kernel, ramdisk } : undefined;
}
