/**
 * Day 2 via Ironic under the real engines (test/support/day2.ts has the rollout): a new image version recycles the
 * 8-node rack two at a time while the other six stay joined; the next plan is empty.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { day2Lab, rollingReimage } from "../support/day2.js";
import { ENGINES } from "../support/engines.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

describe.each(ENGINES)("day 2 of an 8-node Ironic rack under %s", (name) => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await day2Lab();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it("a new image version recycles every node, two at a time while the other six stay joined; the next plan is empty (via ironic)", async () => {
    await rollingReimage(name, cliConfig, lab, "ironic");
  }, 400_000);
});
