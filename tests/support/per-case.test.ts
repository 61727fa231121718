import { describe, expect, it } from 'vitest';
import { perCase } from './per-case.ts';

describe('perCase', () => {
  it('charges a sample to the cases handed over either side of it, and keeps each case\'s worst', () => {
    const handovers = [{ at: 100, cases: ['honest'] }, { at: 200, cases: ['bomb'] }, { at: 300, cases: ['honest'] }];
    const samples = [
      { at: 50, blockedMs: 5, rss: 10 }, // before any handover: the first one's
      { at: 150, blockedMs: 900, rss: 40 }, // the bomb's decode, before its handover: honest and bomb
      { at: 250, blockedMs: 30, rss: 20 }, // after the bomb's handover: bomb and the next honest
      { at: 400, blockedMs: 1, rss: 5 }, // after the last: the last one's
    ];
    expect(Object.fromEntries(perCase(samples, handovers))).toEqual({ honest: { blockedMs: 900, rss: 40 }, bomb: { blockedMs: 900, rss: 40 } });
  });

  it('charges nothing to a case no sample falls beside', () => {
    const figures = perCase([{ at: 10, blockedMs: 3, rss: 1 }], [{ at: 20, cases: ['a'] }, { at: 30, cases: ['b'] }]);
    expect([...figures.keys()]).toEqual(['a']);
  });
});
