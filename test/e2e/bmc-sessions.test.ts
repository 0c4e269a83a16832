/**
 * Session hygiene under the real engines: every Redfish session a provider process opens on a BMC or PDU is deleted
 * before the process exits (real BMCs allow few — the lab's Dell style 8 — so leaked sessions from CI plans would
 * lock a rack out). After an apply and each of ten plans, the lab's SessionService counts no live session anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, outletResources, providerBlock, testLab } from "../support/rackform-e2e.js";

const PLANS = 5;
let lab: Lab;
let cliConfig: string;

beforeAll(async () => {
  lab = await testLab(2);
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
});

/** Live sessions per BMC and PDU address that has any. */
function live(): Record<string, number> {
  const addresses = [...lab.world.nodes.values()].map((n) => n.address);
  addresses.push(...[...lab.world.pdus.values()].map((p) => p.address));
  return Object.fromEntries(addresses.map((a) => [a, lab.liveSessions(a)]).filter(([, n]) => Number(n) > 0));
}

describe.each(ENGINES)("Redfish sessions under %s", (name) => {
  const nodes = ["r01-n01", "r01-n02"];
  it(`leaves no live session on any BMC or PDU after an apply and ${PLANS} plans`, async () => {
    const bmcs = nodes
      .map((n) => {
        const info = lab.info.nodes.find((x) => x.name === n)!;
        return `resource "rackform_bmc" ${JSON.stringify(n)} {\n  endpoint   = ${JSON.stringify(info.bmc.url)}\n  depends_on = [rackform_pdu_outlet.${n}]\n}\n`;
      })
      .join("\n");
    const w = await Workdir.create(engine(name), cliConfig, {
      "main.tf": providerBlock(lab) + outletResources(lab, nodes, "On") + bmcs,
    });
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(live(), "after apply").toEqual({});
    for (let i = 1; i <= PLANS; i++) {
      const r = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(live(), `after plan ${i}`).toEqual({});
    }
    // The plans really used sessions (a provider on basic auth would pass the check above trivially).
    const logins = lab.requests.since(0).filter((e) => e.method === "POST" && e.path.endsWith("/Sessions"));
    expect(logins.length).toBeGreaterThan(PLANS);
  });
});
