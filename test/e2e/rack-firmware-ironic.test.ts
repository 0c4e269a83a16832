/**
 * A firmware baseline held on a running Ironic rack under a real engine (test/support/firmware-rack.ts has the story):
 * drifted nodes are rolled within max_unavailable, each reset once, gates re-run; a refused image quarantines only
 * its node with the task's message; the next apply converges it.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES } from "../support/engines.js";
import { firmwareLab, firmwareRollout } from "../support/firmware-rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

describe.each(ENGINES)("a firmware baseline on a running 8-node ironic rack under %s", (name) => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await firmwareLab();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it("drifted nodes are rolled within the budget, each reset once, gates re-run; a refused image quarantines only its node", async () => {
    await firmwareRollout(name, cliConfig, lab, "ironic");
  }, 600_000);
});
