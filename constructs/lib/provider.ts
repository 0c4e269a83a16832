/**
 * The rackform provider of a stack, built from Redfish, backend and cluster settings. One per stack: every Rack of the
 * stack must use the same settings, so a stack's racks share one provider process, its connection pools and its
 * power-on spacing.
 */
import { TerraformStack } from "cdktf";
import type { IConstruct } from "constructs";
import { RackformProvider } from "../gen/providers/rackform/provider/index.js";
import type { IBackend } from "./backend.js";
import type { ICluster } from "./cluster.js";
import { type DurationLike, durationText } from "./duration.js";
import type { ValidationProblem } from "./errors.js";
import { throwInvalid } from "./private/invalid.js";
import { check, type PropsSchema, schemaProblems } from "./private/validate.js";
import { literalSecretProblem, secretValue } from "./secrets.js";

/** How rackform reaches the BMCs and PDUs over Redfish. */
export interface RedfishSettings {
  /** The Redfish account every BMC and PDU accepts. */
  readonly username: string;
  /** Its password as a token; never a literal. @default the stack's sensitive variable redfish_password (TF_VAR_redfish_password) */
  readonly password?: string;
  /** CA bundle (PEM file) the BMCs' certificates are checked against. @default the system's */
  readonly caFile?: string;
  /** Skip TLS verification (lab benches only). @default false */
  readonly insecure?: boolean;
  /** Spacing between power-ons on one rack PDU (per circuit), limiting inrush current: `Duration.millis(250)` or "250ms". @default "250ms" */
  readonly powerOnInterval?: DurationLike;
  /** Concurrent requests per BMC. @default the provider's */
  readonly maxConcurrentPerBmc?: number;
  /**
   * Accept plain http:// BMC and PDU URLs (the provider then warns on every plan). Unsafe: the Redfish password
   * travels unencrypted; only for devices that cannot serve HTTPS. @default false: an http:// URL fails synth
   */
  readonly allowHttp?: boolean;
}

/** Everything the provider block is built from. */
export interface RackformProviderSettings {
  /** How rackform reaches the BMCs and PDUs. */
  readonly redfish: RedfishSettings;
  /** Where machines are enrolled. */
  readonly backend: IBackend;
  /** Which scheduler nodes join. */
  readonly cluster: ICluster;
}

const REDFISH_SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["username"],
  properties: {
    username: { type: "string", minLength: 1, expect: "a user name", fix: 'give the Redfish account, e.g. "admin"' },
    password: { type: "string", secret: true },
    caFile: { type: "string", minLength: 1, expect: "a file path", fix: "give the CA bundle's path" },
    insecure: { type: "boolean" },
    allowHttp: { type: "boolean" },
    powerOnInterval: {
      type: "string",
      format: "interval",
      expect: "a duration",
      fix: 'write a duration such as "250ms" or "1s"',
    },
    maxConcurrentPerBmc: {
      type: "integer",
      minimum: 1,
      maximum: 64,
      expect: "a whole number in 1..64",
      fix: "give how many requests one BMC may serve at once, e.g. 2",
    },
  },
};

const providers = new WeakMap<TerraformStack, { provider: RackformProvider; settings: RackformProviderSettings }>();

/** The settings as the provider block gets them (a Duration as its text), for checks and comparison. */
const textOf = (r: RedfishSettings) => ({ ...r, powerOnInterval: durationText(r.powerOnInterval) });

const sameSettings = (a: RackformProviderSettings, b: RackformProviderSettings) =>
  a.backend === b.backend &&
  a.cluster === b.cluster &&
  JSON.stringify(textOf(a.redfish)) === JSON.stringify(textOf(b.redfish));

const SETTINGS_SCHEMA: PropsSchema = { type: "object", properties: { redfish: REDFISH_SCHEMA } };

/** Problems with Redfish settings given to `scope`, at `<scope path>/redfish.<field>`. */
export function redfishProblems(scope: IConstruct, redfish: RedfishSettings): ValidationProblem[] {
  const base = scope.node.path;
  const problems = schemaProblems(base, SETTINGS_SCHEMA, { redfish: textOf(redfish) });
  if (problems.length > 0) return problems;
  if (redfish.insecure === true && redfish.caFile !== undefined) {
    problems.push({
      path: `${base}/redfish.insecure`,
      problem: "is true while caFile is set: the provider accepts one of them",
      fix: "keep caFile to verify the BMCs' certificates (insecure skips verification)",
    });
  }
  return [...problems, ...literalSecretProblem(`${base}/redfish.password`, redfish.password, "redfish_password")];
}

/** The stack's rackform provider (logical id "rackform"), added on first use; later calls must pass the same settings. */
export function addRackformProvider(scope: IConstruct, settings: RackformProviderSettings): RackformProvider {
  check(scope, redfishProblems(scope, settings.redfish));
  const stack = TerraformStack.of(scope);
  const existing = providers.get(stack);
  if (existing) {
    if (sameSettings(existing.settings, settings)) return existing.provider;
    throwInvalid(scope.node.path, [
      {
        path: scope.node.path,
        problem: `uses other backend, cluster or Redfish settings than the rackform provider stack ${stack.node.id} already has`,
        fix: "give every rack of a stack the same settings, or put this rack in its own RackformStack (a Fleet does)",
      },
    ]);
  }
  const r = settings.redfish;
  const provider = new RackformProvider(stack, "rackform", {
    redfish: {
      username: r.username,
      password: secretValue(stack, r.password, "redfish_password"),
      powerOnInterval: durationText(r.powerOnInterval) ?? "250ms",
      ...(r.caFile !== undefined ? { caFile: r.caFile } : {}),
      ...(r.insecure !== undefined ? { insecure: r.insecure } : {}),
      ...(r.allowHttp !== undefined ? { allowHttp: r.allowHttp } : {}),
      ...(r.maxConcurrentPerBmc !== undefined ? { maxConcurrentPerBmc: r.maxConcurrentPerBmc } : {}),
    },
    ...settings.backend.providerSettings(stack),
    ...settings.cluster.providerSettings(stack),
  });
  provider.overrideLogicalId("rackform");
  providers.set(stack, { provider, settings });
  return provider;
}
