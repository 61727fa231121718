import { describe, expect, it } from 'vitest';
import { median, medianDifference } from './stats.ts';

describe('medianDifference', () => {
  it('holds 0 for two samples of one spread, and not for samples set apart by more than their spread', () => {
    const a = [0.01, -0.02, 0.03, 0.0, -0.01, 0.02];
    const same = medianDifference(a, a.map((x) => -x));
    expect(same.low).toBeLessThanOrEqual(0);
    expect(same.high).toBeGreaterThanOrEqual(0);
    const apart = medianDifference(a.map((x) => x + 0.1), a);
    expect(apart.difference).toBeCloseTo(0.1, 10);
    expect(apart.low).toBeGreaterThan(0.05);
    expect(apart.high).toBeLessThan(0.15);
  });

  it('gives the difference of the medians, and the same interval each time', () => {
    const [m, s] = [[0.05, 0.01, 0.03], [0.0, 0.02]];
    const once = medianDifference(m, s);
    expect(once.difference).toBeCloseTo(median(m) - median(s), 12);
    expect(medianDifference(m, s)).toEqual(once);
    expect(once.low).toBeLessThanOrEqual(once.difference);
    expect(once.high).toBeGreaterThanOrEqual(once.difference);
  });
});
