import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NULL_KEY, nextChunks, orderingKey, orderingKeyOf, type ScheduleInput } from './key-scheduler.ts';

interface Rec {
  offset: number;
  key: string;
}
const keyOf = (r: Rec) => r.key;
const recs = (keys: string[], start = 0): Rec[] => keys.map((key, i) => ({ offset: start + i, key }));
const offsets = (chunks: Rec[][]) => chunks.map((c) => c.map((r) => r.offset));
const plan = (pending: Rec[], o: Partial<ScheduleInput<Rec>> = {}) =>
  nextChunks({ pending, keyOf, held: new Set(), slots: 1, batchSize: 10, maxOffset: Number.MAX_SAFE_INTEGER, ...o });

/** A partition's pending records: increasing offsets with gaps, keys from a small set (so they repeat). */
const arbitraryPending = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', NULL_KEY)), { maxLength: 60 })
  .map((steps) => {
    let offset = 0;
    return steps.map(([gap, key]) => ({ offset: (offset += gap), key }));
  });
const arbitraryInput = fc.record({
  pending: arbitraryPending,
  held: fc.subarray(['a', 'b', 'c', 'd', 'e', 'f', NULL_KEY]).map((ks) => new Set(ks)),
  slots: fc.integer({ min: 0, max: 5 }),
  batchSize: fc.integer({ min: 1, max: 6 }),
  maxOffset: fc.integer({ min: 0, max: 200 }),
  maxBytes: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
});

describe('nextChunks', () => {
  it('keeps every rule for any partition, held keys, factor and batch size', () => {
    fc.assert(
      fc.property(arbitraryInput, ({ pending, held, slots, batchSize, maxOffset, maxBytes }) => {
        // A stand-in payload limit: record sizes that go up and down with the offset, a bound on their sum.
        const size = (r: Rec) => ((r.offset * 7) % 5) * 10 + 1;
        const fits = maxBytes === undefined ? undefined : (c: readonly Rec[], r: Rec) => c.reduce((s, x) => s + size(x), size(r)) <= maxBytes;
        const chunks = nextChunks({ pending, keyOf, held, slots, batchSize, maxOffset, ...(fits ? { fits } : {}) });
        expect(chunks.length).toBeLessThanOrEqual(slots);
        const chunkOfKey = new Map<string, number>();
        chunks.forEach((c, i) => {
          expect(c.length).toBeGreaterThan(0);
          expect(c.length).toBeLessThanOrEqual(batchSize);
          if (fits) c.forEach((r, j) => j === 0 || expect(fits(c.slice(0, j), r)).toBe(true));
          c.forEach((r, j) => j === 0 || expect(r.offset).toBeGreaterThan(c[j - 1]!.offset));
          for (const r of c) {
            expect(held.has(r.key)).toBe(false);
            expect(r.offset).toBeLessThanOrEqual(maxOffset);
            expect(chunkOfKey.get(r.key) ?? i).toBe(i); // a key is in one chunk only
            chunkOfKey.set(r.key, i);
          }
        });
        const chosen = new Set(chunks.flat());
        // Per key, what starts is a prefix of the key's pending records: offsets are invoked in order.
        for (const key of new Set(pending.map(keyOf))) {
          const ofKey = pending.filter((r) => r.key === key);
          const taken = ofKey.filter((r) => chosen.has(r)).length;
          expect(ofKey.slice(0, taken).every((r) => chosen.has(r))).toBe(true);
        }
        // The lowest record that may start does, so the committed offset keeps moving.
        const first = pending.find((r) => !held.has(r.key) && r.offset <= maxOffset);
        if (first && slots > 0) expect(chosen.has(first)).toBe(true);
        // Nothing that could start is left out while a slot or a chunk has room for it.
        if (!fits) {
          for (const r of pending) {
            if (chosen.has(r) || held.has(r.key) || r.offset > maxOffset) continue;
            if (pending.some((e) => e.key === r.key && e.offset < r.offset && !chosen.has(e))) continue; // its key waits on an earlier record
            const claimed = chunkOfKey.get(r.key);
            if (claimed !== undefined) expect(chunks[claimed]!.length).toBe(batchSize);
            else expect(chunks.length === slots && chunks.every((c) => c.length === batchSize)).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('runs ten chunks of ten at once for one partition of 100 keys (the benchmark\'s shape)', () => {
    const pending = recs(Array.from({ length: 300 }, (_, i) => `key-${i % 100}`));
    const chunks = plan(pending, { slots: 10 });
    expect(chunks.map((c) => c.length)).toEqual(Array(10).fill(10));
    // Each key's records together: key-0 (0, 100, 200), key-10, key-20, then what is left of room for key-30.
    expect(offsets(chunks)[0]).toEqual([0, 10, 20, 30, 100, 110, 120, 200, 210, 220]);
    expect(new Set(chunks.flat().map(keyOf)).size).toBe(40);
  });

  it('runs interleaved keys side by side: 8 keys, factor 4, batch size 10 (by offset, first fit, one chunk held them all)', () => {
    const pending = recs(Array.from({ length: 40 }, (_, i) => `k${i % 8}`));
    const chunks = plan(pending, { slots: 4, batchSize: 10 });
    expect(chunks.map((c) => c.length)).toEqual([10, 10, 10, 10]);
    expect(chunks.map((c) => [...new Set(c.map(keyOf))])).toEqual([['k0', 'k4'], ['k1', 'k5'], ['k2', 'k6'], ['k3', 'k7']]);
    expect(offsets(chunks)[0]).toEqual([0, 4, 8, 12, 16, 20, 24, 28, 32, 36]);
  });

  it('lets the other keys flow past a key that waits to retry (a poison record holds only its key)', () => {
    const pending = recs(['p', 'a', 'p', 'b', 'c', 'p', 'd'], 10);
    expect(offsets(plan(pending, { held: new Set(['p']), slots: 2, batchSize: 2 }))).toEqual([[11, 14], [13, 16]]);
  });

  it('keeps a key\'s later records out of other chunks while its chunk is full', () => {
    const pending = recs(['a', 'a', 'a', 'b', 'a', 'c']);
    expect(offsets(plan(pending, { slots: 3, batchSize: 2 }))).toEqual([[0, 1], [3], [5]]);
  });

  it('keeps a key\'s small later record out when its larger earlier one did not fit (the payload limit)', () => {
    const sizes = new Map([[0, 20], [1, 40], [2, 10]]);
    const fits = (c: readonly Rec[], r: Rec) => c.reduce((s, x) => s + sizes.get(x.offset)!, sizes.get(r.offset)!) <= 32;
    expect(offsets(plan(recs(['a', 'c', 'c']), { fits }))).toEqual([[0]]);
    expect(offsets(plan(recs(['a', 'c', 'd']), { fits }))).toEqual([[0, 2]]);
  });

  it('is the partition order of today with one slot and one key', () => {
    const pending = recs(Array(25).fill('k'));
    expect(offsets(plan(pending, { slots: 1, batchSize: 10 }))).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  });

  it('starts nothing beyond the metadata window, and nothing without a free slot', () => {
    const pending = recs(['a', 'b', 'c', 'd'], 100);
    expect(offsets(plan(pending, { slots: 4, batchSize: 1, maxOffset: 101 }))).toEqual([[100], [101]]);
    expect(plan(pending, { slots: 0 })).toEqual([]);
    expect(plan(pending, { maxOffset: 99 })).toEqual([]);
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => plan(recs(['a']), { batchSize: 0 })).toThrow(RangeError);
  });
});

describe('orderingKey', () => {
  it('orders by the key\'s bytes as read, and gives every null key one key of its own', () => {
    expect(orderingKey({ key: null })).toBe(NULL_KEY);
    expect(orderingKey({ key: Buffer.from('null') })).not.toBe(NULL_KEY);
    expect(orderingKey({ key: Buffer.from('a') })).toBe(orderingKey({ key: Buffer.from('a') }));
    expect(orderingKey({ key: Buffer.from([0xff]) })).not.toBe(orderingKey({ key: Buffer.from([0xfe]) }));
    // A schema registry decoded the key: the raw bytes decide, not what the handler sees.
    expect(orderingKey({ key: Buffer.from('{"id":1}'), received: { key: Buffer.from([0, 0, 0, 0, 7, 2]) } })).toBe(orderingKey({ key: Buffer.from([0, 0, 0, 0, 7, 2]) }));
    expect(orderingKey({ key: Buffer.from('x'), received: { key: null } })).toBe(NULL_KEY);
  });
});

describe('orderingKeyOf', () => {
  it('is orderingKey by default, and each record its own key when unordered', () => {
    const a = { offset: 1, key: Buffer.from('a') };
    expect(orderingKeyOf(undefined)(a)).toBe(orderingKey(a));
    const unordered = orderingKeyOf('unordered');
    expect(unordered(a)).not.toBe(unordered({ ...a, offset: 2 }));
    expect(unordered({ offset: 3, key: null })).not.toBe(unordered({ offset: 4, key: null }));
    // Unordered, every record is a key of its own: spread over the slots.
    const pending = [0, 1, 2, 3, 4, 5].map((offset) => ({ offset, key: null }));
    expect(nextChunks({ pending, keyOf: unordered, held: new Set([unordered(pending[0]!)]), slots: 3, batchSize: 2, maxOffset: 100 }).map((c) => c.map((p) => p.offset))).toEqual([[1, 4], [2, 5], [3]]);
  });
});
