/**
 * A streaming multipart/form-data reader (RFC 7578 over RFC 2046 §5.1): fed chunk by chunk, it hands each part's
 * headers and then its bytes to a consumer as they arrive, holding no more than a part's headers or a delimiter's
 * length at a time — so a pushed firmware image is never held whole.
 */
import { RedfishError } from "./errors.js";

/** One part's headers as the reader saw them. */
export interface PartInfo {
  /** The Content-Disposition `name`. */
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
}

/** What takes a part's bytes. */
export interface PartConsumer {
  data(chunk: Buffer): void;
  end(): void;
}

/** Part headers larger than this are refused. */
const MAX_PART_HEADERS = 8192;
const CRLF2 = Buffer.from("\r\n\r\n");

const malformed = (why: string) =>
  new RedfishError(400, "GeneralError", [`The multipart/form-data request body is malformed: ${why}.`]);

/** The boundary of a `multipart/form-data; boundary=…` content type, else undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

function parseHeaders(text: string): PartInfo {
  const headers = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  const disposition = headers.get("content-disposition") ?? "";
  if (!/^form-data\s*;/i.test(disposition)) throw malformed("a part has no Content-Disposition: form-data");
  const param = (k: string) => new RegExp(`;\\s*${k}="([^"]*)"`, "i").exec(disposition)?.[1];
  const name = param("name");
  if (name === undefined) throw malformed("a part has no name");
  const filename = param("filename");
  const contentType = headers.get("content-type");
  return { name, ...(filename !== undefined ? { filename } : {}), ...(contentType ? { contentType } : {}) };
}

/** Reads one multipart body; `open` is called for each part and gets its bytes. */
export class MultipartReader {
  private buf: Buffer = Buffer.alloc(0);
  private state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  private part: PartConsumer | undefined;
  private readonly delimiter: Buffer;
  /** CRLF + delimiter: what ends a part's body. */
  private readonly closing: Buffer;

  constructor(
    boundary: string,
    private readonly open: (info: PartInfo) => PartConsumer,
  ) {
    this.delimiter = Buffer.from(`--${boundary}`);
    this.closing = Buffer.from(`\r\n--${boundary}`);
  }

  /** Takes the next chunk of the body. */
  feed(chunk: Buffer): void {
    if (this.state === "done") return; // The epilogue is ignored.
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.step()) {
      // Each step consumes what it can; false when more bytes are needed.
    }
  }

  /** Ends the body; throws when the closing delimiter never came. */
  finish(): void {
    if (this.state !== "done") throw malformed("the closing boundary is missing");
  }

  private step(): boolean {
    switch (this.state) {
      case "preamble": {
        const i = this.buf.indexOf(this.delimiter);
        if (i < 0) {
          this.buf = this.buf.subarray(Math.max(0, this.buf.length - this.delimiter.length));
          return false;
        }
        this.buf = this.buf.subarray(i + this.delimiter.length);
        this.state = "after-delimiter";
        return true;
      }
      case "after-delimiter":
        return this.afterDelimiter();
      case "headers": {
        const i = this.buf.indexOf(CRLF2);
        if (i < 0) {
          if (this.buf.length > MAX_PART_HEADERS) throw malformed("part headers are too long");
          return false;
        }
        this.part = this.open(parseHeaders(this.buf.subarray(0, i).toString("utf8")));
        this.buf = this.buf.subarray(i + CRLF2.length);
        this.state = "body";
        return true;
      }
      case "body":
        return this.body();
      default:
        return false;
    }
  }

  private afterDelimiter(): boolean {
    if (this.buf.length < 2) return false;
    if (this.buf[0] === 0x2d && this.buf[1] === 0x2d) {
      this.state = "done";
      this.buf = Buffer.alloc(0);
      return false;
    }
    const eol = this.buf.indexOf("\r\n");
    if (eol < 0) return false;
    // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
    if (this.buf.subarray(0, eol).toString("latin1").trim() !== "") throw malformed("junk after a boundary");
    this.buf = this.buf.subarray(eol + 2);
    this.state = "headers";
    return true;
  }

  private body(): boolean {
    const part = this.part as PartConsumer;
    const i = this.buf.indexOf(this.closing);
    if (i < 0) {
      // Hand on all but what could be the start of the closing delimiter.
      const keep = Math.min(this.buf.length, this.closing.length - 1);
      if (this.buf.length > keep) part.data(this.buf.subarray(0, this.buf.length - keep));
      this.buf = this.buf.subarray(this.buf.length - keep);
      return false;
    }
    if (i > 0) part.data(this.buf.subarray(0, i));
    part.end();
    this.part = undefined;
    this.buf = this.buf.subarray(i + this.closing.length);
    this.state = "after-delimiter";
    return true;
  }
}
