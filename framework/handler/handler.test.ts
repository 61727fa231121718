import { describe, expect, it, vi } from 'vitest';
import type { SelfManagedKafkaEvent } from 'aws-lambda';
import { buildEvent } from '../event/build-event.ts';
import { readBatchResponse } from '../event/batch-response.ts';
import type { KafkaRecord } from '../event/record.ts';
import { batchResponse, eachRecord } from './batch-response.ts';
import { decodeRecord } from './decode.ts';

const record = (offset: number, value: unknown): KafkaRecord => ({
  topic: 'orders', partition: 1, offset, timestamp: 0, timestampType: 'CREATE_TIME',
  key: Buffer.from(`k${offset}`), value: value === null ? null : Buffer.from(JSON.stringify(value)), headers: [['trace', Buffer.from('abc')]],
});
const event = (records: KafkaRecord[]) => buildEvent(records, { bootstrapServers: 'b:9092' }) as SelfManagedKafkaEvent;

describe('handler helpers', () => {
  it('decodes key, JSON value and headers of an event record; a tombstone stays null', () => {
    const [a, b] = event([record(1, { id: 7 }), record(2, null)]).records['orders-1']!;
    expect(decodeRecord(a!)).toEqual({ key: 'k1', value: { id: 7 }, headers: { trace: 'abc' } });
    expect(decodeRecord(b!).value).toBeNull();
  });

  it('builds a response the poller reads as failing from the lowest reported offset', () => {
    const records = [record(4, 1), record(5, 2), record(6, 3)];
    const response = batchResponse([{ topic: 'orders', partition: 1, offset: 5 }]);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: { partition: 'orders-1', offset: 5 } }] });
    expect(readBatchResponse(response, records)).toEqual({ ok: true, failedFrom: 5, failed: [5] });
  });

  it('eachRecord stops a partition at its first failure and reports it', async () => {
    const seen: number[] = [];
    const response = await eachRecord(event([record(4, 1), record(5, 2), record(6, 3)]), async (r) => {
      seen.push(r.offset);
      if (r.offset === 5) throw new Error('no');
    });
    expect(seen).toEqual([4, 5]);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: { partition: 'orders-1', offset: 5 } }]);
  });

  it("eachRecord prints a record's error with its stack, which the response has no room for", async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const boom = new Error('no stock for k5');
      await eachRecord(event([record(5, 2)]), async () => {
        throw boom;
      });
      expect(printed).toHaveBeenCalledWith('record orders-1@5 failed:', boom);
    } finally {
      printed.mockRestore();
    }
  });
});
