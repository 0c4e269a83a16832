import { expect, describe as group, test } from "vitest";
import { attr, type Provider, type Resource, type Schema, UNKNOWN } from "../../../src/framework/index.js";
import { createServer } from "../../../src/server/create-server.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";

const schema: Schema = { attributes: { id: attr.string({ computed: true }), name: attr.string({ required: true }) } };

function serverWith(overrides: Partial<Resource>) {
  const resource: Resource = {
    typeName: "t_res",
    schema,
    create: (req, resp) => {
      resp.state = { ...req.plan, id: "1" };
    },
    read: () => {},
    update: () => {},
    delete: () => {},
    ...overrides,
  };
  const provider: Provider = {
    metadata: { typeName: "t", version: "0" },
    schema: { attributes: {} },
    configure: () => {},
    resources: () => [resource],
    dataSources: () => [],
  };
  return createServer(provider);
}

const config = configOf(schema, { name: "n" });

/** ApplyResourceChange of a create whose id the plan left unknown. */
const createPlanned = (srv: ReturnType<typeof serverWith>) =>
  srv.applyResourceChange({
    typeName: "t_res",
    priorState: null,
    plannedState: { id: UNKNOWN, name: "n" },
    config,
    plannedPrivate: new Uint8Array(),
  });
const planReq = {
  typeName: "t_res",
  priorState: null,
  proposedNewState: proposedNew(schema, config, null),
  config,
  priorPrivate: new Uint8Array(),
};

group("handler failures", () => {
  test("an exception in modifyPlan becomes one unexpected-error diagnostic, not a rejected promise", async () => {
    const srv = serverWith({
      modifyPlan: () => {
        throw new TypeError("cannot read properties of undefined");
      },
    });
    const p = await srv.planResourceChange(planReq);
    expect(p.diagnostics.map((d) => d.summary)).toEqual(["Unexpected provider error"]);
    expect(p.diagnostics[0].detail).toContain(
      "t_res modifyPlan failed with an exception: TypeError: cannot read properties of undefined",
    );
  });

  test("a create that reports an error and leaves unknowns records nothing", async () => {
    const srv = serverWith({
      create: (_req, resp) => {
        resp.diagnostics.error("Backend refused", "quota exceeded");
      },
    });
    const a = await createPlanned(srv);
    expect(a.newState).toBeNull();
    expect(a.diagnostics.map((d) => d.summary)).toEqual(["Backend refused"]);
  });

  test("a create that reports an error with a wholly known state keeps it (the engine taints it)", async () => {
    const srv = serverWith({
      create: (req, resp) => {
        resp.state = { ...req.plan, id: "half-made" };
        resp.diagnostics.error("Provisioning failed", "the node did not boot");
      },
    });
    const a = await createPlanned(srv);
    expect(a.newState).toEqual({ id: "half-made", name: "n" });
  });

  test("a failing delete keeps the object in state", async () => {
    const srv = serverWith({
      delete: (_req, resp) => {
        resp.diagnostics.error("Drain timed out", "node still has jobs");
      },
    });
    const prior = { id: "1", name: "n" };
    const a = await srv.applyResourceChange({
      typeName: "t_res",
      priorState: prior,
      plannedState: null,
      config: null,
      plannedPrivate: new Uint8Array(),
    });
    expect(a.newState).toEqual(prior);
  });

  test("a malformed schema is reported by GetProviderSchema instead of crashing", () => {
    const srv = serverWith({ schema: { attributes: { Bad: attr.string({ optional: true }) } } });
    const s = srv.getProviderSchema();
    expect(s.diagnostics.map((d) => d.summary)).toEqual(["Invalid provider schema"]);
    expect(s.diagnostics[0].detail).toContain("Bad: attribute names are lower snake_case");
  });
});
