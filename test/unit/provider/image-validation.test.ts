/** rackform_image's config checks and import id, before any backend is asked. */
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../../src/framework/index.js";
import { checkImageConfig, IMAGE_ID, type ImageConfigModel } from "../../../src/provider/resources/image-schema.js";

type Checked = Pick<ImageConfigModel, "backend" | "name" | "version" | "sha256" | "url" | "source_file">;

const base: Checked = {
  backend: "maas",
  name: "ubuntu-gpu",
  version: "2026.06.2",
  sha256: "a".repeat(64),
  url: null,
  source_file: null,
};
const summaries = (c: Checked) => {
  const d = new Diagnostics();
  checkImageConfig(c, d);
  return d.items.map((x) => x.summary);
};

describe("rackform_image config", () => {
  it("fails a MAAS image with neither url nor source_file, or with both", () => {
    expect(summaries(base)).toEqual(["Where is the image?"]);
    expect(summaries({ ...base, url: "http://i/x.qcow2", source_file: "/srv/x" })).toEqual([
      "Set url or source_file, not both",
    ]);
    expect(summaries({ ...base, url: "http://i/x.qcow2" })).toEqual([]);
    expect(summaries({ ...base, source_file: "/srv/x" })).toEqual([]);
  });

  it("fails an Ironic image without url, or with a source_file", () => {
    expect(summaries({ ...base, backend: "ironic" })).toEqual(["Ironic needs url"]);
    expect(summaries({ ...base, backend: "ironic", url: "http://i/x", source_file: "/srv/x" })).toEqual([
      "source_file is for MAAS",
    ]);
  });

  it("imports by <backend>:<name>/<version> only", () => {
    expect(IMAGE_ID.exec("maas:ubuntu-gpu/2026.06.2")?.slice(1)).toEqual(["maas", "ubuntu-gpu", "2026.06.2"]);
    expect(IMAGE_ID.test("ironic:ubuntu-gpu/2026.06.2")).toBe(true);
    expect(IMAGE_ID.test("maas:ubuntu-gpu-2026.06.2")).toBe(false);
    expect(IMAGE_ID.test("ubuntu-gpu/2026.06.2")).toBe(false);
  });
});
