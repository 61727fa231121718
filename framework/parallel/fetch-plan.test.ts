import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planFetch, type RunEnd } from './fetch-plan.ts';

const end = (o: Partial<RunEnd> = {}): RunEnd => ({ next: 100, window: 1_000, batchEnd: 200, atLogEnd: false, heldDueAt: [], now: 0, idlePauseMs: 1_000, ...o });

describe('planFetch', () => {
  it('fetches on from the batch end when nothing is held, whatever the commit', () => {
    expect(planFetch(end())).toEqual({ fetchFrom: 200, windowFull: false });
    expect(planFetch(end({ atLogEnd: true }))).toEqual({ fetchFrom: 200, windowFull: false });
  });

  it('fetches again from the first record that did not start (the budget ran out, a rebalance)', () => {
    expect(planFetch(end({ firstUnstarted: 150 }))).toEqual({ fetchFrom: 150, windowFull: false });
    expect(planFetch(end({ firstUnstarted: 150, heldDueAt: [5_000], atLogEnd: true }))).toEqual({ fetchFrom: 150, windowFull: false });
  });

  it('keeps fetching past a held retry while records come (the other keys flow)', () => {
    expect(planFetch(end({ heldDueAt: [30_000] }))).toEqual({ fetchFrom: 200, windowFull: false });
  });

  it('at the log end with a retry held, fetches its last record again after at most the idle pause', () => {
    expect(planFetch(end({ heldDueAt: [30_000, 4_000], atLogEnd: true }))).toEqual({ fetchFrom: 199, pauseMs: 1_000, windowFull: false });
    expect(planFetch(end({ heldDueAt: [300], atLogEnd: true }))).toEqual({ fetchFrom: 199, pauseMs: 300, windowFull: false });
    expect(planFetch(end({ heldDueAt: [-5], atLogEnd: true }))).toEqual({ fetchFrom: 199, pauseMs: 0, windowFull: false });
  });

  it('stops at the window, and waits there for the first held retry', () => {
    expect(planFetch(end({ window: 50, heldDueAt: [20_000] }))).toEqual({ fetchFrom: 151, pauseMs: 20_000, windowFull: true });
    expect(planFetch(end({ window: 50, batchEnd: 151, heldDueAt: [20_000] }))).toEqual({ fetchFrom: 151, pauseMs: 20_000, windowFull: true });
    // The batch ends exactly at the window and nothing more was written: not full.
    expect(planFetch(end({ window: 50, batchEnd: 151, atLogEnd: true, heldDueAt: [20_000] }))).toEqual({ fetchFrom: 150, pauseMs: 1_000, windowFull: false });
  });

  it('never fetches past the window or a record that did not start, never pauses without a held retry, and rewinds at most one record', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 400 }),
        fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
        fc.boolean(),
        fc.array(fc.integer({ min: -1_000, max: 60_000 }), { maxLength: 3 }),
        (next, window, length, unstarted, atLogEnd, heldDueAt) => {
          const batchEnd = next + length;
          const firstUnstarted = unstarted === undefined ? undefined : Math.min(next + unstarted, batchEnd - 1);
          const plan = planFetch(end({ next, window, batchEnd, atLogEnd, heldDueAt, ...(firstUnstarted === undefined ? {} : { firstUnstarted }) }));
          const limit = Math.min(firstUnstarted ?? batchEnd, batchEnd, next + window + 1);
          expect(plan.fetchFrom).toBeLessThanOrEqual(limit);
          expect(plan.fetchFrom).toBeGreaterThanOrEqual(Math.min(limit, batchEnd - 1));
          if (heldDueAt.length === 0) expect(plan.pauseMs).toBeUndefined();
          if (plan.pauseMs !== undefined) expect(plan.pauseMs).toBeGreaterThanOrEqual(0);
          if (plan.windowFull) expect(plan.fetchFrom).toBe(next + window + 1);
        },
      ),
    );
  });
});
