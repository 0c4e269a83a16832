/**
 * A stack for one rack (or one wave): its own state, so a failed or locked rack never blocks another, and a plan
 * stays a rack's size. State is local (one file per stack) or in PostgreSQL (one schema per stack, with locking).
 */
import { LocalBackend, PgBackend, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import type { ValidationProblem } from "./errors.js";
import { withoutTokenStacks } from "./private/token-stacks.js";
import { check } from "./private/validate.js";

/** Local state: one file per stack. */
export interface LocalStateBackend {
  /** Local state. */
  readonly kind: "local";
  /** Directory of the state files (terraform.<stack id>.tfstate). @default the directory cdktf runs in */
  readonly dir?: string;
}

/** PostgreSQL state (Terraform's pg backend): one schema per stack, locked with advisory locks. */
export interface PgStateBackend {
  /** PostgreSQL state. */
  readonly kind: "pg";
  /** Connection string without a password (the engine reads PGPASSWORD). @default $RACKFORM_PG_CONN_STR, else $PG_CONN_STR at synth */
  readonly connStr?: string;
  /** Schema holding this stack's state. @default "rackform_<stack id>" with non-alphanumerics as "_" */
  readonly schemaName?: string;
}

/** Where a stack keeps its state. */
export type StateBackend = LocalStateBackend | PgStateBackend;

/** Properties of a RackformStack. */
export interface RackformStackProps {
  /** Where the stack keeps its state. @default local, terraform.<stack id>.tfstate in the directory cdktf runs in */
  readonly stateBackend?: StateBackend;
}

/** The schema a stack's pg state lives in by default. */
export const pgSchemaName = (stackId: string): string => `rackform_${stackId.replace(/[^A-Za-z0-9]/g, "_")}`;

/** Problems with a state backend, under `path`: unknown kind, no connection string, a password inside it. */
export function stateBackendProblems(path: string, state: StateBackend | undefined): ValidationProblem[] {
  if (state === undefined || state.kind === "local") return [];
  if ((state as { kind: unknown }).kind !== "pg") {
    return [
      {
        path: `${path}.kind`,
        problem: `${JSON.stringify((state as { kind: unknown }).kind)} is not a state backend rackform knows`,
        fix: 'use "local" or "pg"',
      },
    ];
  }
  const conn = state.connStr ?? process.env.RACKFORM_PG_CONN_STR ?? process.env.PG_CONN_STR;
  if (conn === undefined || conn === "") {
    return [
      {
        path: `${path}.connStr`,
        problem: "is missing, and neither RACKFORM_PG_CONN_STR nor PG_CONN_STR is set",
        fix: 'give e.g. "postgres://rackform@db.example/terraform?sslmode=require", or set RACKFORM_PG_CONN_STR',
      },
    ];
  }
  // Backend blocks cannot read variables, so the connection string lands in cdk.tf.json: keep the password out.
  if (/^[a-z]+:\/\/[^/@]*:[^/@]*@/i.test(conn) || /(^|\s|[?&])password=/i.test(conn)) {
    return [
      {
        path: `${path}.connStr`,
        problem: "holds a password (not shown), which would be written to cdk.tf.json in clear text",
        fix: "remove the password from the connection string and set PGPASSWORD for the engine",
      },
    ];
  }
  return [];
}

/** A TerraformStack with its state backend set from props; Racks added to it share one rackform provider. */
export class RackformStack extends TerraformStack {
  /** Where this stack keeps its state. */
  readonly stateBackend: StateBackend;

  /** Validates the state backend and adds it; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: RackformStackProps = {}) {
    super(scope, id);
    check(this, stateBackendProblems(`${this.node.path}/stateBackend`, props.stateBackend));
    const state = props.stateBackend ?? { kind: "local" };
    this.stateBackend = state;
    if (state.kind === "pg") {
      new PgBackend(this, {
        connStr: (state.connStr ?? process.env.RACKFORM_PG_CONN_STR ?? process.env.PG_CONN_STR)!,
        schemaName: state.schemaName ?? pgSchemaName(id),
      });
    } else if (state.dir !== undefined) {
      new LocalBackend(this, { path: `${state.dir.replace(/\/+$/, "")}/terraform.${id}.tfstate` });
    }
  }

  /** The stack as Terraform JSON; resolving a rack's tokens skips their creation traces (see token-stacks.ts). */
  override toTerraform(): ReturnType<TerraformStack["toTerraform"]> {
    return withoutTokenStacks(() => super.toTerraform());
  }

  /** The stack as HCL (CDKTF_HCL_OUTPUT); as toTerraform. */
  override toHclTerraform(): ReturnType<TerraformStack["toHclTerraform"]> {
    return withoutTokenStacks(() => super.toHclTerraform());
  }
}
