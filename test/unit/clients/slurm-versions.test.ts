/** The Slurm API version table: what a server's OpenAPI document offers, and which version rackform then speaks. */
import { describe, expect, it } from "vitest";
import { SLURM_API_VERSIONS, slurmApiVersion } from "../../../src/clients/slurm/index.js";
import { offeredVersions, pickVersion } from "../../../src/clients/slurm/versions.js";

const doc = (...paths: string[]) => ({ paths: Object.fromEntries(paths.map((p) => [p, { get: {} }])) });

describe("Slurm API versions", () => {
  it("reads the node-list versions of an OpenAPI document, with or without a trailing slash", () => {
    expect(
      offeredVersions(
        doc("/slurm/v0.0.38/nodes", "/slurm/v0.0.38/node/{node_name}", "/slurm/v0.0.42/nodes/", "/openapi/v3"),
      ),
    ).toEqual(["v0.0.38", "v0.0.42"]);
    expect(offeredVersions({})).toEqual([]);
    expect(offeredVersions(null)).toEqual([]);
  });

  it("picks the newest version both sides know: v0.0.38 from 22.05, v0.0.41 from 24.05", () => {
    expect(pickVersion(["v0.0.36", "v0.0.37", "v0.0.38"])?.name).toBe("v0.0.38");
    expect(pickVersion(["v0.0.39", "v0.0.40", "v0.0.41"])?.name).toBe("v0.0.41");
    expect(pickVersion(["v0.0.35", "v0.0.99"])).toBeUndefined();
  });

  it("has node writes from v0.0.39 on and none before (22.05 answers POST /node with 405)", () => {
    expect(SLURM_API_VERSIONS.filter((v) => v.updateBody).map((v) => v.name)).toEqual([
      "v0.0.42",
      "v0.0.41",
      "v0.0.40",
      "v0.0.39",
    ]);
    expect(slurmApiVersion("v0.0.38")?.nodeDelete).toBe(false);
  });

  it("builds a v0.0.41 update with a state array and features as an array", () => {
    const v = slurmApiVersion("v0.0.41");
    expect(v?.updateBody?.({ state: ["DRAIN"], reason: "r", features: ["h100"] })).toEqual({
      state: ["DRAIN"],
      reason: "r",
      features: ["h100"],
    });
  });
});
