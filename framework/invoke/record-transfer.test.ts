import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KafkaRecord } from '../event/record.ts';
import { packRecords, unpackRecords } from './record-transfer.ts';

const bytes = fc.option(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), { nil: null });
const metadata = fc.record({
  dataFormat: fc.constantFrom('AVRO' as const, 'PROTOBUF' as const, 'JSON' as const),
  // Confluent ids, Glue UUIDs, and text with spaces (the packed form splits at the first one).
  schemaId: fc.oneof(fc.integer({ min: 1, max: 2 ** 31 - 1 }).map(String), fc.uuid(), fc.string({ maxLength: 10 })),
});
const arbRecord: fc.Arbitrary<KafkaRecord> = fc.record({
  topic: fc.constantFrom('orders', 'payments'),
  partition: fc.integer({ min: 0, max: 1000 }),
  offset: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  timestamp: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  timestampType: fc.constantFrom('CREATE_TIME' as const, 'LOG_APPEND_TIME' as const),
  key: bytes,
  value: bytes,
  headers: fc.array(fc.tuple(fc.string({ maxLength: 8 }), bytes), { maxLength: 4 }),
  keySchemaMetadata: metadata,
  valueSchemaMetadata: metadata,
  deliveryCount: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
}, { requiredKeys: ['topic', 'partition', 'offset', 'timestamp', 'timestampType', 'key', 'value', 'headers'] });

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

  it('keeps the key and value schema metadata of each record apart, also when a header name looks like one', () => {
    const base: KafkaRecord = { topic: 'orders', partition: 0, offset: 0, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('{}'), headers: [] };
    const records: KafkaRecord[] = [
      { ...base, offset: 1, keySchemaMetadata: { dataFormat: 'JSON', schemaId: '3' }, valueSchemaMetadata: { dataFormat: 'AVRO', schemaId: '7' } },
      { ...base, offset: 2, valueSchemaMetadata: { dataFormat: 'AVRO', schemaId: '7' }, headers: [['AVRO 7', Buffer.from('x')]] },
      { ...base, offset: 3, keySchemaMetadata: { dataFormat: 'PROTOBUF', schemaId: '3f2b1c9e-0000-4000-8000-000000000001' } },
      { ...base, offset: 4 },
    ];
    const unpacked = unpackRecords(packRecords(records));
    expect(unpacked).toEqual(records);
    expect(unpacked.map((r) => [r.keySchemaMetadata?.schemaId, r.valueSchemaMetadata?.schemaId])).toEqual([['3', '7'], [undefined, '7'], ['3f2b1c9e-0000-4000-8000-000000000001', undefined], [undefined, undefined]]);
    expect('keySchemaMetadata' in unpacked[3]!).toBe(false);
  });
});
