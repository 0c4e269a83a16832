import { describe, expect, it } from "vitest";
import {
  attr,
  backgroundContext,
  type CreateResponse,
  Diagnostics,
  defineResource,
  type ModifyPlanResponse,
  path,
  type ReadResponse,
  UNKNOWN,
} from "../../../src/framework/index.js";

const schema = {
  attributes: {
    id: attr.string({ computed: true }),
    name: attr.string({ required: true }),
    size: attr.number({ optional: true }),
  },
} as const;

/** A resource that records what its handlers saw; deps is a counter prefix. */
function sample(seen: unknown[]) {
  return defineResource({
    typeName: "x_sample",
    schema,
    deps: (data) => ({ prefix: String(data) }),
    create(r, deps) {
      seen.push(r.private.value);
      r.private.set({ mark: `${deps.prefix}-1` });
      return { ...r.plan, id: `${deps.prefix}:${r.plan.name}` };
    },
    read(r) {
      seen.push(r.private.value);
      return r.state.size === 0 ? null : r.state;
    },
    update: (r) => ({ ...r.plan, id: r.state.id }),
    delete(r) {
      seen.push(r.private.value);
    },
    modifyPlan(r) {
      if (r.plan === null || r.state === null) return;
      if (r.config?.size === 99) return { plan: { ...r.plan, size: 100 }, requiresReplace: [path("name")] };
      return { private: { planned: r.plan.name as string } };
    },
    validateConfig(r) {
      if (r.config.size !== null && typeof r.config.size === "number" && r.config.size < 0)
        r.diagnostics.error("Negative size", "size must be ≥ 0", path("size"));
    },
  });
}

const ctx = backgroundContext();

describe("defineResource", () => {
  it("hands create the planned private data and stores what it sets", async () => {
    const seen: unknown[] = [];
    const r = sample(seen);
    await r.configure?.({ context: ctx, providerData: "p" }, { diagnostics: new Diagnostics() });
    const plan = { id: UNKNOWN, name: "a", size: null };
    const resp: CreateResponse = { state: plan, private: { from: "plan" }, diagnostics: new Diagnostics() };
    await r.create({ context: ctx, config: plan, plan }, resp);
    expect(seen).toEqual([{ from: "plan" }]);
    expect(resp.private).toEqual({ mark: "p-1" });
    expect(resp.state).toEqual({ id: "p:a", name: "a", size: null });
  });

  it("read sees the stored private data and may report the object gone", async () => {
    const seen: unknown[] = [];
    const r = sample(seen);
    await r.configure?.({ context: ctx, providerData: "p" }, { diagnostics: new Diagnostics() });
    const state = { id: "p:a", name: "a", size: 0 };
    const resp: ReadResponse = { state, private: { kept: true }, diagnostics: new Diagnostics() };
    await r.read({ context: ctx, state, private: { kept: true } }, resp);
    expect(seen).toEqual([{ kept: true }]);
    expect(resp.state).toBeNull();
  });

  it("modifyPlan may change the plan, add replace paths and set private data, or keep all", async () => {
    const r = sample([]);
    await r.configure?.({ context: ctx, providerData: "p" }, { diagnostics: new Diagnostics() });
    const state = { id: "p:a", name: "a", size: 1 };
    const run = async (size: number) => {
      const plan = { ...state, size };
      const resp: ModifyPlanResponse = { plan, requiresReplace: [], private: {}, diagnostics: new Diagnostics() };
      await r.modifyPlan?.({ context: ctx, config: plan, plan, state, private: {} }, resp);
      return resp;
    };
    const changed = await run(99);
    expect(changed.plan).toEqual({ id: "p:a", name: "a", size: 100 });
    expect(changed.requiresReplace).toEqual([path("name")]);
    const kept = await run(2);
    expect(kept.plan).toEqual({ id: "p:a", name: "a", size: 2 });
    expect(kept.private).toEqual({ planned: "a" });
  });

  it("modifyPlan is not called for a wholly unknown plan (nothing to check or change)", async () => {
    const r = sample([]);
    await r.configure?.({ context: ctx, providerData: "p" }, { diagnostics: new Diagnostics() });
    const state = { id: "p:a", name: "a", size: 1 };
    const resp: ModifyPlanResponse = {
      plan: UNKNOWN,
      requiresReplace: [],
      private: {},
      diagnostics: new Diagnostics(),
    };
    await r.modifyPlan?.({ context: ctx, config: UNKNOWN, plan: UNKNOWN, state, private: {} }, resp);
    expect(resp).toMatchObject({ plan: UNKNOWN, requiresReplace: [], private: {} });
  });

  it("validateConfig runs on a decoded config before the provider is configured", async () => {
    const r = sample([]);
    const diagnostics = new Diagnostics();
    await r.validateConfig?.({ context: ctx, config: { id: null, name: UNKNOWN, size: -1 } }, { diagnostics });
    expect(diagnostics.hasError()).toBe(true);
    expect(diagnostics.items[0]?.attribute).toEqual(path("size"));
  });

  it("delete sees the planned private data", async () => {
    const seen: unknown[] = [];
    const r = sample(seen);
    await r.configure?.({ context: ctx, providerData: "p" }, { diagnostics: new Diagnostics() });
    await r.delete(
      { context: ctx, state: { id: "p:a", name: "a", size: 1 }, private: { p: 1 } },
      { diagnostics: new Diagnostics() },
    );
    expect(seen).toEqual([{ p: 1 }]);
  });
});
