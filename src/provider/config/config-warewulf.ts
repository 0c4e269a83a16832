/**
 * The provider's `warewulf` block (with environment fallbacks): the warewulfd REST API that rackform_machine resources
 * with backend = "warewulf" are defined in. Kept apart from config.ts, which spreads the block into the provider
 * schema and adds the resolved settings to BackendSettings.
 */
import { attr, block, type ModelOf, stringLength } from "../../framework/index.js";
import { blockOf, envOr, known } from "./config-values.js";
import { serviceUrl } from "./service-url.js";

/** warewulfd's endpoint and API user, resolved. */
export interface WarewulfSettings {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** Skip TLS verification of warewulfd (TLS from Warewulf 4.7, `api: tls: true`). */
  readonly insecure: boolean;
  /** Profile every enrolled node gets. */
  readonly profile: string;
}

/** The provider block's `warewulf` block. */
export const warewulfBlock = block.single(
  {
    attributes: {
      url: attr.string({
        optional: true,
        description:
          'warewulfd API URL, e.g. "http://ww-head:9873" (api.enabled in warewulf.conf, this host in its allowed ' +
          "subnets). Falls back to RACKFORM_WAREWULF_URL.",
        validators: [stringLength({ min: 1 }), serviceUrl('"http://ww-head:9873"')],
      }),
      username: attr.string({
        optional: true,
        description: "An API user of warewulfd's auth.conf. Falls back to RACKFORM_WAREWULF_USERNAME.",
        validators: [stringLength({ min: 1 })],
      }),
      password: attr.string({
        optional: true,
        sensitive: true,
        description:
          "That user's password (auth.conf holds its bcrypt hash). Falls back to RACKFORM_WAREWULF_PASSWORD. Never logged.",
      }),
      insecure: attr.bool({
        optional: true,
        description: "Skip TLS verification of an https:// warewulfd. @default false",
      }),
      profile: attr.string({
        optional: true,
        description: 'The Warewulf profile every node rackform defines gets. @default "default"',
        validators: [stringLength({ min: 1 })],
      }),
    },
  },
  { description: 'The warewulfd that rackform_machine resources with backend = "warewulf" are defined in.' },
);

/** The warewulf block as configured: any attribute may be unknown at plan. */
export type WarewulfConfig = ModelOf<typeof warewulfBlock.block, "config">;

/** The resolved `warewulf` block; undefined unless url, username and password are all set. */
export function resolveWarewulf(block: WarewulfConfig | null): WarewulfSettings | undefined {
  const o = blockOf(block);
  const url = envOr(known(o?.url ?? null), "RACKFORM_WAREWULF_URL");
  const username = envOr(known(o?.username ?? null), "RACKFORM_WAREWULF_USERNAME");
  const password = envOr(known(o?.password ?? null), "RACKFORM_WAREWULF_PASSWORD");
  if (!url || !username || !password) return undefined;
  const insecure = known(o?.insecure ?? null) ?? false;
  const profile = known(o?.profile ?? null) ?? "default";
  return { url, username, password, insecure, profile };
}
