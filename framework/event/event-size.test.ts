import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildEvent, toEventRecord } from './build-event.ts';
import { envelopeBytes, eventBytes, eventRecordBytes } from './event-size.ts';
import type { KafkaRecord } from './record.ts';

const bytes = fc.option(fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)), { nil: null });
const metadata = fc.record({
  dataFormat: fc.constantFrom('AVRO' as const, 'PROTOBUF' as const, 'JSON' as const),
  // A Confluent id, a Glue version UUID, or any text (quotes, escapes, multi-byte characters).
  schemaId: fc.oneof(fc.integer({ min: 1, max: 2 ** 31 - 1 }).map(String), fc.uuid(), fc.string({ maxLength: 12, unit: 'grapheme' })),
});
const arbRecord = (topic: string, partition: number) =>
  fc.record({
    topic: fc.constant(topic),
    partition: fc.constant(partition),
    offset: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    timestamp: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    timestampType: fc.constantFrom('CREATE_TIME' as const, 'LOG_APPEND_TIME' as const),
    key: bytes,
    value: bytes,
    headers: fc.array(fc.tuple(fc.string({ maxLength: 12, unit: 'grapheme' }), bytes), { maxLength: 4 }),
    keySchemaMetadata: metadata,
    valueSchemaMetadata: metadata,
    deliveryCount: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  }, { requiredKeys: ['topic', 'partition', 'offset', 'timestamp', 'timestampType', 'key', 'value', 'headers'] }) as fc.Arbitrary<KafkaRecord>;

describe('event size', () => {
  it('equals the byte length of the serialized event, exactly', () => {
    fc.assert(
      fc.property(fc.constantFrom('orders', 'a.b_c-d', 'x'), fc.integer({ min: 0, max: 999 }), fc.constantFrom('127.0.0.1:9092', 'b1:9092,b2:9092'), fc.boolean(), (topic, partition, servers, msk) =>
        fc.assert(
          fc.property(fc.array(arbRecord(topic, partition), { minLength: 1, maxLength: 8 }), (records) => {
            const source = msk ? { bootstrapServers: servers, eventSourceArn: 'arn:aws:kafka:us-east-1:1:cluster/c/x' } : { bootstrapServers: servers };
            const actual = Buffer.byteLength(JSON.stringify(buildEvent(records, source)));
            const sum = records.reduce((n, r) => n + eventRecordBytes(r), 0);
            expect(eventBytes(envelopeBytes(source, topic, partition), sum, records.length)).toBe(actual);
          }),
          { numRuns: 20 },
        ),
      ),
      { numRuns: 30 },
    );
  });

  it('counts the schema metadata of a decoded key and value, exactly, and nothing else the decoder keeps', () => {
    fc.assert(
      fc.property(arbRecord('orders', 3), fc.option(bytes, { nil: undefined }), (r, filterValue) => {
        // `received` and `filterValue` stay in Sluice: they are not in the event.
        const decoded: KafkaRecord = { ...r, received: { key: Buffer.from('as read'), value: null }, ...(filterValue ? { filterValue } : {}) };
        expect(eventRecordBytes(decoded)).toBe(Buffer.byteLength(JSON.stringify(toEventRecord(decoded))));
        expect(eventRecordBytes(decoded)).toBe(eventRecordBytes(r));
      }),
    );
  });

  it('writes the metadata as AWS does, only for the attributes decoded', () => {
    const r: KafkaRecord = { topic: 't', partition: 0, offset: 1, timestamp: 2, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('{}'), headers: [], valueSchemaMetadata: { dataFormat: 'AVRO', schemaId: '7' } };
    const json = JSON.stringify(toEventRecord(r));
    expect(json).toBe('{"topic":"t","partition":0,"offset":1,"timestamp":2,"timestampType":"CREATE_TIME","key":null,"value":"e30=","headers":[],"valueSchemaMetadata":{"dataFormat":"AVRO","schemaId":"7"}}');
    expect(eventRecordBytes(r)).toBe(Buffer.byteLength(json));
  });

  it('writes a queue-mode record\'s delivery count after its headers, and counts it', () => {
    const r: KafkaRecord = { topic: 't', partition: 0, offset: 1, timestamp: 2, timestampType: 'CREATE_TIME', key: null, value: null, headers: [], deliveryCount: 12 };
    const json = JSON.stringify(toEventRecord(r));
    expect(json).toBe('{"topic":"t","partition":0,"offset":1,"timestamp":2,"timestampType":"CREATE_TIME","key":null,"value":null,"headers":[],"deliveryCount":12}');
    expect(eventRecordBytes(r)).toBe(Buffer.byteLength(json));
  });
});
