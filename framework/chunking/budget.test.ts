import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkFitsBudget, maxTimeoutFor, minPollIntervalFor, safetyMarginMs, startWindowMs } from './budget.ts';

describe('poll-interval budget', () => {
  it('reserves 10% of the interval (at least a second) and a start window of 5% (at least two)', () => {
    expect(safetyMarginMs(300_000)).toBe(30_000);
    expect(safetyMarginMs(5_000)).toBe(1_000);
    expect(startWindowMs(300_000)).toBe(15_000);
    expect(startWindowMs(5_000)).toBe(2_000);
    expect(maxTimeoutFor(300_000)).toBe(255_000);
  });

  it('an interval that fits the timeout leaves a start window after a fetch (66667 ms for 60 s left none)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 900_000 }), (timeoutMs) => {
        const maxPollIntervalMs = minPollIntervalFor(timeoutMs);
        const fits = (elapsed: number) => chunkFitsBudget({ fetchedAt: 0, now: elapsed, timeoutMs, maxPollIntervalMs });
        expect(fits(startWindowMs(maxPollIntervalMs))).toBe(true);
        expect(fits(2_000)).toBe(true);
      }),
    );
    expect(minPollIntervalFor(60_000)).toBe(70_588);
  });

  it('minPollIntervalFor is the smallest interval that fits the timeout', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 900_000 }), (timeout) => {
        const interval = minPollIntervalFor(timeout);
        expect(maxTimeoutFor(interval)).toBeGreaterThanOrEqual(timeout);
        expect(maxTimeoutFor(interval - 1)).toBeLessThan(timeout);
      }),
    );
  });

  it('lets a chunk start only if its worst case ends inside the interval less the margin', () => {
    const base = { fetchedAt: 0, timeoutMs: 2_000, maxPollIntervalMs: 4_500 };
    expect(chunkFitsBudget({ ...base, now: 0 })).toBe(true);
    expect(chunkFitsBudget({ ...base, now: 1_500 })).toBe(true);
    expect(chunkFitsBudget({ ...base, now: 1_501 })).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600_000 }), fc.integer({ min: 1, max: 300_000 }), fc.integer({ min: 1_000, max: 900_000 }), (elapsed, timeoutMs, maxPollIntervalMs) => {
        const fits = chunkFitsBudget({ fetchedAt: 1_000, now: 1_000 + elapsed, timeoutMs, maxPollIntervalMs });
        expect(fits).toBe(elapsed + timeoutMs <= maxPollIntervalMs - safetyMarginMs(maxPollIntervalMs));
      }),
    );
  });
});
