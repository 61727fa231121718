import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildEvent } from './build-event.ts';
import { envelopeBytes, eventBytes, eventRecordBytes } from './event-size.ts';
import type { KafkaRecord } from './record.ts';

const bytes = fc.option(fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)), { nil: null });
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
  }) as fc.Arbitrary<KafkaRecord>;

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
});
