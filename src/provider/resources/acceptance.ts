/**
 * rackform_acceptance: the acceptance gate of a deployed machine, run through its backend. Schema in
 * acceptance-schema.ts, plan rules in acceptance-plan.ts (policy edits: acceptance-policy.ts), apply and read handlers
 * and what they use in acceptance-ops.ts.
 */
import { defineResource, type Resource } from "../../framework/index.js";
import {
  type AcceptanceDeps,
  acceptanceDeps,
  createAcceptance,
  deleteAcceptance,
  importAcceptance,
  readAcceptance,
  updateAcceptance,
} from "./acceptance-ops.js";
import { planAcceptance } from "./acceptance-plan.js";
import { acceptanceSchema } from "./acceptance-schema.js";

/** The rackform_acceptance resource; `deps` replaces the configured provider's (tests hand fakes). */
export function acceptanceResource(deps: (providerData: unknown) => AcceptanceDeps = acceptanceDeps): Resource {
  return defineResource({
    typeName: "rackform_acceptance",
    schema: acceptanceSchema,
    deps,
    modifyPlan: planAcceptance,
    create: createAcceptance,
    read: readAcceptance,
    update: updateAcceptance,
    delete: deleteAcceptance,
    importState: importAcceptance,
  });
}
