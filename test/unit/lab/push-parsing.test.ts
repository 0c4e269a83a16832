/** Unit: the lab's streaming multipart reader, its firmware image reader, and the BIOS staging check. */
import { describe, expect, it } from "vitest";
import { ImageReader, labFirmwareImage } from "../../../src/lab/redfish/fw-image.js";
import { boundaryOf, MultipartReader, type PartInfo } from "../../../src/lab/redfish/multipart.js";
import { applyStaged, checkStage, initialBios, stage } from "../../../src/lab/world/bios.js";

/** Feeds `body` in pieces of `size` bytes; returns each part's info and bytes. */
function read(body: Buffer, boundary: string, size: number): { info: PartInfo; bytes: Buffer }[] {
  const parts: { info: PartInfo; bytes: Buffer; ended: boolean }[] = [];
  const r = new MultipartReader(boundary, (info) => {
    const p = { info, bytes: Buffer.alloc(0), ended: false };
    parts.push(p);
    return {
      data: (c) => {
        p.bytes = Buffer.concat([p.bytes, c]);
      },
      end: () => {
        p.ended = true;
      },
    };
  });
  for (let i = 0; i < body.length; i += size) r.feed(body.subarray(i, i + size));
  r.finish();
  expect(parts.every((p) => p.ended)).toBe(true);
  return parts.map(({ info, bytes }) => ({ info, bytes }));
}

const B = "xyzzy";
// RFC 2046: a boundary never occurs in content, so only near misses are tried.
const payload = Buffer.from("line one\r\n--xyzz not quite a boundary\r\n-xyzzy nor this\r\nend\r");
const body = Buffer.concat([
  Buffer.from(
    `preamble\r\n--${B}\r\nContent-Disposition: form-data; name="UpdateParameters"\r\n\r\n{"Targets":[]}\r\n`,
  ),
  Buffer.from(`--${B}  \r\nContent-Disposition: form-data; name="UpdateFile"; filename="a.bin"\r\n`),
  Buffer.from("Content-Type: application/octet-stream\r\n\r\n"),
  payload,
  Buffer.from(`\r\n--${B}--\r\nepilogue`),
]);

describe("MultipartReader", () => {
  it.each([1, 2, 7, 64, body.length])("splits parts the same whatever the chunk size (%i)", (size) => {
    const parts = read(body, B, size);
    expect(parts.map((p) => p.info)).toEqual([
      { name: "UpdateParameters" },
      { name: "UpdateFile", filename: "a.bin", contentType: "application/octet-stream" },
    ]);
    expect(parts[0].bytes.toString()).toBe('{"Targets":[]}');
    expect(parts[1].bytes.equals(payload)).toBe(true);
  });

  it("refuses a body without its closing boundary, and a part without a name", () => {
    expect(() => read(body.subarray(0, body.length - 20), B, 5)).toThrow(/closing boundary/);
    const nameless = Buffer.from(`--${B}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${B}--`);
    expect(() => read(nameless, B, 3)).toThrow(/Content-Disposition|name/);
  });

  it("reads the boundary of a multipart/form-data content type only", () => {
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/form-data; charset=x; boundary=abc")).toBe("abc");
    expect(boundaryOf("application/json")).toBeUndefined();
    expect(boundaryOf(undefined)).toBeUndefined();
  });
});

describe("ImageReader", () => {
  const facts = (img: Buffer, size: number) => {
    const r = new ImageReader();
    for (let i = 0; i < img.length; i += size) r.feed(img.subarray(i, i + size));
    return r.facts();
  };
  it.each([1, 3, 4096])("reads component, version and a valid signature in chunks of %i", (size) => {
    const img = labFirmwareImage({ component: "gpu", version: "96.00.9A.00.01", payload: Buffer.alloc(9000, 1) });
    expect(facts(img, size)).toEqual({ size: img.length, component: "gpu", version: "96.00.9A.00.01", signed: true });
  });
  it("says unsigned for a wrong or missing SIG line, and nothing for a header that is not one", () => {
    expect(facts(labFirmwareImage({ component: "bios", version: "1", signature: "wrong" }), 5).signed).toBe(false);
    expect(facts(labFirmwareImage({ component: "bios", version: "1", signature: "none" }), 5).signed).toBe(false);
    expect(facts(Buffer.alloc(10_000, 0x41), 100)).toEqual({ size: 10_000, signed: false });
    expect(facts(Buffer.from("RFIMG component=cpu version=1\nSIG sha256=00\n"), 8).component).toBeUndefined();
  });
});

describe("BIOS staging", () => {
  it("checks against the registry, stages, and applies or ignores at power-on", () => {
    const b = initialBios("dell", "PowerEdge XE9680");
    expect(b.current.SystemModelName).toBe("PowerEdge XE9680");
    expect(checkStage(b, { Nope: 1 })).toEqual({ key: "PropertyUnknown", args: ["Attributes/Nope"] });
    expect(checkStage(b, { NumaNodesPerSocket: 1.5 })?.key).toBe("PropertyValueTypeError");
    expect(checkStage(b, { BootMode: "Bios", MmioAbove4Gb: "Disabled" })?.key).toBe("PropertyNotWritable");
    expect(checkStage(b, { SystemModelName: "PowerEdge XE9680" })).toBeUndefined();
    stage(b, { SriovGlobalEnable: "Enabled", SysProfile: b.current.SysProfile });
    expect(b.staged).toEqual({ SriovGlobalEnable: "Enabled" });
    expect(applyStaged(b, 5, true)).toBe(true);
    expect(b.messages[0]).toMatchObject({
      MessageId: "SettingsFailed",
      RelatedProperties: ["/Attributes/SriovGlobalEnable"],
    });
    expect(applyStaged(b, 6, false)).toBe(true);
    expect(b.current.SriovGlobalEnable).toBe("Enabled");
    expect(b.staged).toEqual({});
    expect(applyStaged(b, 7, false)).toBe(false);
  });
});
