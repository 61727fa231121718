import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { destinationHeaders, FAILURE_HEADERS, type FailedRecord } from './failed-record.ts';

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
