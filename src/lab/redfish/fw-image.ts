/**
 * The lab's firmware image format, read as it streams in (only the header is held): a text header of two lines, then
 * the payload.
 *
 *     RFIMG component=bios version=2.3.1
 *     SIG sha256=<lower-case hex sha256 of the payload>
 *     <payload bytes…>
 *
 * `component` is bmc, bios, gpu or nic; the signature line is valid when its digest is the payload's. The format is
 * the lab's own (real vendor packages are signed containers); it gives a pushed image a version and a signature
 * that can be wrong, which is all the lab needs.
 */
import { createHash } from "node:crypto";
import { COMPONENTS, type Component } from "../world/model.js";

/** Bytes of header the reader holds at most: an image whose two header lines do not fit is not an image. */
const HEAD_MAX = 4096;

/** What the lab learned from a pushed image. */
export interface ImageFacts {
  readonly size: number;
  /** Undefined when the header is missing or malformed. */
  readonly component?: Component;
  readonly version?: string;
  /** True when the SIG line names the payload's sha256. */
  readonly signed: boolean;
}

/** Reads an image chunk by chunk: keeps the header (at most HEAD_MAX bytes) and hashes the payload. */
export class ImageReader {
  private head: Buffer = Buffer.alloc(0);
  private lines: string[] | undefined;
  private readonly hash = createHash("sha256");
  private size = 0;

  /** Takes the next chunk of the image. */
  feed(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.lines) {
      this.hash.update(chunk);
      return;
    }
    if (this.head.length >= HEAD_MAX) return; // Not an image: nothing more is held.
    this.head = Buffer.concat([this.head, chunk]);
    const first = this.head.indexOf(0x0a);
    const second = first < 0 ? -1 : this.head.indexOf(0x0a, first + 1);
    if (second >= 0 && second < HEAD_MAX) {
      this.lines = this.head.subarray(0, second).toString("latin1").split("\n");
      this.hash.update(this.head.subarray(second + 1));
      this.head = Buffer.alloc(0);
    } else if (this.head.length > HEAD_MAX) {
      this.head = this.head.subarray(0, HEAD_MAX);
    }
  }

  /** What the image says about itself, once every chunk was fed. */
  facts(): ImageFacts {
    const [first = "", second = ""] = this.lines ?? [];
    const m = /^RFIMG component=(\S+) version=(\S+)\r?$/.exec(first);
    const component = COMPONENTS.find((c) => c === m?.[1]);
    const sig = /^SIG sha256=([0-9a-f]{64})\r?$/.exec(second)?.[1];
    const signed = this.lines !== undefined && sig === this.hash.copy().digest("hex");
    return { size: this.size, ...(component && m ? { component, version: m[2] } : {}), signed };
  }
}

/** A lab firmware image (for tests and demos): header, signature line (valid unless told otherwise), payload. */
export function labFirmwareImage(opts: {
  readonly component: Component;
  readonly version: string;
  readonly payload?: Buffer | string;
  /** "valid" (default), "wrong" (a digest of something else) or "none" (no SIG line: the payload follows at once). */
  readonly signature?: "valid" | "wrong" | "none";
}): Buffer {
  const payload = Buffer.from(opts.payload ?? `lab ${opts.component} firmware ${opts.version}\n`);
  const digest = createHash("sha256")
    .update(opts.signature === "wrong" ? Buffer.concat([payload, Buffer.from("x")]) : payload)
    .digest("hex");
  const sig = opts.signature === "none" ? "" : `SIG sha256=${digest}\n`;
  return Buffer.concat([Buffer.from(`RFIMG component=${opts.component} version=${opts.version}\n${sig}`), payload]);
}
