import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KafkaRecord } from '../event/record.ts';
import { destinationHeaders, failureHeaders, reducedDestinationHeaders, type FailedRecord } from './failed-record.ts';
import { readFailedCopy, selected } from './redrive.ts';

const record: KafkaRecord = {
  topic: 'orders', partition: 2, offset: 41, timestamp: 1_700_000_000_000, timestampType: 'CREATE_TIME',
  key: Buffer.from('k'), value: Buffer.from('{"id":1}'), headers: [['trace', Buffer.from('t-1')], ['sluice-failure-reason', Buffer.from('forged')]],
} as KafkaRecord;
const failed: FailedRecord = { record, reason: 'RetryAttemptsExhausted', attempts: 3, error: 'boom', functionName: 'orders', consumerGroupId: 'g', at: 1_700_000_001_000 };

describe('a destination copy read back', () => {
  it('gives the source, the reason and the record as its producer wrote it (renamed headers restored)', () => {
    const copy = readFailedCopy({ key: record.key, value: record.value, headers: destinationHeaders(failed) });
    expect(copy).toEqual({
      source: { topic: 'orders', partition: 2, offset: 41 }, reason: 'RetryAttemptsExhausted', attempts: 3, error: 'boom', failedAt: '2023-11-14T22:13:21.000Z',
      original: { key: record.key, value: record.value, headers: [['trace', Buffer.from('t-1')], ['sluice-failure-reason', Buffer.from('forged')]] },
    });
  });

  it('does not take a copy that kept only the failure headers (the record did not fit the destination) for the record', () => {
    const why = 'the copy with its key, value and headers is 2097300 bytes, over max.message.bytes 1048588 of "orders-failed": read the record from orders-2@41';
    expect(readFailedCopy({ key: null, value: null, headers: reducedDestinationHeaders(failed, why) })).toEqual({ source: { topic: 'orders', partition: 2, offset: 41 }, reason: 'RetryAttemptsExhausted', attempts: 3, error: 'boom', failedAt: '2023-11-14T22:13:21.000Z', reduced: why });
  });

  it('says why a record Sluice did not write is not one', () => {
    expect(readFailedCopy({ key: null, value: Buffer.from('x'), headers: [['sluice-source-topic', Buffer.from('t')]] })).toMatch(/carries no sluice-source-topic/);
  });

  it('selects by source partition, offset range and reason', () => {
    const copy = readFailedCopy({ key: null, value: null, headers: destinationHeaders(failed) });
    if (typeof copy === 'string') throw new Error(copy);
    expect(selected(copy, {})).toBe(true);
    expect(selected(copy, { partition: 2, fromOffset: 41, toOffset: 41, reason: 'RetryAttemptsExhausted' })).toBe(true);
    expect(selected(copy, { partition: 1 })).toBe(false);
    expect(selected(copy, { fromOffset: 42 })).toBe(false);
    expect(selected(copy, { toOffset: 40 })).toBe(false);
    expect(selected(copy, { reason: 'RecordAgeExceeded' })).toBe(false);
  });
});

describe("a producer's own header names on a destination copy", () => {
  const named = (names: string[]): FailedRecord => ({ ...failed, record: { ...record, headers: names.map((n, i): [string, Buffer] => [n, Buffer.from(String(i))]) } });
  const ownNamesBack = (names: string[]) => {
    const copy = readFailedCopy({ key: null, value: null, headers: destinationHeaders(named(names)) });
    if (typeof copy === 'string' || 'reduced' in copy) throw new Error(`not a whole copy: ${JSON.stringify(copy)}`);
    return copy;
  };

  it('come back as the producer wrote them, even one already named like a renamed header', () => {
    const names = ['producer-sluice-failure-reason', 'sluice-failure-reason', 'producer-producer-sluice-source-topic', 'producer-trace', 'trace'];
    expect(ownNamesBack(names).original.headers.map(([n]) => n)).toEqual(names);
    expect(ownNamesBack(names).reason).toBe('RetryAttemptsExhausted');
  });

  it('round-trip for every name, and none on the copy is in Sluice\'s namespace (property)', () => {
    const fragment = fc.constantFrom('producer-', 'sluice-', 'producer', 'sluice', '-', 'failure-reason', 'source-topic', 'x', 'P', 'S');
    const name = fc.oneof(fc.array(fragment, { maxLength: 5 }).map((parts) => parts.join('')), fc.string());
    fc.assert(
      fc.property(fc.array(name, { maxLength: 8 }), (names) => {
        const own = destinationHeaders(named(names)).slice(failureHeaders(failed).length);
        expect(own.filter(([n]) => n.startsWith('sluice-'))).toEqual([]);
        const copy = ownNamesBack(names);
        expect(copy.original.headers.map(([n]) => n)).toEqual(names);
        expect(copy.source).toEqual({ topic: 'orders', partition: 2, offset: 41 });
      }),
      { numRuns: 2_000 },
    );
  });
});
