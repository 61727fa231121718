import { describe, expect, it } from 'vitest';
import { settledBy } from '../kafka/settled-by.ts';
import { inFlightBudgetMs, LEAVE_MARGIN_MS } from './stop-deadline.ts';

describe('inFlightBudgetMs', () => {
  it('none without SLUICE_STOP_DEADLINE_MS: the stop waits for what is in flight', () => {
    expect(inFlightBudgetMs({})).toBeUndefined();
    expect(inFlightBudgetMs({ SLUICE_STOP_DEADLINE_MS: '' })).toBeUndefined();
  });

  it('the StopTimeout less the margin for leaving and exiting', () => {
    expect(inFlightBudgetMs({ SLUICE_STOP_DEADLINE_MS: '120000' })).toBe(120_000 - LEAVE_MARGIN_MS);
  });

  it('refuses a value that leaves no time, or is not whole milliseconds', () => {
    for (const v of ['5000', '0', '-1', '30.5', 'two minutes']) expect(() => inFlightBudgetMs({ SLUICE_STOP_DEADLINE_MS: v })).toThrow(/SLUICE_STOP_DEADLINE_MS is .*StopTimeout/);
  });
});

describe('settledBy', () => {
  it('true when the work settles first, resolved or rejected; false when the deadline comes first', async () => {
    expect(await settledBy(Promise.resolve(), Date.now() + 1_000)).toBe(true);
    expect(await settledBy(Promise.reject(new Error('x')), Date.now() + 1_000)).toBe(true);
    expect(await settledBy(new Promise(() => undefined), Date.now() + 20)).toBe(false);
  });
});
