/**
 * rackform_machine: a node enrolled in the chosen backend and commissioned there. Schema in machine-schema.ts,
 * handlers in machine-create.ts and machine-ops.ts, their deps in machine-deps.ts.
 */
import { defineResource, type Resource } from "../../framework/index.js";
import { createMachine } from "./machine-create.js";
import { type MachineDeps, machineDeps } from "./machine-deps.js";
import {
  deleteMachine,
  importMachine,
  planMachine,
  readMachine,
  updateMachine,
  validateMachine,
} from "./machine-ops.js";
import { machineSchema } from "./machine-schema.js";

/** The rackform_machine resource; `deps` replaces the configured provider's (tests hand fakes). */
export function machineResource(deps: (providerData: unknown) => MachineDeps = machineDeps): Resource {
  return defineResource({
    typeName: "rackform_machine",
    schema: machineSchema,
    deps,
    create: createMachine,
    read: readMachine,
    update: updateMachine,
    delete: deleteMachine,
    modifyPlan: planMachine,
    validateConfig: validateMachine,
    importState: importMachine,
  });
}
