import { describe, expect, it } from "vitest";
import { stateProviders } from "../../../src/cli/watch/sources.js";

describe("rackform watch: the providers a pg stack's state needs", () => {
  it("requires each provider at the registry address the state names it by, so OpenTofu installs a Terraform-written state's provider", () => {
    const state = JSON.stringify({
      version: 4,
      resources: [
        { type: "rackform_bmc", provider: 'provider["registry.terraform.io/rackform/rackform"]' },
        { type: "rackform_machine", provider: 'provider["registry.terraform.io/rackform/rackform"]' },
        { type: "other_thing", provider: 'provider["registry.opentofu.org/acme/other"]' },
        { type: "rackform_bmc", provider: 'provider["registry.opentofu.org/rackform/rackform"].alias' },
      ],
    });
    expect(stateProviders(state)).toEqual({
      rackform: { source: "registry.terraform.io/rackform/rackform" },
      other: { source: "registry.opentofu.org/acme/other" },
      rackform_2: { source: "registry.opentofu.org/rackform/rackform" },
    });
  });

  it("needs nothing for an empty state or one that is not JSON", () => {
    expect(stateProviders(JSON.stringify({ version: 4, resources: [] }))).toEqual({});
    expect(stateProviders("")).toEqual({});
  });
});
