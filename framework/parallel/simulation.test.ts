/**
 * The three modules together, as the poller will use them: one partition, chunks that end in any
 * order, a commit (offset and metadata) after each, and at any moment a new owner that reads the
 * last commit. What it invokes again must be exactly what was not done: the chunks in flight and
 * what had not started (the kill -9 oracle of issue 28, without a broker).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMetadata, encodeMetadata, windowFor } from './commit-metadata.ts';
import { committable, inRanges } from './done-ranges.ts';
import { nextChunks } from './key-scheduler.ts';

interface Rec {
  offset: number;
  key: string;
}

describe('a partition run with several chunks at once', () => {
  it('commits exactly, keeps each key in order, and a new owner redoes only what was not done', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(40, 64, 4096),
        fc.infiniteStream(fc.nat()),
        (steps, factor, batchSize, maxBytes, choices) => {
          let at = 0;
          const records: Rec[] = steps.map(([gap, k]) => ({ offset: (at += gap), key: k === 0 ? 'null' : `k${k}` }));
          const end = at + 1;
          const window = windowFor(maxBytes);
          const done = new Set<number>();
          const running: Rec[][] = [];
          const lastInvokedOffset = new Map<string, number>(); // the last offset invoked per key
          let commit = { next: 0, metadata: null as string | null };
          const pick = choices[Symbol.iterator]();
          for (let round = 0; round < 10_000; round++) {
            const started = new Set(running.flat());
            const pending = records.filter((r) => !done.has(r.offset) && !started.has(r));
            const chunks = nextChunks({ pending, keyOf: (r) => r.key, held: new Set(running.flat().map((r) => r.key)), slots: factor - running.length, batchSize, maxOffset: commit.next + window });
            for (const c of chunks) {
              for (const r of c) {
                expect(r.offset).toBeGreaterThan(lastInvokedOffset.get(r.key) ?? -1);
                lastInvokedOffset.set(r.key, r.offset);
              }
              running.push(c);
            }
            if (running.length === 0) break;
            // One chunk ends (any of them), and the partition commits.
            const [ended] = running.splice(pick.next().value % running.length, 1);
            for (const r of ended!) done.add(r.offset);
            const outstanding = records.filter((r) => !done.has(r.offset)).map((r) => r.offset);
            const { next, doneBeyond } = committable(outstanding, end);
            expect(next).toBeGreaterThanOrEqual(commit.next);
            const metadata = encodeMetadata(next, doneBeyond, maxBytes);
            expect((metadata ?? '').length).toBeLessThanOrEqual(maxBytes);
            commit = { next, metadata };
            // A new owner reads the commit: it invokes again exactly what is not done.
            const read = decodeMetadata(commit.metadata, commit.next);
            const ranges = read.kind === 'done' ? read.ranges : [];
            const redone = records.filter((r) => r.offset >= commit.next && !inRanges(ranges, r.offset)).map((r) => r.offset);
            expect(redone).toEqual(outstanding);
          }
          expect(done.size).toBe(records.length);
          expect(commit).toEqual({ next: end, metadata: null });
        },
      ),
      { numRuns: 300 },
    );
  });
});
