import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zipBytes } from './zip.ts';

interface Read {
  path: string;
  data: Buffer;
  mode: number;
  madeBy: number;
  dosDate: number;
}

/** A reader written from the format (central directory, then each local header), independent of the writer. */
function readZip(zip: Buffer): Read[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: Read[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const path = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const body = zip.subarray(local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)).subarray(0, size);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    expect(crc32(data) >>> 0, path).toBe(crc);
    out.push({ path, data, mode: zip.readUInt32LE(at + 38) >>> 16, madeBy: zip.readUInt16LE(at + 4) >> 8, dosDate: zip.readUInt16LE(at + 14) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

describe('zipBytes', () => {
  const big = Buffer.from('export const handler = async () => 1;\n'.repeat(200));
  const entries = [
    { path: 'functions/orders.mjs', data: big },
    { path: 'functions/orders.mjs.map', data: Buffer.from('{}') },
    { path: 'index.cjs', data: Buffer.alloc(0) },
  ];

  it('holds each file with its bytes, and a directory entry for each parent', () => {
    const read = readZip(zipBytes(entries));
    expect(read.map((r) => r.path)).toEqual(['functions/', 'functions/orders.mjs', 'functions/orders.mjs.map', 'index.cjs']);
    expect(read.find((r) => r.path === 'functions/orders.mjs')!.data.equals(big)).toBe(true);
    expect(read.find((r) => r.path === 'index.cjs')!.data.length).toBe(0);
  });

  it('is compressed where that helps', () => {
    expect(zipBytes(entries).length).toBeLessThan(big.length / 10);
  });

  it('gives Unix modes (0644 files, 0755 directories, made by Unix) and one fixed date, whatever machine wrote it', () => {
    const read = readZip(zipBytes(entries));
    expect(read.map((r) => [r.path, r.mode.toString(8), r.madeBy])).toEqual([
      ['functions/', '40755', 3],
      ['functions/orders.mjs', '100644', 3],
      ['functions/orders.mjs.map', '100644', 3],
      ['index.cjs', '100644', 3],
    ]);
    expect(new Set(read.map((r) => r.dosDate))).toEqual(new Set([(1 << 5) | 1]));
  });

  it('gives the same bytes for the same files in any order, with either separator', () => {
    const shuffled = [entries[2]!, { ...entries[0]!, path: 'functions\\orders.mjs' }, entries[1]!];
    expect(zipBytes(shuffled).equals(zipBytes(entries))).toBe(true);
  });

  it('refuses a path that climbs out or is given twice', () => {
    expect(() => zipBytes([{ path: '../x.js', data: Buffer.alloc(1) }])).toThrow(/not a plain relative path/);
    expect(() => zipBytes([{ path: 'a.js', data: Buffer.alloc(1) }, { path: 'a.js', data: Buffer.alloc(2) }])).toThrow(/given twice/);
  });
});
