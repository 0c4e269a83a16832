/**
 * WarewulfBackend: the provider's warewulf block, machines with backend warewulf, the acceptance gate like the other
 * backends, no rackform_image, no literal password.
 */
import { Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import { Rack, RackformStack, RackformValidationError, WarewulfBackend } from "../../constructs/lib/index.js";
import { rackProps, ref, resources, shared, synthJson } from "./support.js";

describe("WarewulfBackend", () => {
  it("renders the warewulf block with the password as the stack's sensitive variable and enrolls with backend warewulf", () => {
    // GIVEN a rack of 8 lab nodes on Warewulf / WHEN it synthesizes
    const stack = new RackformStack(Testing.app(), "r1");
    const s = shared(stack);
    const backend = new WarewulfBackend(stack, "ww", { url: "http://127.0.0.1:9873", username: "admin" });
    new Rack(stack, "r1", rackProps({ ...s, backend }, "r1"));
    const json = synthJson(stack);
    // THEN the provider block names warewulfd and the password variable; machines are Warewulf's; no image resource
    expect(json.provider?.rackform[0].warewulf).toEqual({
      url: "http://127.0.0.1:9873",
      username: "admin",
      password: ref("var.warewulf_password"),
    });
    expect(json.variable?.warewulf_password).toMatchObject({ sensitive: true });
    expect(json.provider?.rackform[0].maas).toBeUndefined();
    expect(resources(json, "rackform_machine").r1_n01_machine.backend).toBe("warewulf");
    expect(Object.keys(resources(json, "rackform_image"))).toEqual([]);
    expect(Object.keys(resources(json, "rackform_deployment"))).toHaveLength(8);
    // AND every node gets the acceptance gate like on MAAS and Ironic (rackform's runtime overlay runs it), and its
    // member waits for it
    expect(Object.keys(resources(json, "rackform_acceptance"))).toHaveLength(8);
    expect(resources(json, "rackform_cluster_member").r1_n01_member.gate_id).toBe(
      ref("rackform_acceptance.r1_n01_acceptance.id"),
    );
  });

  it("refuses a literal password and a URL that is not http(s)", () => {
    const stack = new RackformStack(Testing.app(), "r1");
    expect(
      () => new WarewulfBackend(stack, "ww", { url: "http://h:9873", username: "admin", password: "hunter2" }),
    ).toThrow(RackformValidationError);
    expect(() => new WarewulfBackend(stack, "ww2", { url: "ftp://h", username: "admin" })).toThrow(
      RackformValidationError,
    );
  });
});
