/**
 * A minimal MessagePack writer and reader, byte-compatible with what go-cty emits (vmihailenco/msgpack with compact
 * ints). Hand-written rather than a general library because the codec decodes against a cty type, must treat every
 * extension as an unknown, needs int64 precision, and must accept any map key (a general decoder rejects "__proto__").
 */

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder("utf-8", { fatal: true });

/** Appends MessagePack items to a growable buffer. */
export class MsgpackWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  /** The bytes written so far. */
  bytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  private u8(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  private u16(n: number): void {
    this.ensure(2);
    this.view.setUint16(this.len, n);
    this.len += 2;
  }

  private u32(n: number): void {
    this.ensure(4);
    this.view.setUint32(this.len, n);
    this.len += 4;
  }

  nil(): void {
    this.u8(0xc0);
  }

  bool(b: boolean): void {
    this.u8(b ? 0xc3 : 0xc2);
  }

  /** A code byte followed by a big-endian unsigned length or value of 1, 2 or 4 bytes. */
  private head(code: number, size: 1 | 2 | 4, n: number): void {
    this.u8(code);
    if (size === 1) this.u8(n);
    else if (size === 2) this.u16(n);
    else this.u32(n);
  }

  /** A length-prefixed item: fix form below `fixLimit`, else the 8/16/32-bit code that fits. */
  private sized(n: number, fix: number, fixLimit: number, codes: readonly [number, number, number]): void {
    if (n < fixLimit) this.u8(fix | n);
    else if (n <= 0xff && codes[0] >= 0) this.head(codes[0], 1, n);
    else if (n <= 0xffff) this.head(codes[1], 2, n);
    else this.head(codes[2], 4, n);
  }

  /** An integer in the smallest form, as go's compact encoding does: non-negatives as uint, negatives as int. */
  int(n: bigint): void {
    this.ensure(9);
    if (n < -0x8000000000000000n || n > 0xffffffffffffffffn) {
      throw new RangeError(`integer ${n} does not fit in 64 bits`);
    }
    if (n >= 0n) {
      if (n <= 0x7fn) this.u8(Number(n));
      else if (n <= 0xffn) this.head(0xcc, 1, Number(n));
      else if (n <= 0xffffn) this.head(0xcd, 2, Number(n));
      else if (n <= 0xffffffffn) this.head(0xce, 4, Number(n));
      else {
        this.u8(0xcf);
        this.view.setBigUint64(this.len, n);
        this.len += 8;
      }
    } else if (n >= -32n) this.u8(Number(n) & 0xff);
    else if (n >= -0x80n) this.head(0xd0, 1, Number(n) & 0xff);
    else if (n >= -0x8000n) this.head(0xd1, 2, Number(n) & 0xffff);
    else if (n >= -0x80000000n) this.head(0xd2, 4, Number(n) >>> 0);
    else {
      this.u8(0xd3);
      this.view.setBigInt64(this.len, n);
      this.len += 8;
    }
  }

  float64(n: number): void {
    this.ensure(9);
    this.u8(0xcb);
    this.view.setFloat64(this.len, n);
    this.len += 8;
  }

  str(s: string): void {
    if (s.length <= 64) {
      let i = 0;
      while (i < s.length && s.charCodeAt(i) < 0x80) i++;
      if (i === s.length) {
        this.sized(s.length, 0xa0, 32, [0xd9, 0xda, 0xdb]);
        this.ensure(s.length);
        for (let j = 0; j < s.length; j++) this.buf[this.len++] = s.charCodeAt(j);
        return;
      }
    }
    const b = textEncoder.encode(s);
    this.sized(b.length, 0xa0, 32, [0xd9, 0xda, 0xdb]);
    this.raw(b);
  }

  bin(b: Uint8Array): void {
    this.sized(b.length, 0, 0, [0xc4, 0xc5, 0xc6]);
    this.raw(b);
  }

  arrayHeader(n: number): void {
    this.sized(n, 0x90, 16, [-1, 0xdc, 0xdd]);
  }

  mapHeader(n: number): void {
    this.sized(n, 0x80, 16, [-1, 0xde, 0xdf]);
  }

  ext(type: number, data: Uint8Array): void {
    const fixed: Record<number, number> = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 };
    const code = fixed[data.length];
    if (code !== undefined) this.u8(code);
    else this.sized(data.length, 0, 0, [0xc7, 0xc8, 0xc9]);
    this.u8(type & 0xff);
    this.raw(data);
  }
}

/** What kind of item comes next, enough to dispatch a type-directed decode. */
export type MsgpackKind = "nil" | "bool" | "int" | "float" | "str" | "bin" | "array" | "map" | "ext";

/** Reads MessagePack items from a byte array; throws a descriptive Error on malformed or unexpected input. */
export class MsgpackReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** True when every byte has been consumed. */
  done(): boolean {
    return this.pos >= this.buf.length;
  }

  get offset(): number {
    return this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new Error(`msgpack: truncated input at byte ${this.pos}`);
  }

  private byte(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  peekKind(): MsgpackKind {
    this.need(1);
    const b = this.buf[this.pos];
    if (b <= 0x7f || b >= 0xe0) return "int";
    if (b <= 0x8f) return "map";
    if (b <= 0x9f) return "array";
    if (b <= 0xbf) return "str";
    switch (b) {
      case 0xc0:
        return "nil";
      case 0xc2:
      case 0xc3:
        return "bool";
      case 0xc4:
      case 0xc5:
      case 0xc6:
        return "bin";
      case 0xc7:
      case 0xc8:
      case 0xc9:
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:
        return "ext";
      case 0xca:
      case 0xcb:
        return "float";
      case 0xd9:
      case 0xda:
      case 0xdb:
        return "str";
      case 0xdc:
      case 0xdd:
        return "array";
      case 0xde:
      case 0xdf:
        return "map";
      case 0xc1:
        throw new Error(`msgpack: reserved byte 0xc1 at ${this.pos}`);
      default:
        return "int";
    }
  }

  private expect(kind: MsgpackKind, what: string): void {
    const k = this.peekKind();
    if (k !== kind) throw new Error(`msgpack: ${what} is required, found ${k} at byte ${this.pos}`);
  }

  nil(): void {
    this.expect("nil", "nil");
    this.pos++;
  }

  bool(): boolean {
    this.expect("bool", "a bool");
    return this.byte() === 0xc3;
  }

  int(): bigint {
    this.expect("int", "an integer");
    const b = this.byte();
    if (b <= 0x7f) return BigInt(b);
    if (b >= 0xe0) return BigInt(b - 0x100);
    // 0xcc-0xcf unsigned, 0xd0-0xd3 signed, each of 1, 2, 4 or 8 bytes.
    const size = 1 << ((b - 0xcc) & 3);
    this.need(size);
    const at = this.pos;
    this.pos += size;
    switch (b) {
      case 0xcc:
        return BigInt(this.view.getUint8(at));
      case 0xcd:
        return BigInt(this.view.getUint16(at));
      case 0xce:
        return BigInt(this.view.getUint32(at));
      case 0xcf:
        return this.view.getBigUint64(at);
      case 0xd0:
        return BigInt(this.view.getInt8(at));
      case 0xd1:
        return BigInt(this.view.getInt16(at));
      case 0xd2:
        return BigInt(this.view.getInt32(at));
      default:
        return this.view.getBigInt64(at);
    }
  }

  /** An integer as a number when it has at most 32 bits (always exact), else as a bigint. */
  intValue(): number | bigint {
    this.need(1);
    const b = this.buf[this.pos];
    if (b <= 0x7f) {
      this.pos++;
      return b;
    }
    if (b >= 0xe0) {
      this.pos++;
      return b - 0x100;
    }
    if (b === 0xcf || b === 0xd3) return this.int();
    const v = this.int();
    return Number(v);
  }

  float(): number {
    this.expect("float", "a float");
    const b = this.byte();
    const size = b === 0xca ? 4 : 8;
    this.need(size);
    const v = size === 4 ? this.view.getFloat32(this.pos) : this.view.getFloat64(this.pos);
    this.pos += size;
    return v;
  }

  /** Reads a length: a fix-form (`b & ~mask === fix`) or one of three codes followed by 1, 2 or 4 bytes. */
  private length(fix: number, mask: number, codes: readonly [number, number, number]): number {
    const b = this.byte();
    if (fix >= 0 && (b & ~mask) === fix) return b & mask;
    const size = b === codes[0] ? 1 : b === codes[1] ? 2 : b === codes[2] ? 4 : 0;
    if (size === 0) throw new Error(`msgpack: unexpected byte 0x${b.toString(16)} at ${this.pos - 1}`);
    this.need(size);
    const n =
      size === 1
        ? this.view.getUint8(this.pos)
        : size === 2
          ? this.view.getUint16(this.pos)
          : this.view.getUint32(this.pos);
    this.pos += size;
    return n;
  }

  private take(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  str(): string {
    this.expect("str", "a string");
    const n = this.length(0xa0, 0x1f, [0xd9, 0xda, 0xdb]);
    // Short ASCII strings (attribute names, most values) skip TextDecoder, which costs more than the copy.
    if (n <= 64) {
      this.need(n);
      let ascii = "";
      let i = this.pos;
      const end = this.pos + n;
      for (; i < end && this.buf[i] < 0x80; i++) ascii += String.fromCharCode(this.buf[i]);
      if (i === end) {
        this.pos = end;
        return ascii;
      }
    }
    try {
      return textDecoder.decode(this.take(n));
    } catch {
      throw new Error(`msgpack: string at byte ${this.pos - n} is not valid UTF-8`);
    }
  }

  bin(): Uint8Array {
    this.expect("bin", "binary data");
    return this.take(this.length(-1, 0, [0xc4, 0xc5, 0xc6]));
  }

  arrayHeader(): number {
    this.expect("array", "an array");
    return this.length(0x90, 0x0f, [-1, 0xdc, 0xdd]);
  }

  mapHeader(): number {
    this.expect("map", "a map");
    return this.length(0x80, 0x0f, [-1, 0xde, 0xdf]);
  }

  ext(): { type: number; data: Uint8Array } {
    this.expect("ext", "an extension");
    const b = this.byte();
    // fixext 1, 2, 4, 8, 16 are 0xd4-0xd8.
    let n: number | undefined = b >= 0xd4 && b <= 0xd8 ? 1 << (b - 0xd4) : undefined;
    if (n === undefined) {
      this.pos--;
      n = this.length(-1, 0, [0xc7, 0xc8, 0xc9]);
    }
    this.need(1);
    const type = this.view.getInt8(this.pos++);
    return { type, data: this.take(n) };
  }

  /** Skips one whole item, however deeply nested. */
  skip(): void {
    switch (this.peekKind()) {
      case "nil":
        this.nil();
        return;
      case "bool":
        return void this.bool();
      case "int":
        return void this.int();
      case "float":
        return void this.float();
      case "str":
        return void this.str();
      case "bin":
        return void this.bin();
      case "ext":
        return void this.ext();
      case "array":
        for (let n = this.arrayHeader(); n > 0; n--) this.skip();
        return;
      case "map":
        for (let n = this.mapHeader() * 2; n > 0; n--) this.skip();
        return;
    }
  }
}
