import { describe, expect, it } from 'vitest';
import type { FailedRecord } from '../failed-record.ts';
import { fifoParameters } from './fifo.ts';

const failed = (topic: string, partition: number): FailedRecord => ({
  record: { topic, partition, offset: 1, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [] },
  reason: 'RetryAttemptsExhausted', attempts: 1, functionName: 'f', consumerGroupId: 'g', at: 0,
});

describe('fifoParameters', () => {
  it('keeps a group id within the 128 characters SQS and SNS take, one per partition, for Kafka topic names up to 249', () => {
    const long = 'a'.repeat(249);
    const ids = [failed(long, 0), failed(long, 11), failed(`${'a'.repeat(248)}b`, 0)].map((f) => fifoParameters('q.fifo', f).MessageGroupId!);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(128);
    expect(new Set(ids).size).toBe(3);
    expect(fifoParameters('q.fifo', failed('orders', 3)).MessageGroupId).toBe('orders-3');
  });
});
