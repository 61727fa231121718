import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FailurePolicy } from '../config/types.ts';
import { decideAfterFailure, isExpired, maxRetries } from './policy.ts';

const policy = (p: Partial<FailurePolicy> = {}): FailurePolicy => ({
  maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: undefined, ...p,
});
const dlt = { kind: 'kafka' as const, uri: 'kafka://failed', topic: 'failed' };

describe('failure policy', () => {
  it('retries forever without a destination, 10 times with one, as AWS', () => {
    expect(maxRetries(policy())).toBe(Infinity);
    expect(maxRetries(policy({ onFailure: dlt }))).toBe(10);
    expect(maxRetries(policy({ maximumRetryAttempts: 2, onFailure: dlt }))).toBe(2);
  });

  it('invokes a set at most 1 + maximumRetryAttempts times, then gives up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), (retries) => {
        const p = policy({ maximumRetryAttempts: retries, onFailure: dlt });
        let attempts = 0;
        let invocations = 1;
        for (;;) {
          const d = decideAfterFailure(p, 1, ++attempts, () => 0.5);
          if (d.action === 'give-up') break;
          expect(d.action).toBe('retry');
          invocations++;
        }
        expect(invocations).toBe(retries + 1);
      }),
    );
  });

  it('splits a failing set of more than one record, without counting a retry', () => {
    const p = policy({ bisectBatchOnFunctionError: true, maximumRetryAttempts: 0, onFailure: dlt });
    expect(decideAfterFailure(p, 9, 1)).toEqual({ action: 'bisect', firstHalf: 5 });
    expect(decideAfterFailure(p, 2, 1)).toEqual({ action: 'bisect', firstHalf: 1 });
    expect(decideAfterFailure(p, 1, 1)).toEqual({ action: 'give-up', reason: 'RetryAttemptsExhausted' });
  });

  it('expires records older than maximumRecordAgeInSeconds only', () => {
    const record = { topic: 't', partition: 0, offset: 0, timestamp: 1_000, timestampType: 'CREATE_TIME' as const, key: null, value: null, headers: [] };
    expect(isExpired(record, policy(), 10_000_000)).toBe(false);
    expect(isExpired(record, policy({ maximumRecordAgeMs: 60_000 }), 61_000)).toBe(false);
    expect(isExpired(record, policy({ maximumRecordAgeMs: 60_000 }), 61_001)).toBe(true);
  });
});
