import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { retryDelayMs } from './backoff.ts';

describe('retryDelayMs', () => {
  it('grows exponentially from base, jittered in the upper half, never past the cap', () => {
    const opts = { baseMs: 100, capMs: 5000 };
    expect(retryDelayMs(1, opts, () => 0)).toBe(50);
    expect(retryDelayMs(1, opts, () => 1)).toBe(100);
    expect(retryDelayMs(3, opts, () => 1)).toBe(400);
    expect(retryDelayMs(50, opts, () => 1)).toBe(5000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const d = retryDelayMs(attempt, opts, () => r);
        expect(d).toBeGreaterThanOrEqual(25);
        expect(d).toBeLessThanOrEqual(5000);
      }),
    );
  });
});
