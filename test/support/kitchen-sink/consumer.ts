/** rfkitchen_consumer: takes another resource's computed value as input, so unknowns flow through plans. */
import { randomUUID } from "node:crypto";
import {
  attr,
  getString,
  importStatePassthroughId,
  isObjectValue,
  type JsonObject,
  type Resource,
  type Schema,
  typeOfBlock,
  useStateForUnknown,
  valueFromJson,
  valueToJson,
} from "../../../src/framework/index.js";
import { storeOf } from "./store.js";

/** Schema of rfkitchen_consumer. */
export const consumerSchema: Schema = {
  description: "Consumes a value that may only be known after another resource is applied.",
  attributes: {
    id: attr.string({ computed: true, planModifiers: [useStateForUnknown()] }),
    input: attr.string({ required: true, description: "Usually rfkitchen_thing.x.fingerprint." }),
    output: attr.string({ computed: true, description: `"consumed:" + input; known at plan when input is.` }),
  },
};

/** A fresh rfkitchen_consumer resource. */
export function consumerResource(): Resource {
  let data: unknown;
  const type = typeOfBlock(consumerSchema);
  return {
    typeName: "rfkitchen_consumer",
    schema: consumerSchema,
    configure(req) {
      data = req.providerData;
    },
    modifyPlan(req, resp) {
      // Known input → known output at plan time; unknown input leaves output "known after apply".
      if (!isObjectValue(req.plan) || typeof req.plan.input !== "string") return;
      resp.plan = { ...req.plan, output: `consumed:${req.plan.input}` };
    },
    create(req, resp) {
      const state = { ...req.plan, id: `consumer-${randomUUID()}`, output: `consumed:${getString(req.plan, "input")}` };
      storeOf(data).put(state.id, valueToJson(state, type) as JsonObject);
      resp.state = state;
    },
    read(req, resp) {
      const stored = storeOf(data).get(getString(req.state, "id")!);
      resp.state = stored ? valueFromJson(stored, type) : null;
    },
    update(req, resp) {
      const state = { ...req.plan, output: `consumed:${getString(req.plan, "input")}` };
      storeOf(data).put(getString(state, "id")!, valueToJson(state, type) as JsonObject);
      resp.state = state;
    },
    delete(req) {
      storeOf(data).delete(getString(req.state, "id")!);
    },
    importState: importStatePassthroughId(),
  };
}
