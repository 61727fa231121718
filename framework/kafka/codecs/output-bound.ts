/**
 * Pure: the most bytes a compressed payload can decompress to, read from its framing alone, so a
 * bomb is refused before a single byte of it is inflated (README, "Bounds on hostile input").
 * Exact up to one block: every block but the last of an honest payload is full.
 *
 * - LZ4 frame: a block stored uncompressed is its size; a compressed one at most the frame's
 *   declared block maximum (64 KB–4 MB), and at most 255 bytes per byte of it.
 * - zstd frame: a raw block is its size, an RLE block its declared size, a compressed block at
 *   most 128 KB (Block_Maximum_Size, RFC 8878 §3.1.1.2.4).
 * - snappy block: the uncompressed length its preamble declares (the library checks it).
 *
 * Skippable frames of either format contribute nothing. Framing that is not what the format
 * defines throws, as the decompressor would.
 */
export class DecompressionBoundError extends Error {
  override readonly name = 'DecompressionBoundError';
}

const SKIPPABLE_MIN = 0x184d2a50;
const SKIPPABLE_MAX = 0x184d2a5f;
const LZ4_MAGIC = 0x184d2204;
const ZSTD_MAGIC = 0xfd2fb528;
const LZ4_BLOCK_MAX: Record<number, number> = { 4: 64 * 1024, 5: 256 * 1024, 6: 1024 * 1024, 7: 4 * 1024 * 1024 };
const ZSTD_BLOCK_MAX = 128 * 1024;
const LZ4_MAX_RATIO = 255;

class Cursor {
  at = 0;
  constructor(
    readonly b: Buffer,
    readonly format: string,
  ) {}
  need(n: number): void {
    if (this.at + n > this.b.length) throw new DecompressionBoundError(`${this.format} framing cut short at byte ${this.at} of ${this.b.length}`);
  }
  u8(): number {
    this.need(1);
    return this.b[this.at++]!;
  }
  u32(): number {
    this.need(4);
    const v = this.b.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  skip(n: number): void {
    this.need(n);
    this.at += n;
  }
  get done(): boolean {
    return this.at >= this.b.length;
  }
}

/** Skips a skippable frame if one starts here (its magic already read); true if it did. */
function skippable(c: Cursor, magic: number): boolean {
  if (magic < SKIPPABLE_MIN || magic > SKIPPABLE_MAX) return false;
  c.skip(c.u32());
  return true;
}

export function lz4OutputBound(payload: Buffer): number {
  const c = new Cursor(payload, 'LZ4');
  let total = 0;
  while (!c.done) {
    const magic = c.u32();
    if (skippable(c, magic)) continue;
    if (magic !== LZ4_MAGIC) throw new DecompressionBoundError(`not an LZ4 frame: magic 0x${magic.toString(16)} at byte ${c.at - 4}`);
    const flg = c.u8();
    const blockMax = LZ4_BLOCK_MAX[(c.u8() >> 4) & 0x7];
    if ((flg >> 6) !== 1 || blockMax === undefined) throw new DecompressionBoundError('an LZ4 frame descriptor of an unknown version or block size');
    c.skip((flg & 0x08 ? 8 : 0) + (flg & 0x01 ? 4 : 0) + 1); // content size, dictionary id, header checksum
    for (;;) {
      const word = c.u32();
      if (word === 0) break; // EndMark
      const size = word & 0x7fffffff;
      // An LZ4 sequence yields at most 255 bytes per input byte (its match-length bytes).
      total += word & 0x80000000 ? size : Math.min(blockMax, LZ4_MAX_RATIO * size + LZ4_MAX_RATIO);
      c.skip(size + (flg & 0x10 ? 4 : 0));
    }
    if (flg & 0x04) c.skip(4); // content checksum
  }
  return total;
}

export function zstdOutputBound(payload: Buffer): number {
  const c = new Cursor(payload, 'zstd');
  let total = 0;
  while (!c.done) {
    const magic = c.u32();
    if (skippable(c, magic)) continue;
    if (magic !== ZSTD_MAGIC) throw new DecompressionBoundError(`not a zstd frame: magic 0x${magic.toString(16)} at byte ${c.at - 4}`);
    const fhd = c.u8();
    const singleSegment = (fhd >> 5) & 1;
    const fcsFlag = fhd >> 6;
    c.skip((singleSegment ? 0 : 1) + [0, 1, 2, 4][fhd & 0x03]! + [singleSegment, 2, 4, 8][fcsFlag]!);
    for (;;) {
      c.need(3);
      const header = c.b.readUIntLE(c.at, 3);
      c.at += 3;
      const type = (header >> 1) & 0x03;
      const size = header >>> 3;
      if (type === 3) throw new DecompressionBoundError('a zstd block of the reserved type');
      total += type === 2 ? ZSTD_BLOCK_MAX : size;
      c.skip(type === 1 ? 1 : size);
      if (header & 1) break; // Last_Block
    }
    if ((fhd >> 2) & 1) c.skip(4); // content checksum
  }
  return total;
}

/** A raw snappy block's declared uncompressed length (its varint preamble). */
export function snappyBlockLength(block: Buffer): number {
  let value = 0;
  for (let i = 0; i < 5 && i < block.length; i++) {
    const byte = block[i]!;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return value;
  }
  throw new DecompressionBoundError('a snappy block without a valid length preamble');
}

/** Throws when `bound` (what the framing allows) is over `limit`. */
export function checkBound(codec: string, bound: number, limit: number): void {
  if (bound > limit) throw new DecompressionBoundError(`the ${codec} payload would decompress to ${bound > 2 ** 40 ? 'over a terabyte' : `up to ${bound} bytes`}, over the bound of ${limit} (maxDecompressedBytes)`);
}
