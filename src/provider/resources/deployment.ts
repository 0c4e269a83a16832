/**
 * rackform_deployment: the golden image deployed on a commissioned machine through its backend. Schema in
 * deployment-schema.ts, plan rules in deployment-plan.ts, apply and read handlers in deployment-ops.ts, what they use
 * in deployment-deps.ts.
 */
import { defineResource, type Resource } from "../../framework/index.js";
import { type DeploymentDeps, deploymentDeps } from "./deployment-deps.js";
import {
  createDeployment,
  deleteDeployment,
  importDeployment,
  readDeployment,
  updateDeployment,
} from "./deployment-ops.js";
import { planDeployment, validateDeployment } from "./deployment-plan.js";
import { deploymentSchema } from "./deployment-schema.js";

/** The rackform_deployment resource; `deps` replaces the configured provider's (tests hand fakes). */
export function deploymentResource(deps: (providerData: unknown) => DeploymentDeps = deploymentDeps): Resource {
  return defineResource({
    typeName: "rackform_deployment",
    schema: deploymentSchema,
    deps,
    validateConfig: validateDeployment,
    modifyPlan: planDeployment,
    create: createDeployment,
    read: readDeployment,
    update: updateDeployment,
    delete: deleteDeployment,
    importState: importDeployment,
  });
}
