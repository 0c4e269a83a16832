/**
 * The provider's `bcm` block (NVIDIA Base Command Manager head node: cmdaemon's JSON-RPC) with environment
 * fallbacks, resolved to the settings the BCM adapter is built from. Kept apart from config.ts (as the scheduler
 * blocks are): config.ts spreads `bcmBlocks` into the provider schema and stores `resolveBcm`'s result.
 */
import { attr, block, type Diagnostics, type ModelOf, path, stringLength, validator } from "../../framework/index.js";
import { readCaBundle } from "./ca-bundle.js";
import { blockOf, known } from "./config-values.js";
import { serviceUrl } from "./service-url.js";

/** The bcm block, resolved. */
export interface BcmSettings {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** PEM of the head node's CA (ca_file); undefined = the core's trust store. */
  readonly caPem?: string;
  readonly insecure: boolean;
  /** Category new devices join. @default "default" */
  readonly category?: string;
}

const notWithCa = validator("not true together with ca_file", (req, resp) => {
  if (req.value === true && typeof req.parent.ca_file === "string") {
    resp.diagnostics.error(
      "insecure conflicts with ca_file",
      "insecure = true turns off the TLS verification that ca_file configures. Remove one of them.",
      req.path,
    );
  }
});

/** The provider block's `bcm` block. */
export const bcmBlocks = {
  bcm: block.single(
    {
      attributes: {
        url: attr.string({
          optional: true,
          description:
            'Head node base URL of cmdaemon, e.g. "https://bcm-head:8081" (rackform posts to <url>/json). Falls back to RACKFORM_BCM_URL.',
          validators: [stringLength({ min: 1 }), serviceUrl('"https://bcm-head:8081"')],
        }),
        username: attr.string({
          optional: true,
          description: "BCM user (cmsh/Base View login). Falls back to RACKFORM_BCM_USERNAME.",
          validators: [stringLength({ min: 1 })],
        }),
        password: attr.string({
          optional: true,
          sensitive: true,
          description: "BCM password. Falls back to RACKFORM_BCM_PASSWORD. Never logged.",
        }),
        ca_file: attr.string({
          optional: true,
          description:
            "PEM file of the CA that signed cmdaemon's certificate. Falls back to RACKFORM_BCM_CA_FILE. @default the system store",
        }),
        insecure: attr.bool({
          optional: true,
          description: "Skip TLS verification of the head node. Only for a lab you trust. @default false",
          validators: [notWithCa],
        }),
        category: attr.string({
          optional: true,
          description: 'Category new devices join. Falls back to RACKFORM_BCM_CATEGORY. @default "default"',
          validators: [stringLength({ min: 1 })],
        }),
      },
    },
    { description: 'The BCM head node that rackform_machine resources with backend = "bcm" enroll into.' },
  ),
} as const;

/** The bcm block as configured: any attribute may be unknown at plan. */
export type BcmConfig = ModelOf<typeof bcmBlocks.bcm.block, "config">;

const envOr = (v: string | null | undefined, env: string) => v ?? (process.env[env] || undefined);

/** The bcm block with its environment fallbacks; undefined when not configured, null after a diagnostic. */
export function resolveBcm(block: BcmConfig | null, diags: Diagnostics): BcmSettings | undefined | null {
  const o = blockOf(block);
  const url = envOr(known(o?.url ?? null), "RACKFORM_BCM_URL");
  const username = envOr(known(o?.username ?? null), "RACKFORM_BCM_USERNAME");
  const password = envOr(known(o?.password ?? null), "RACKFORM_BCM_PASSWORD");
  if (!url) return undefined;
  if (!username || !password) {
    diags.error(
      "BCM needs a user name and a password",
      "Set username and password in the provider's bcm block (or RACKFORM_BCM_USERNAME / RACKFORM_BCM_PASSWORD).",
      path("bcm", username ? "password" : "username"),
    );
    return null;
  }
  const caPem = readCaBundle(
    envOr(known(o?.ca_file ?? null), "RACKFORM_BCM_CA_FILE"),
    "BCM",
    "the CA that signed cmdaemon's certificate",
    path("bcm", "ca_file"),
    diags,
  );
  if (caPem === null) return null;
  const insecure = known(o?.insecure ?? null) ?? false;
  const category = envOr(known(o?.category ?? null), "RACKFORM_BCM_CATEGORY");
  return { url, username, password, caPem, insecure, category };
}
