import { describe, expect, it } from 'vitest';
import { boundedCodecs, codecs } from './index.ts';
import { DecompressionBoundError, lz4OutputBound, zstdOutputBound } from './output-bound.ts';

const MiB = 1024 * 1024;
const small = boundedCodecs(MiB);

/** A zstd frame of `blocks` RLE blocks of 128 KB each, 4 bytes apiece: 32 GB from 1 MB at 250,000 blocks. */
function zstdRleBomb(blocks: number): Buffer {
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58]); // magic, no FCS, window 128 MB-ish descriptor
  const block = (last: boolean) => {
    const h = ((128 * 1024) << 3) | (1 << 1) | (last ? 1 : 0);
    return Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff, 0x61]);
  };
  return Buffer.concat([header, ...Array.from({ length: blocks }, (_, i) => block(i === blocks - 1))]);
}

describe('decompression bounds', () => {
  it.each(['gzip', 'snappy', 'lz4', 'zstd'] as const)('%s: refuses a payload that inflates past the bound, reads one under it', async (name) => {
    const bomb = await codecs[name].compress({ buffer: Buffer.alloc(4 * MiB) });
    await expect(small[name].decompress(bomb)).rejects.toThrow(/maxDecompressedBytes/);
    const fits = await codecs[name].compress({ buffer: Buffer.alloc(MiB - 64 * 1024, 1) });
    expect((await small[name].decompress(fits)).length).toBe(MiB - 64 * 1024);
  });

  it('reads a zstd RLE bomb as 32 GB from its framing alone, without inflating it', async () => {
    const bomb = zstdRleBomb(250_000);
    expect(bomb.length).toBeLessThan(1.1 * MiB);
    expect(zstdOutputBound(bomb)).toBe(250_000 * 128 * 1024);
    await expect(codecs.zstd.decompress(bomb)).rejects.toBeInstanceOf(DecompressionBoundError);
    // A small frame of the same construction is real zstd: libzstd reads it to exactly what the bound said.
    const ok = zstdRleBomb(3);
    expect((await codecs.zstd.decompress(ok)).equals(Buffer.alloc(3 * 128 * 1024, 0x61))).toBe(true);
  });

  it('bounds an LZ4 frame by its blocks, exact up to one block for what lz4 writes', async () => {
    const data = Buffer.alloc(3 * MiB, 7);
    const frame = await codecs.lz4.compress({ buffer: data });
    const bound = lz4OutputBound(frame);
    expect(bound).toBeGreaterThanOrEqual(data.length);
    expect(bound - data.length).toBeLessThanOrEqual(4 * MiB);
  });

  it('refuses framing that is not the format, as the decompressor would', () => {
    expect(() => zstdOutputBound(Buffer.from('not zstd at all'))).toThrow(/not a zstd frame/);
    expect(() => lz4OutputBound(Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x64]))).toThrow(/cut short/);
  });
});
