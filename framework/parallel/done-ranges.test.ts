import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampRanges, committable, inRanges, rangesOf } from './done-ranges.ts';

describe('committable', () => {
  it('commits the lowest outstanding offset and reports the done ones beyond it', () => {
    expect(committable([3, 4, 9], 12)).toEqual({ next: 3, doneBeyond: [{ from: 5, until: 8 }, { from: 10, until: 11 }] });
    expect(committable([11], 12)).toEqual({ next: 11, doneBeyond: [] });
    expect(committable([], 12)).toEqual({ next: 12, doneBeyond: [] });
  });

  it('splits [next, end) exactly into the outstanding offsets and the done ranges', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000 }), fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }), fc.integer({ min: 0, max: 10 }), (start, rel, extra) => {
        const outstanding = rel.map((r) => start + r).sort((a, b) => a - b);
        const end = start + Math.max(-1, ...rel) + 1 + extra;
        const { next, doneBeyond } = committable(outstanding, end);
        expect(next).toBe(outstanding[0] ?? end);
        const open = new Set(outstanding);
        for (let o = next; o < end; o++) expect(inRanges(doneBeyond, o)).toBe(!open.has(o));
        expect(inRanges(doneBeyond, next)).toBe(false);
        expect(inRanges(doneBeyond, end)).toBe(false);
        for (let i = 1; i < doneBeyond.length; i++) expect(doneBeyond[i]!.from).toBeGreaterThan(doneBeyond[i - 1]!.until + 1);
      }),
    );
  });
});

describe('ranges', () => {
  it('groups sorted offsets into ranges and cuts them at a last offset', () => {
    expect(rangesOf([1, 2, 3, 5, 7, 8])).toEqual([{ from: 1, until: 3 }, { from: 5, until: 5 }, { from: 7, until: 8 }]);
    expect(rangesOf([])).toEqual([]);
    expect(clampRanges(rangesOf([1, 2, 3, 5, 7, 8]), 2)).toEqual([{ from: 1, until: 2 }]);
    expect(clampRanges(rangesOf([1, 2, 3, 5, 7, 8]), 6)).toEqual([{ from: 1, until: 3 }, { from: 5, until: 5 }]);
  });

  it('finds an offset in ranges as a set would', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 80 }), fc.integer({ min: -5, max: 205 }), (offsets, probe) => {
        const sorted = [...offsets].sort((a, b) => a - b);
        expect(inRanges(rangesOf(sorted), probe)).toBe(offsets.includes(probe));
      }),
    );
  });
});
