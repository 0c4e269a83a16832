/**
 * Credentials reach the engine as sensitive, ephemeral Terraform variables (TF_VAR_<name>), never as literals in
 * cdk.tf.json nor in a saved plan:
 * each stack that needs one declares it once under a fixed name, so pipelines set the same TF_VAR_* for every stack.
 */
import { TerraformStack, TerraformVariable } from "cdktf";
import type { IConstruct } from "constructs";
import type { ValidationProblem } from "./errors.js";
import { isToken } from "./private/formats.js";

/** The variable names rackform's constructs declare, one per credential. */
export type SecretName =
  | "redfish_password"
  | "maas_api_key"
  | "ironic_password"
  | "ironic_token"
  | "warewulf_password"
  | "bcm_password"
  | "slurm_token"
  | "kubernetes_token";

const DESCRIPTIONS: Record<SecretName, string> = {
  redfish_password: "Password of the BMCs' and PDUs' Redfish account",
  maas_api_key: "MAAS API key (consumer:token:secret)",
  ironic_password: "Ironic HTTP basic password",
  ironic_token: "Ironic (Keystone) token",
  warewulf_password: "Password of the warewulfd API user (auth.conf)",
  bcm_password: "BCM (cmdaemon) password",
  slurm_token: "slurmrestd JWT",
  kubernetes_token: "Kubernetes bearer token",
};

/** The stack's sensitive string variable `name` (TF_VAR_<name>), declared on first use. */
export function secretVariable(scope: IConstruct, name: SecretName): TerraformVariable {
  const stack = TerraformStack.of(scope);
  const existing = stack.node.tryFindChild(name);
  if (existing instanceof TerraformVariable) return existing;
  const v = new TerraformVariable(stack, name, { type: "string", sensitive: true, description: DESCRIPTIONS[name] });
  // Ephemeral (Terraform ≥ 1.10, OpenTofu ≥ 1.11): kept out of saved plans, whose JSON holds every other variable's
  // value in clear, sensitive or not. Every use is a provider setting, where an ephemeral value may go.
  v.addOverride("ephemeral", true);
  v.overrideLogicalId(name);
  return v;
}

/** The credential to write: the given token, else the stack's variable `name`. */
export function secretValue(scope: IConstruct, given: string | undefined, name: SecretName): string {
  return given ?? secretVariable(scope, name).stringValue;
}

/** A problem when `value` is a literal secret (it would be written to cdk.tf.json in clear text). */
export function literalSecretProblem(path: string, value: unknown, name: SecretName): ValidationProblem[] {
  if (value === undefined || isToken(value)) return [];
  return [
    {
      path,
      problem: "is a literal secret (not shown), which cdktf would write to cdk.tf.json in clear text",
      fix: `leave it out to use the sensitive variable ${name} (set TF_VAR_${name}), or pass a TerraformVariable's value`,
    },
  ];
}
