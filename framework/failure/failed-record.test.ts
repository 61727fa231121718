import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { destinationHeaders, FAILURE_HEADERS, failureHeaders, type FailedRecord } from './failed-record.ts';

const record: KafkaRecord = {
  topic: 'orders', partition: 2, offset: 41, timestamp: 1, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'),
  headers: [['trace', Buffer.from('t')], [FAILURE_HEADERS.reason, Buffer.from('RecordAgeExceeded')], [FAILURE_HEADERS.offset, Buffer.from('0')], ['empty', null]],
};
const failed: FailedRecord = { record, reason: 'RetryAttemptsExhausted', attempts: 3, functionName: 'f', consumerGroupId: 'g', at: 0 };

describe('destinationHeaders', () => {
  it("puts Sluice's failure headers first and renames a producer's own sluice-* headers, so none can be forged", () => {
    const headers = destinationHeaders(failed).map(([n, v]) => `${n}=${v}`);
    const sluice = headers.filter((h) => h.startsWith('sluice-'));
    expect(headers.slice(0, sluice.length)).toEqual(sluice);
    expect(sluice).toContain(`${FAILURE_HEADERS.reason}=RetryAttemptsExhausted`);
    expect(sluice).toContain(`${FAILURE_HEADERS.offset}=41`);
    expect(sluice.filter((h) => h.startsWith(`${FAILURE_HEADERS.reason}=`))).toHaveLength(1);
    expect(headers.slice(sluice.length)).toEqual(['trace=t', `producer-${FAILURE_HEADERS.reason}=RecordAgeExceeded`, `producer-${FAILURE_HEADERS.offset}=0`, 'empty=']);
  });
});


const failedWith = (r: Partial<KafkaRecord>, f: Partial<FailedRecord> = {}): FailedRecord => ({
  record: { topic: 'orders', partition: 2, offset: 41, timestamp: 1_545_084_650_987, timestampType: 'CREATE_TIME', key: null, value: null, headers: [], ...r },
  reason: 'RecordAgeExceeded', attempts: 0, functionName: 'orders', consumerGroupId: 'orders-processor', at: Date.UTC(2026, 0, 2), ...f,
});

describe('failureHeaders (a kafka:// destination copy)', () => {
  it('says why, when, after how many attempts, and where from, with the source timestamp and its type (the copy is stamped when sent)', () => {
    expect(failureHeaders(failedWith({}, { error: 'x'.repeat(1_200) }))).toEqual([
      [FAILURE_HEADERS.reason, 'RecordAgeExceeded'],
      [FAILURE_HEADERS.time, '2026-01-02T00:00:00.000Z'],
      [FAILURE_HEADERS.attempts, '0'],
      [FAILURE_HEADERS.function, 'orders'],
      [FAILURE_HEADERS.group, 'orders-processor'],
      [FAILURE_HEADERS.topic, 'orders'],
      [FAILURE_HEADERS.partition, '2'],
      [FAILURE_HEADERS.offset, '41'],
      ['sluice-source-timestamp', '1545084650987'],
      ['sluice-source-timestamp-type', 'CREATE_TIME'],
      [FAILURE_HEADERS.error, 'x'.repeat(1_000)],
    ]);
  });

  it('a broker-stamped source keeps its type', () => {
    expect(failureHeaders(failedWith({ timestampType: 'LOG_APPEND_TIME', timestamp: 7 }))).toContainEqual(['sluice-source-timestamp-type', 'LOG_APPEND_TIME']);
    expect(failureHeaders(failedWith({ timestampType: 'LOG_APPEND_TIME', timestamp: 7 }))).toContainEqual(['sluice-source-timestamp', '7']);
  });
});
