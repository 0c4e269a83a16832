/**
 * Bad input under the real engines: every mistake gets a diagnostic naming the attribute and the fix, nothing is sent
 * to a PDU for invalid configuration (proved from the lab's request log), and no credential is ever printed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, type RunResult, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, testLab } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
const SECRET = "pw-e2e-Zq81-do-not-print";

beforeAll(async () => {
  lab = await testLab(2);
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
});

function outlet(attrs: string): string {
  return `resource "rackform_pdu_outlet" "x" {\n${attrs}\n}\n`;
}

const CASES: { name: string; provider?: string; resource: string; expect: RegExp[] }[] = [
  {
    name: "an endpoint that is not a URL",
    resource: outlet('endpoint = "pdu-7"\noutlet_id = "1"\npower_state = "On"'),
    expect: [/Invalid Redfish endpoint/, /is not a URL/, /endpoint\s+= "pdu-7"/],
  },
  {
    name: "an endpoint with credentials in it",
    resource: outlet('endpoint = "https://admin:hunter2@127.11.1.1"\noutlet_id = "1"\npower_state = "On"'),
    expect: [/Invalid Redfish endpoint/, /contains credentials/, /"https:\/\/127\.11\.1\.1"/],
  },
  {
    name: "an endpoint with a path",
    resource: outlet('endpoint = "https://127.11.1.1/redfish/v1/Systems"\noutlet_id = "1"\npower_state = "On"'),
    expect: [/Invalid Redfish endpoint/, /give only the service address/],
  },
  {
    name: "a power state that does not exist",
    resource: outlet('endpoint = "https://127.11.1.1"\noutlet_id = "1"\npower_state = "Of"'),
    expect: [/power_state/, /"On", "Off"|On, Off|one of/],
  },
  {
    name: "an empty outlet id",
    resource: outlet('endpoint = "https://127.11.1.1"\noutlet_id = ""\npower_state = "On"'),
    expect: [/outlet_id/],
  },
  {
    name: "an unknown attribute",
    resource: outlet('endpoint = "https://127.11.1.1"\noutlet_id = "1"\npower_state = "On"\npowerstate = "On"'),
    expect: [/Unsupported argument/, /powerstate/],
  },
  {
    name: "a wrong type",
    resource: outlet('endpoint = "https://127.11.1.1"\noutlet_id = ["1"]\npower_state = "On"'),
    expect: [/Incorrect attribute value type|Inappropriate value/, /outlet_id/],
  },
  {
    name: "a bad destroy behaviour",
    resource: outlet(
      'endpoint = "https://127.11.1.1"\noutlet_id = "1"\npower_state = "On"\npower_state_on_destroy = "Explode"',
    ),
    expect: [/power_state_on_destroy/],
  },
  {
    name: "a bad timeout",
    resource: outlet(
      'endpoint = "https://127.11.1.1"\noutlet_id = "1"\npower_state = "On"\ntimeouts {\n create = "soon"\n}',
    ),
    expect: [/Invalid duration/, /20m/],
  },
  {
    name: "a provider CA file that does not exist",
    provider: 'ca_file = "/nonexistent/lab-ca.pem"',
    resource: outlet('endpoint = "https://127.11.1.1"\noutlet_id = "1"\npower_state = "On"'),
    expect: [/Cannot read the Redfish CA bundle/, /ca_file/],
  },
  {
    name: "a provider concurrency out of range",
    provider: "max_concurrent_per_bmc = 0",
    resource: outlet('endpoint = "https://127.11.1.1"\noutlet_id = "1"\npower_state = "On"'),
    expect: [/max_concurrent_per_bmc/, /1.*64/],
  },
];

function providerWith(extra: string): string {
  // The lab's own provider block, with the password replaced by a recognisable secret and overrides appended.
  return providerBlock(lab, extra)
    .replace(/password = "[^"]*"/, `password = "${SECRET}"`)
    .replace(/ca_file\s+= "[^"]*"\n/, extra.includes("ca_file") ? "" : "$&");
}

function all(r: RunResult): string {
  return r.stdout + r.stderr;
}

/** The engine wraps diagnostic text at ~78 columns: compare with whitespace folded. */
function folded(text: string): string {
  return text.replace(/\s+/g, " ");
}

/** Output lines other than the engine's echo of the user's own source line (`16: endpoint = "…"`). */
function outsideSourceEcho(r: RunResult): string {
  return all(r)
    .split("\n")
    .filter((l) => !/^\s*\d+: /.test(l) && !l.includes("[DEBUG]") && !l.includes("[TRACE]"))
    .join("\n");
}

describe.each(ENGINES)("bad input under %s", (name) => {
  for (const c of CASES) {
    it(`fails plan on ${c.name}, names the attribute, sends nothing to a PDU, prints no secret`, async () => {
      const w = await Workdir.create(engine(name), cliConfig, {
        "main.tf": providerWith(c.provider ?? "") + c.resource,
      });
      await w.ok(["init", "-no-color"]);
      const before = lab.requests.last();
      const r = await w.run(["plan", "-no-color"], { env: { TF_LOG: "debug" } });
      expect(r.code, all(r)).not.toBe(0);
      for (const re of c.expect) expect(folded(r.stderr)).toMatch(re);
      expect(lab.requests.last(), "requests reached the lab").toBe(before);
      expect(all(r)).not.toContain(SECRET);
      expect(outsideSourceEcho(r)).not.toContain("hunter2");
    });
  }

  it("fails apply on an unreachable PDU with the address, the code and what to check", async () => {
    const w = await Workdir.create(engine(name), cliConfig, {
      "main.tf":
        providerWith("") +
        outlet(
          'endpoint = "https://127.11.250.250:9"\noutlet_id = "1"\npower_state = "On"\ntimeouts {\n create = "20s"\n}',
        ),
    });
    await w.ok(["init", "-no-color"]);
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).not.toBe(0);
    expect(folded(r.stderr)).toContain("Failed to switch the outlet On");
    expect(r.stderr).toContain("https://127.11.250.250:9");
    expect(folded(r.stderr)).toMatch(/RACKFORM_ERR_HTTP_(CONNECT|TIMEOUT)|did not finish within/);
    expect(r.stderr).toMatch(/endpoint\s+= "https:\/\/127\.11\.250\.250:9"/);
    expect(all(r)).not.toContain(SECRET);
  });

  it("fails apply on a wrong password without printing it", async () => {
    const pdu = lab.info.pdus[0];
    const w = await Workdir.create(engine(name), cliConfig, {
      "main.tf": providerWith("") + outlet(`endpoint = "${pdu.url}"\noutlet_id = "1"\npower_state = "On"`),
    });
    await w.ok(["init", "-no-color"]);
    const r = await w.run(["apply", "-auto-approve", "-no-color"], { env: { TF_LOG: "debug" } });
    expect(r.code).not.toBe(0);
    expect(folded(r.stderr)).toMatch(/RACKFORM_ERR_REDFISH_AUTH/);
    expect(folded(r.stderr)).toContain("Check `username` and `password`");
    expect(all(r)).not.toContain(SECRET);
  });
});
