import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkRecords } from './chunker.ts';
import type { KafkaRecord } from '../event/record.ts';

const record = (offset: number): KafkaRecord => ({
  topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [],
});

describe('chunkRecords', () => {
  it('keeps every record once, in order, in chunks of at most batchSize', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 120 }), (n, batchSize) => {
        const records = Array.from({ length: n }, (_, i) => record(1000 + i));
        const chunks = chunkRecords(records, { batchSize });
        expect(chunks.flat().map((r) => r.offset)).toEqual(records.map((r) => r.offset));
        for (const c of chunks) {
          expect(c.length).toBeGreaterThan(0);
          expect(c.length).toBeLessThanOrEqual(batchSize);
        }
        expect(chunks.length).toBe(Math.ceil(n / batchSize));
      }),
    );
  });

  it('refuses a batchSize that is not a positive integer', () => {
    expect(() => chunkRecords([record(0)], { batchSize: 0 })).toThrow(/positive integer/);
  });
});
