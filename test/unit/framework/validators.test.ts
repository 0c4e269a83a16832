import { expect, describe as group, test } from "vitest";
import {
  BigNumber,
  conflictsWith,
  Diagnostics,
  formatPath,
  listSize,
  numberBetween,
  path,
  stringLength,
  stringMatches,
  stringOneOf,
  type Validator,
  type Value,
  validator,
} from "../../../src/framework/index.js";

async function run(v: Validator, value: Value, parent: Record<string, Value> = {}) {
  const diagnostics = new Diagnostics();
  const at = path("nodes", 2, "bmc");
  await v.validate({ value, path: at, parent, config: null }, { diagnostics });
  return diagnostics.items;
}

group("validators", () => {
  test("every failure carries the attribute path and names the bad value", async () => {
    const cases: [Validator, Value, string][] = [
      [stringLength({ min: 2, max: 3 }), "abcd", "got 4"],
      [stringMatches(/^[a-z]+$/, "lowercase letters"), "A1", 'got "A1"'],
      [stringOneOf("a", "b"), "c", 'must be one of "a", "b", got "c"'],
      [numberBetween(1, 10), 11, "got 11"],
      [numberBetween(1, 10), new BigNumber("100000000000000000000"), "got 100000000000000000000"],
      [listSize({ max: 1 }), ["x", "y"], "got 2"],
      [listSize({ min: 1 }), {}, "got 0"],
    ];
    for (const [v, value, fragment] of cases) {
      const ds = await run(v, value);
      expect(ds, v.description).toHaveLength(1);
      expect(formatPath(ds[0].attribute)).toBe("nodes[2].bmc");
      expect(ds[0].detail).toContain(fragment);
    }
  });

  test("valid values pass", async () => {
    expect(await run(stringLength({ min: 1, max: 3 }), "héé")).toEqual([]); // counts characters, not bytes
    expect(await run(stringOneOf("a"), "a")).toEqual([]);
    expect(await run(numberBetween(1, 10), 10)).toEqual([]);
    expect(await run(listSize({ min: 1, max: 2 }), ["x"])).toEqual([]);
  });

  test("conflictsWith looks at siblings", async () => {
    const v = conflictsWith("password");
    expect(await run(v, "k", { password: null })).toEqual([]);
    const ds = await run(v, "k", { password: "p" });
    expect(ds[0].summary).toBe("Conflicting configuration arguments");
  });

  test("custom validators describe themselves", async () => {
    const even = validator("an even number", (req, resp) => {
      if (typeof req.value === "number" && req.value % 2) resp.diagnostics.error("Odd", "must be even", req.path);
    });
    expect(even.description).toBe("an even number");
    expect((await run(even, 3)).map((d) => d.summary)).toEqual(["Odd"]);
  });
});
