import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_METADATA_MAX_BYTES, METADATA_PREFIX, decodeMetadata, encodeMetadata, windowFor } from './commit-metadata.ts';
import { clampRanges, rangesOf, type OffsetRange } from './done-ranges.ts';

/** Sorted, disjoint ranges above `base`, from gaps and lengths. */
const rangesFrom = (base: number, runs: Array<[gap: number, length: number]>): OffsetRange[] => {
  const ranges: OffsetRange[] = [];
  let at = base + 1;
  for (const [gap, length] of runs) {
    const from = at + gap + (ranges.length > 0 ? 1 : 0);
    ranges.push({ from, until: from + length - 1 });
    at = from + length;
  }
  return ranges;
};
const arbitraryRuns = (maxGap: number, maxLength: number, maxRuns: number) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: maxGap }), fc.integer({ min: 1, max: maxLength })), { maxLength: maxRuns });
const arbitraryBase = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER - 1_000_000 }));

describe('commit metadata', () => {
  it('round-trips what is done beyond the committed offset, within the window', () => {
    fc.assert(
      fc.property(arbitraryBase, arbitraryRuns(3_000, 3_000, 40), fc.integer({ min: 64, max: 8_192 }), (base, runs, maxBytes) => {
        const ranges = rangesFrom(base, runs);
        const metadata = encodeMetadata(base, ranges, maxBytes);
        const expected = clampRanges(ranges, base + windowFor(maxBytes));
        if (expected.length === 0) {
          expect(metadata).toBeNull();
          return;
        }
        expect(metadata!.startsWith(METADATA_PREFIX)).toBe(true);
        expect(decodeMetadata(metadata, base)).toEqual({ kind: 'done', ranges: expected });
      }),
    );
  });

  it('never exceeds the byte bound, even for the worst case (every other offset done across the whole window)', () => {
    for (const maxBytes of [32, 64, 100, 1_000, DEFAULT_METADATA_MAX_BYTES, 10_000]) {
      for (const base of [0, 5, 2 ** 40, Number.MAX_SAFE_INTEGER - 100_000]) {
        const window = windowFor(maxBytes);
        const alternate = Array.from({ length: Math.ceil(window / 2) + 10 }, (_, i) => base + 1 + 2 * i);
        for (const ranges of [rangesOf(alternate), [{ from: base + 1, until: base + window + 50 }], [{ from: base + window, until: base + window }]]) {
          const metadata = encodeMetadata(base, ranges, maxBytes);
          expect(Buffer.byteLength(metadata ?? '')).toBeLessThanOrEqual(maxBytes);
          if (window > 0) expect(decodeMetadata(metadata, base)).toEqual({ kind: 'done', ranges: clampRanges(ranges, base + window) });
        }
      }
    }
  });

  it('covers 24,432 offsets beyond the committed one at the default 4,096 bytes', () => {
    expect(windowFor(DEFAULT_METADATA_MAX_BYTES)).toBe(24_432);
    const worst = encodeMetadata(7, rangesOf(Array.from({ length: 12_216 }, (_, i) => 8 + 2 * i)));
    expect(worst!.length).toBeLessThanOrEqual(4_096);
  });

  it('writes runs when they are shorter than the bitmap, and a bitmap when it is', () => {
    const sparse = encodeMetadata(100, [{ from: 20_000, until: 20_000 }])!;
    expect(sparse.length).toBeLessThan(METADATA_PREFIX.length + 12);
    const dense = encodeMetadata(100, rangesOf(Array.from({ length: 200 }, (_, i) => 101 + 2 * i)))!;
    expect(Buffer.from(dense.slice(METADATA_PREFIX.length), 'base64url')[0]).toBe(0x42);
    expect(Buffer.from(sparse.slice(METADATA_PREFIX.length), 'base64url')[0]).toBe(0x52);
  });

  it('commits no metadata when nothing is done within the window', () => {
    expect(encodeMetadata(10, [])).toBeNull();
    expect(encodeMetadata(10, [{ from: 10 + windowFor(DEFAULT_METADATA_MAX_BYTES) + 1, until: 10 ** 6 }])).toBeNull();
  });

  it('refuses ranges that are unsorted, overlapping or not above the committed offset (a caller bug)', () => {
    expect(() => encodeMetadata(10, [{ from: 10, until: 12 }])).toThrow(RangeError);
    expect(() => encodeMetadata(10, [{ from: 15, until: 16 }, { from: 12, until: 13 }])).toThrow(RangeError);
    expect(() => encodeMetadata(10, [{ from: 12, until: 14 }, { from: 14, until: 15 }])).toThrow(RangeError);
    expect(() => encodeMetadata(10, [{ from: 13, until: 12 }])).toThrow(RangeError);
  });

  it('reads no metadata, another client\'s, a damaged one and one beside another offset as what they are', () => {
    const ours = encodeMetadata(41, [{ from: 43, until: 45 }])!;
    expect(decodeMetadata(null, 41)).toEqual({ kind: 'none' });
    expect(decodeMetadata('', 41)).toEqual({ kind: 'none' });
    for (const foreign of ['hello', 'consumer-1 @ 2024-01-01', 'Sluice:pf1:AA', ' sluice:pf1:UgEBAQ', '{"a":1}']) expect(decodeMetadata(foreign, 41)).toEqual({ kind: 'foreign' });
    expect(decodeMetadata(ours, 40)).toEqual({ kind: 'stale', base: 41 });
    expect(decodeMetadata(ours.replace('pf1', 'pf2'), 41)).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('unknown version') });
    expect(decodeMetadata(`${METADATA_PREFIX}not base64!`, 41)).toMatchObject({ kind: 'malformed', reason: 'not base64url' });
    expect(decodeMetadata(`${METADATA_PREFIX}A`, 41)).toMatchObject({ kind: 'malformed', reason: 'not base64url' });
    expect(decodeMetadata(METADATA_PREFIX, 41)).toMatchObject({ kind: 'malformed' });
    const b64 = (...bytes: number[]) => METADATA_PREFIX + Buffer.from(bytes).toString('base64url');
    expect(decodeMetadata(b64(0x52, 41, 1), 41)).toMatchObject({ kind: 'malformed', reason: 'a run is truncated' });
    expect(decodeMetadata(b64(0x52, 41, 1, 0), 41)).toMatchObject({ kind: 'malformed', reason: 'a run of length 0' });
    expect(decodeMetadata(b64(0x52, 41, 0, 1, 0, 1), 41)).toMatchObject({ kind: 'malformed', reason: 'a run of length 0' });
    expect(decodeMetadata(b64(0x42, 41, 0, 0), 41)).toMatchObject({ kind: 'malformed', reason: 'no offset marked done' });
    expect(decodeMetadata(b64(0x58, 41, 1), 41)).toMatchObject({ kind: 'malformed', reason: 'unknown body tag 88' });
    expect(decodeMetadata(b64(0x52, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 41)).toMatchObject({ kind: 'malformed' });
    const nearTop = Number.MAX_SAFE_INTEGER - 3;
    const topVarint = [0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]; // 2^53 - 4, unsigned LEB128
    expect(decodeMetadata(b64(0x42, ...topVarint, 0x03), nearTop)).toEqual({ kind: 'done', ranges: [{ from: nearTop + 1, until: nearTop + 2 }] });
    expect(decodeMetadata(b64(0x42, ...topVarint, 0xff, 0xff), nearTop)).toMatchObject({ kind: 'malformed', reason: 'an offset beyond 2^53' });
    expect(decodeMetadata(b64(0x52, ...topVarint, 0, 9), nearTop)).toMatchObject({ kind: 'malformed', reason: 'an offset beyond 2^53' });
  });

  it('reads a string committed through librdkafka, which can end in C\'s NUL terminator', () => {
    const metadata = encodeMetadata(3, [{ from: 5, until: 9 }])!;
    expect(decodeMetadata(`${metadata}\0`, 3)).toEqual({ kind: 'done', ranges: [{ from: 5, until: 9 }] });
    expect(decodeMetadata('\0', 3)).toEqual({ kind: 'none' });
  });

  it('never throws on any string, and reads only well-formed ranges above the committed offset', () => {
    const ownish = fc.oneof(fc.string(), fc.base64String().map((s) => METADATA_PREFIX + s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')));
    fc.assert(
      fc.property(ownish, fc.integer({ min: 0, max: 2 ** 40 }), (metadata, committed) => {
        const decoded = decodeMetadata(metadata, committed);
        if (decoded.kind !== 'done') return;
        let after = committed;
        for (const r of decoded.ranges) {
          expect(r.from).toBeGreaterThan(after);
          expect(r.until).toBeGreaterThanOrEqual(r.from);
          expect(Number.isSafeInteger(r.until)).toBe(true);
          after = r.until;
        }
      }),
    );
  });
});
