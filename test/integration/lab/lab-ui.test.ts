/**
 * The lab's page (`rackform lab up --ui`) in a real browser: Debian's Chromium headless, driven over the DevTools
 * protocol. The page shows the PDUs' outlets, the BMCs and the faults as the control API reports them, and its buttons
 * change the lab through that API: an outlet switched on from the page powers the node's BMC, a fault injected from
 * the page is active in the lab, and cleared from the page it is gone. A screenshot is kept under .rackform/.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../../src/lab/index.js";
import { type BrowserPage, chromiumBin, openPage } from "../../support/chromium.js";
import { ROOT } from "../../support/rackform-e2e.js";
import { until } from "../../support/until.js";

/** Polls `read` every 100 ms until `check` holds, and returns what it read then. */
const polled = <T>(what: string, read: () => Promise<T> | T, check: (v: T) => boolean): Promise<T> =>
  until(
    what,
    async () => {
      const v = await read();
      return check(v) ? { v } : undefined;
    },
    { everyMs: 100 },
  ).then((r) => r.v);

describe("the lab's page in Chromium", () => {
  let lab: Lab;
  let page: BrowserPage;
  beforeAll(async () => {
    chromiumBin(); // fails at once, naming what to install, when Chromium is missing
    lab = await startLab({
      nodes: 2,
      profile: "instant",
      stateDir: mkdtempSync(join(tmpdir(), "rf-labui-")),
      ui: true,
    });
    page = await openPage(`${lab.info.control.url}/ui`);
  });
  afterAll(async () => {
    await page?.close();
    await lab?.close();
  });

  it("shows outlets and BMCs, switches an outlet on, injects and clears a fault, all from the page", async () => {
    const [n1] = lab.info.nodes.map((n) => n.name);
    const node = lab.world.node(n1)!;
    const rows = () =>
      page.evaluate(
        `[...document.querySelectorAll("tr[data-node]")].map((r) => [r.dataset.node, r.dataset.outletState, r.dataset.bmc])`,
      ) as Promise<string[][]>;
    // GIVEN a lab whose outlets are all off: the page lists each node with its outlet off and its BMC off
    expect(await polled("two rows", rows, (r) => r.length === 2)).toEqual(
      lab.info.nodes.map((n) => [n.name, "Off", "off"]),
    );

    // WHEN the node's outlet is switched on with the page's button
    await page.evaluate(
      `document.querySelector('button[data-action="outlet-on"][data-pdu="${node.spec.pdu}"][data-outlet="${node.spec.outlet}"]').click()`,
    );
    // THEN the lab's outlet is on, and the page shows it and the BMC no longer off
    await polled(
      "the outlet on",
      () => lab.world.outlet(node.spec.pdu, node.spec.outlet).on,
      (on) => on,
    );
    expect(lab.world.outlet(node.spec.pdu, node.spec.outlet).on).toBe(true);
    const after = await polled("the outlet on in the page", rows, (r) => r[0][1] === "On" && r[0][2] !== "off");
    expect(after[0].slice(0, 2)).toEqual([n1, "On"]);
    expect(after[0][2]).not.toBe("off");

    // WHEN a fault is injected from the page's form
    await page.evaluate(
      `document.getElementById("fkind").value = "bmc-unreachable"; document.getElementById("fnode").value = ${JSON.stringify(n1)}; document.querySelector('[data-action="inject"]').click()`,
    );
    // THEN the lab has it, and the page lists it and shows the BMC unreachable
    const faults = await polled(
      "one fault",
      () => lab.world.faults.list(),
      (f) => f.length === 1,
    );
    expect(faults.map((f) => [f.kind, f.node])).toEqual([["bmc-unreachable", n1]]);
    const listed = await polled(
      "one fault listed",
      () => page.evaluate(`[...document.querySelectorAll("li.fault")].map((l) => l.dataset.kind)`) as Promise<string[]>,
      (l) => l.length === 1,
    );
    expect(listed).toEqual(["bmc-unreachable"]);
    expect((await polled("the BMC off in the page", rows, (r) => r[0][2] === "off"))[0][2]).toBe("off");
    mkdirSync(join(ROOT, ".rackform", "test-artifacts"), { recursive: true });
    await page.screenshot(join(ROOT, ".rackform", "test-artifacts", "lab-ui.png"));

    // WHEN it is cleared from the page THEN the lab has no fault left and the page lists none
    await page.evaluate(`document.querySelector('button[data-action="clear-fault"]').click()`);
    expect(
      await polled(
        "no fault left",
        () => lab.world.faults.list().length,
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(
      await polled(
        "no fault listed",
        () => page.evaluate(`document.querySelectorAll("li.fault").length`),
        (n) => n === 0,
      ),
    ).toBe(0);
  });

  it("is served only with --ui: without it GET /ui is the control API's 404", async () => {
    const plain = await startLab({
      nodes: 1,
      profile: "instant",
      stateDir: mkdtempSync(join(tmpdir(), "rf-labui-")),
      backends: false,
    });
    try {
      const r = await fetch(`${plain.info.control.url}/ui`);
      expect(r.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
