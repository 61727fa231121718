import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { FAILURE_HEADERS, failureHeaders, type FailedRecord } from './failed-record.ts';

const failed = (r: Partial<KafkaRecord>, f: Partial<FailedRecord> = {}): FailedRecord => ({
  record: { topic: 'orders', partition: 2, offset: 41, timestamp: 1_545_084_650_987, timestampType: 'CREATE_TIME', key: null, value: null, headers: [], ...r },
  reason: 'RecordAgeExceeded', attempts: 0, functionName: 'orders', consumerGroupId: 'orders-processor', at: Date.UTC(2026, 0, 2), ...f,
});

describe('failureHeaders (a kafka:// destination copy)', () => {
  it('says why, when, after how many attempts, and where from, with the source timestamp and its type (the copy is stamped when sent)', () => {
    expect(failureHeaders(failed({}, { error: 'x'.repeat(1_200) }))).toEqual([
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
    expect(failureHeaders(failed({ timestampType: 'LOG_APPEND_TIME', timestamp: 7 }))).toContainEqual(['sluice-source-timestamp-type', 'LOG_APPEND_TIME']);
    expect(failureHeaders(failed({ timestampType: 'LOG_APPEND_TIME', timestamp: 7 }))).toContainEqual(['sluice-source-timestamp', '7']);
  });
});
