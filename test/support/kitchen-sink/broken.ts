/**
 * rfkitchen_broken: breaks the provider contract on purpose, one way per `mode`, so tests prove that the server's
 * "Provider bug in …" diagnostic fires before the engine's own consistency checks.
 */
import { attr, getString, type Resource, type Schema, stringOneOf, UNKNOWN } from "../../../src/framework/index.js";

/** The ways rfkitchen_broken can misbehave. */
export const BROKEN_MODES = [
  "apply_changes_config",
  "plan_changes_config",
  "unknown_after_apply",
  "throw_on_create",
  "wrong_shape",
] as const;

/** Schema of rfkitchen_broken. */
export const brokenSchema: Schema = {
  attributes: {
    id: attr.string({ computed: true }),
    name: attr.string({ required: true }),
    mode: attr.string({
      optional: true,
      description: 'How to misbehave; default "apply_changes_config".',
      validators: [stringOneOf(...BROKEN_MODES)],
    }),
    secret: attr.string({
      optional: true,
      sensitive: true,
      description: "Echoed into exception messages to test redaction.",
    }),
  },
};

/** A fresh rfkitchen_broken resource. */
export function brokenResource(): Resource {
  return {
    typeName: "rfkitchen_broken",
    schema: brokenSchema,
    modifyPlan(req, resp) {
      if (!req.plan || typeof req.plan !== "object" || getString(req.plan, "mode") !== "plan_changes_config") return;
      resp.plan = { ...req.plan, name: `${getString(req.plan, "name")}-planned` };
    },
    create(req, resp) {
      const mode = getString(req.plan, "mode") ?? "apply_changes_config";
      const base = { ...req.plan, id: "broken-1" };
      switch (mode) {
        case "throw_on_create":
          throw new Error(`backend rejected credentials ${getString(req.plan, "secret")}`);
        case "unknown_after_apply":
          resp.state = { ...base, id: UNKNOWN };
          return;
        case "wrong_shape":
          resp.state = { ...base, surprise: "extra" };
          return;
        default:
          resp.state = { ...base, name: `${getString(req.plan, "name")}-mangled` };
      }
    },
    read(_req, _resp) {},
    update(req, resp) {
      resp.state = { ...req.plan, name: `${getString(req.plan, "name")}-mangled` };
    },
    delete() {},
  };
}
