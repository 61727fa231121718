/**
 * Kafka's flexible wire format (KIP-482), the one every share-group RPC uses: compact strings,
 * arrays and bytes (length + 1 as an unsigned varint, 0 for null), UUIDs and tagged fields. kafkajs
 * 2.2.4 frames, authenticates and sends the requests (its connection); it encodes no flexible
 * version, so the bodies are written and read here. Its request header is v1: a flexible request's
 * header v2 adds an empty tagged-field section after the client id, which Writer.request() writes as
 * the body's first byte; a flexible response's header v1 adds one after the correlation id, which
 * Reader.response() skips.
 */

export class Writer {
  private buf = Buffer.allocUnsafe(256);
  private at = 0;

  /** A flexible request body, starting with the header's empty tagged fields. */
  static request(): Writer {
    return new Writer().u8(0);
  }

  /** What kafkajs's connection takes as an encoded request body (it reads `buf` and `buffer`). */
  encoded(): { buf: Buffer; buffer: Buffer } {
    const b = this.buf.subarray(0, this.at);
    return { buf: b, buffer: b };
  }

  u8(v: number): this {
    this.room(1);
    this.buf.writeUInt8(v, this.at++);
    return this;
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  i8(v: number): this {
    this.room(1);
    this.buf.writeInt8(v, this.at++);
    return this;
  }
  i16(v: number): this {
    this.room(2);
    this.at = this.buf.writeInt16BE(v, this.at);
    return this;
  }
  i32(v: number): this {
    this.room(4);
    this.at = this.buf.writeInt32BE(v, this.at);
    return this;
  }
  i64(v: bigint): this {
    this.room(8);
    this.at = this.buf.writeBigInt64BE(v, this.at);
    return this;
  }
  uvarint(v: number): this {
    this.room(5);
    let n = v >>> 0;
    while (n >= 0x80) {
      this.buf[this.at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.at++] = n;
    return this;
  }
  /** COMPACT_STRING, or COMPACT_NULLABLE_STRING with null. */
  string(s: string | null): this {
    if (s === null) return this.uvarint(0);
    const bytes = Buffer.from(s, 'utf8');
    this.uvarint(bytes.length + 1);
    this.room(bytes.length);
    this.at += bytes.copy(this.buf, this.at);
    return this;
  }
  uuid(hex: string): this {
    const bytes = uuidBytes(hex);
    this.room(16);
    this.at += bytes.copy(this.buf, this.at);
    return this;
  }
  /** COMPACT_ARRAY (COMPACT_NULLABLE_ARRAY with null), each item written by `item`. */
  array<T>(items: readonly T[] | null, item: (w: this, x: T) => void): this {
    if (items === null) return this.uvarint(0);
    this.uvarint(items.length + 1);
    for (const x of items) item(this, x);
    return this;
  }
  /** An empty tagged-field section: every struct of a flexible version ends with one. */
  tags(): this {
    return this.uvarint(0);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
}

export class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  /** A flexible response's body: its header's tagged fields (after the correlation id kafkajs read) skipped. */
  static response(payload: Buffer): Reader {
    const r = new Reader(payload);
    r.tags();
    return r;
  }

  u8(): number {
    this.need(1);
    return this.buf.readUInt8(this.at++);
  }
  i8(): number {
    this.need(1);
    return this.buf.readInt8(this.at++);
  }
  bool(): boolean {
    return this.u8() !== 0;
  }
  i16(): number {
    this.need(2);
    const v = this.buf.readInt16BE(this.at);
    this.at += 2;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.buf.readInt32BE(this.at);
    this.at += 4;
    return v;
  }
  i64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64BE(this.at);
    this.at += 8;
    return v;
  }
  uvarint(): number {
    let v = 0;
    for (let shift = 0; shift <= 28; shift += 7) {
      const b = this.u8();
      v |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v >>> 0;
    }
    throw new Error('a varint in the response is longer than 5 bytes');
  }
  string(): string | null {
    const n = this.uvarint();
    if (n === 0) return null;
    return this.bytesOf(n - 1).toString('utf8');
  }
  uuid(): string {
    return this.bytesOf(16).toString('hex');
  }
  /** COMPACT_BYTES / COMPACT_RECORDS: a view into the response, not a copy. */
  bytes(): Buffer | null {
    const n = this.uvarint();
    return n === 0 ? null : this.bytesOf(n - 1);
  }
  array<T>(item: (r: Reader) => T): T[] {
    const n = this.uvarint();
    const out: T[] = [];
    for (let i = 1; i < n; i++) out.push(item(this));
    return out;
  }
  /** Skips a tagged-field section (none of the fields this client reads is tagged). */
  tags(): void {
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint(); // tag
      this.bytesOf(this.uvarint());
    }
  }

  private bytesOf(n: number): Buffer {
    this.need(n);
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }
  private need(n: number): void {
    if (this.at + n > this.buf.length) throw new Error(`the response ends ${this.at + n - this.buf.length} bytes early`);
  }
}

/** A topic id as Kafka prints it is base64url; on the wire it is 16 bytes; here it is 32 hex digits. */
function uuidBytes(hex: string): Buffer {
  const b = Buffer.from(hex, 'hex');
  if (b.length !== 16) throw new Error(`a topic id is 16 bytes (32 hex digits), not "${hex}"`);
  return b;
}
