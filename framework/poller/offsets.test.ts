import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { committableOffset, type OutcomeOf } from './offsets.ts';

const arbOutcomes = fc
  .tuple(fc.integer({ min: 0, max: 1e9 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom('succeeded', 'failed', 'set-aside') as fc.Arbitrary<OutcomeOf['outcome']>), { maxLength: 60 }))
  .map(([start, steps]) => {
    let offset = start;
    return steps.map(([gap, outcome]) => ({ offset: (offset += gap), outcome }));
  });

describe('committableOffset', () => {
  it('never passes a failed record, and passes every record before the first failure', () => {
    fc.assert(
      fc.property(arbOutcomes, (outcomes) => {
        const commit = committableOffset(outcomes);
        const firstFailed = outcomes.find((o) => o.outcome === 'failed');
        if (commit === undefined) {
          expect(outcomes.length === 0 || outcomes[0]!.outcome === 'failed').toBe(true);
          return;
        }
        if (firstFailed) expect(commit).toBeLessThanOrEqual(firstFailed.offset);
        for (const o of outcomes.filter((x) => x.offset < commit)) expect(o.outcome).not.toBe('failed');
        // It is as far as it can go: the record right at or after it is failed, or there is none.
        const after = outcomes.find((o) => o.offset >= commit);
        expect(after === undefined || after.outcome === 'failed').toBe(true);
      }),
    );
  });

  it('examples', () => {
    expect(committableOffset([{ offset: 5, outcome: 'succeeded' }, { offset: 6, outcome: 'succeeded' }])).toBe(7);
    expect(committableOffset([{ offset: 5, outcome: 'succeeded' }, { offset: 6, outcome: 'failed' }, { offset: 7, outcome: 'succeeded' }])).toBe(6);
    expect(committableOffset([{ offset: 5, outcome: 'failed' }])).toBeUndefined();
    expect(committableOffset([{ offset: 5, outcome: 'set-aside' }])).toBe(6);
  });
});
