import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KafkaRecord } from '../event/record.ts';
import { packRecords, unpackRecords } from './record-transfer.ts';

const bytes = fc.option(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), { nil: null });
const arbRecord: fc.Arbitrary<KafkaRecord> = fc.record({
  topic: fc.constantFrom('orders', 'payments'),
  partition: fc.integer({ min: 0, max: 1000 }),
  offset: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  timestamp: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  timestampType: fc.constantFrom('CREATE_TIME' as const, 'LOG_APPEND_TIME' as const),
  key: bytes,
  value: bytes,
  headers: fc.array(fc.tuple(fc.string({ maxLength: 8 }), bytes), { maxLength: 4 }),
});

describe('packRecords / unpackRecords', () => {
  it('round-trips every field, including null keys, tombstones, empty and repeated headers', () => {
    fc.assert(
      fc.property(fc.array(arbRecord, { maxLength: 30 }), (records) => {
        // structuredClone stands in for postMessage with the buffers transferred.
        const packed = packRecords(records);
        const moved = structuredClone(packed, { transfer: [packed.bytes, packed.index.buffer as ArrayBuffer] });
        expect(unpackRecords(moved)).toEqual(records);
      }),
    );
  });
});
