import { expect, describe as group, test } from "vitest";
import {
  attr,
  block,
  createLogger,
  decodePrivate,
  encodePrivate,
  engineLogLevel,
  getNumber,
  getString,
  nullObject,
  nullWriteOnly,
  parseDuration,
  redact,
  type Schema,
  sensitiveStrings,
  timeoutMs,
  UNKNOWN,
  ValueTypeError,
} from "../../../src/framework/index.js";

const schema: Schema = {
  attributes: {
    name: attr.string({ required: true }),
    pw: attr.string({ optional: true, sensitive: true }),
    wo: attr.string({ optional: true, writeOnly: true }),
  },
  blocks: {
    bmc: block.list({
      attributes: { user: attr.string({ optional: true }), key: attr.string({ optional: true, writeOnly: true }) },
    }),
    grp: block.group({ attributes: { a: attr.string({ optional: true }) } }),
  },
};

group("parseDuration / timeoutMs", () => {
  test("reads Go durations", () => {
    expect(parseDuration("20m")).toBe(1_200_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("0")).toBe(0);
  });
  test("fails on malformed durations with an example of a good one", () => {
    for (const bad of ["", "20", "5 minutes", "m", "1x"]) expect(() => parseDuration(bad)).toThrowError(/20m/);
  });
  test("timeoutMs reads the timeouts block or falls back", () => {
    expect(timeoutMs({ timeouts: { create: "2m", delete: null } }, "create", 1)).toBe(120_000);
    expect(timeoutMs({ timeouts: { create: "2m", delete: null } }, "delete", 7)).toBe(7);
    expect(timeoutMs({ timeouts: null }, "read", 9)).toBe(9);
  });
});

group("schema values", () => {
  test("nullObject gives empty blocks in their canonical form", () => {
    expect(nullObject(schema)).toEqual({ name: null, pw: null, wo: null, bmc: [], grp: { a: null } });
  });
  test("nullWriteOnly clears write-only attributes at any depth", () => {
    const v = { name: "n", pw: "p", wo: "w", bmc: [{ user: "u", key: "k" }], grp: { a: null } };
    expect(nullWriteOnly(schema, v)).toEqual({ ...v, wo: null, bmc: [{ user: "u", key: null }] });
  });
  test("sensitiveStrings collects sensitive and write-only strings", () => {
    const v = { name: "n", pw: "p1", wo: "w1", bmc: [{ user: "u", key: "k1" }], grp: { a: null } };
    expect(sensitiveStrings(schema, v).sort()).toEqual(["k1", "p1", "w1"]);
  });
});

group("redact", () => {
  test("masks every occurrence, longest secret first", () => {
    expect(redact("user=admin pass=s3cr3t-long again s3cr3t-long", ["s3cr3t", "s3cr3t-long"])).toBe(
      "user=admin pass=(sensitive value) again (sensitive value)",
    );
    expect(redact("a b", ["a"])).toBe("a b"); // too short to mask without mangling text
  });
});

group("private state", () => {
  test("round-trips a JSON object; empty is no bytes", () => {
    expect(encodePrivate({})).toHaveLength(0);
    expect(decodePrivate(encodePrivate({ gen: 2, tags: ["a"] }))).toEqual({ gen: 2, tags: ["a"] });
    expect(() => decodePrivate(new TextEncoder().encode("[1]"))).toThrowError(/not a JSON object/);
  });
});

group("logger", () => {
  test("writes hclog JSON lines with level, message and module", () => {
    const lines: string[] = [];
    const log = createLogger({ module: "rackform", write: (l) => lines.push(l), now: () => new Date(0) }).with({
      rpc: "plan",
    });
    log.info("planning", { resource: "rackform_bmc" });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith("\n")).toBe(true);
    expect(JSON.parse(lines[0])).toEqual({
      "@level": "info",
      "@message": "planning",
      "@module": "rackform",
      // six fraction digits: go-plugin parses hclog's layout, and a line it cannot parse loses its level
      "@timestamp": "1970-01-01T00:00:00.000000Z",
      rpc: "plan",
      resource: "rackform_bmc",
    });
  });
  test("drops lines below the chosen level", () => {
    const lines: string[] = [];
    const log = createLogger({ level: "warn", write: (l) => lines.push(l) });
    log.debug("hidden");
    log.error("shown");
    expect(lines.map((l) => JSON.parse(l)["@message"])).toEqual(["shown"]);
  });
  test("writes what the engine keeps: the level of TF_LOG_PROVIDER_RACKFORM, TF_LOG_PROVIDER or TF_LOG, else nothing", () => {
    expect(engineLogLevel({})).toBe("off");
    expect(engineLogLevel({ TF_LOG: "" })).toBe("off");
    expect(engineLogLevel({ TF_LOG: "DEBUG" })).toBe("debug");
    expect(engineLogLevel({ TF_LOG: "json" })).toBe("trace");
    expect(engineLogLevel({ TF_LOG: "trace", TF_LOG_PROVIDER: "WARN" })).toBe("warn");
    expect(engineLogLevel({ TF_LOG_PROVIDER: "WARN", TF_LOG_PROVIDER_RACKFORM: "off" })).toBe("off");
    const lines: string[] = [];
    const log = createLogger({ level: engineLogLevel({}), write: (l) => lines.push(l) });
    log.error("not kept by the engine");
    expect(lines).toEqual([]);
  });
});

group("typed getters", () => {
  test("read known values and refuse unknown ones", () => {
    const o = { name: "n", size: 3, later: UNKNOWN };
    expect(getString(o, "name")).toBe("n");
    expect(getNumber(o, "size")).toBe(3);
    expect(() => getString(o, "later")).toThrowError(ValueTypeError);
    expect(() => getString(o, "size")).toThrowError(/not a string/);
  });
});
