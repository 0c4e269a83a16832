/** rfkitchen_thing: exercises every schema feature (kinds, nesting modes, flags, defaults, validators, modifiers). */
import { createHash, randomUUID } from "node:crypto";
import {
  attr,
  block,
  getNumber,
  getString,
  importStatePassthroughId,
  isObjectValue,
  type JsonObject,
  listSize,
  numberBetween,
  type ObjectValue,
  type Resource,
  requiresReplace,
  requiresReplaceIf,
  type Schema,
  stringLength,
  stringMatches,
  stringOneOf,
  timeoutsBlock,
  typeOfBlock,
  useStateForUnknown,
  type Value,
  valueFromJson,
  valueToJson,
} from "../../../src/framework/index.js";
import { storeOf } from "./store.js";

/** Current schema of rfkitchen_thing (version 2: v0 called `name` `label`; v1 stored `size` as a string). */
export const thingSchema: Schema = {
  version: 2,
  description: "A thing with one of every kind of attribute and block.",
  attributes: {
    id: attr.string({ computed: true, description: "Identifier.", planModifiers: [useStateForUnknown()] }),
    name: attr.string({
      required: true,
      description: "Name; changing it replaces the thing.",
      validators: [
        stringLength({ min: 1, max: 64 }),
        stringMatches(/^[a-z0-9-]+$/, "lowercase letters, digits and dashes"),
      ],
      planModifiers: [requiresReplace()],
    }),
    size: attr.number({ optional: true, validators: [numberBetween(0, 1000)] }),
    enabled: attr.bool({ optional: true, computed: true, default: true }),
    tier: attr.string({
      optional: true,
      computed: true,
      default: "standard",
      validators: [stringOneOf("standard", "premium")],
    }),
    zone: attr.string({
      optional: true,
      planModifiers: [
        requiresReplaceIf((req) => req.stateValue !== null, "requires replacement when moved between zones"),
      ],
    }),
    tags: attr.list("string", { optional: true, validators: [listSize({ max: 8 })] }),
    labels: attr.set("string", { optional: true }),
    meta: attr.map("string", { optional: true }),
    spec: attr.object({ cpu: "number", memory_gib: "number" }, { optional: true }),
    extra: attr.dynamic({ optional: true }),
    password: attr.string({ optional: true, sensitive: true }),
    token: attr.string({ optional: true, sensitive: true, writeOnly: true, description: "Never stored." }),
    endpoint: attr.single(
      {
        host: attr.string({ required: true }),
        port: attr.number({ optional: true, computed: true, default: 443 }),
      },
      { optional: true },
    ),
    disks: attr.listNested(
      {
        name: attr.string({ required: true }),
        size_gib: attr.number({ required: true, validators: [numberBetween(1, 65536)] }),
      },
      { optional: true },
    ),
    fingerprint: attr.string({ computed: true, description: "Derived at apply from name, size and zone." }),
  },
  blocks: {
    network: block.single({
      attributes: {
        vlan: attr.number({ required: true, validators: [numberBetween(1, 4094)] }),
        mtu: attr.number({ optional: true, computed: true, default: 1500 }),
      },
    }),
    rule: block.list(
      {
        attributes: {
          port: attr.number({ required: true }),
          protocol: attr.string({ optional: true, validators: [stringOneOf("tcp", "udp")] }),
        },
      },
      { maxItems: 4 },
    ),
    mount: block.set({
      attributes: { path: attr.string({ required: true }), read_only: attr.bool({ optional: true }) },
    }),
    pool: block.map({ attributes: { size: attr.number({ required: true }) } }),
    options: block.group({
      attributes: { verbose: attr.bool({ optional: true }), level: attr.string({ optional: true }) },
    }),
    timeouts: timeoutsBlock(["create", "read", "update", "delete"]),
  },
};

/** The value apply derives for `fingerprint`. */
export function fingerprintOf(o: ObjectValue): string {
  const basis = JSON.stringify([getString(o, "name"), getNumber(o, "size"), getString(o, "zone")]);
  return createHash("sha256").update(basis).digest("hex").slice(0, 16);
}

function save(data: unknown, state: ObjectValue): void {
  storeOf(data).put(getString(state, "id")!, valueToJson(state, typeOfBlock(thingSchema)) as JsonObject);
}

/** A fresh rfkitchen_thing resource. */
export function thingResource(): Resource {
  let data: unknown;
  return {
    typeName: "rfkitchen_thing",
    schema: thingSchema,
    configure(req) {
      data = req.providerData;
    },
    create(req, resp) {
      const state = { ...req.plan, id: `thing-${randomUUID()}`, fingerprint: fingerprintOf(req.plan) };
      save(data, state);
      resp.state = state;
      resp.private = { generation: 1 };
    },
    read(req, resp) {
      const stored = storeOf(data).get(getString(req.state, "id")!);
      resp.state = stored ? valueFromJson(stored, typeOfBlock(thingSchema)) : null;
    },
    update(req, resp) {
      const state = { ...req.plan, fingerprint: fingerprintOf(req.plan) };
      save(data, state);
      resp.state = state;
      const gen = typeof req.private.generation === "number" ? req.private.generation : 0;
      resp.private = { generation: gen + 1 };
    },
    delete(req) {
      storeOf(data).delete(getString(req.state, "id")!);
    },
    validateConfig(req, resp) {
      // Cross-attribute rule; unknown values are skipped because they may still turn out fine.
      const { tier, size } = req.config;
      if (tier === "premium" && typeof size === "number" && size < 100) {
        resp.diagnostics.error(
          "Size too small for premium tier",
          `A premium thing needs size >= 100, got ${size}; raise size or use tier = "standard".`,
          [{ attr: "size" }],
        );
      }
    },
    importState: importStatePassthroughId("id"),
    upgradeState: {
      0: (prior) => {
        const { label, ...rest } = prior;
        return { ...rest, name: label ?? null };
      },
      1: (prior) => ({ ...prior, size: typeof prior.size === "string" ? Number(prior.size) : prior.size }),
    },
  };
}

/** True when a value is a thing object (for tests). */
export function isThing(v: Value): v is ObjectValue {
  return isObjectValue(v) && "fingerprint" in v;
}
