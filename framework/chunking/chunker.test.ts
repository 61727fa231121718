import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planChunks } from './chunker.ts';
import { buildEvent } from '../event/build-event.ts';
import { envelopeBytes } from '../event/event-size.ts';
import type { KafkaRecord } from '../event/record.ts';

const source = { bootstrapServers: '127.0.0.1:9092' };
const record = (offset: number, valueBytes = 0): KafkaRecord => ({
  topic: 't', partition: 0, offset, timestamp: 1_700_000_000_000, timestampType: 'CREATE_TIME', key: null,
  value: valueBytes ? Buffer.alloc(valueBytes, 7) : null, headers: [],
});
const envelope = envelopeBytes(source, 't', 0);

describe('planChunks', () => {
  it('keeps every record once, in order; each chunk within batchSize and the payload limit, measured on the serialized event', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 500, max: 20_000 }),
        (sizes, batchSize, maxPayloadBytes) => {
          const records = sizes.map((s, i) => record(100 + i, s));
          const steps = planChunks(records, { batchSize, maxPayloadBytes, envelopeBytes: envelope });
          const order = steps.flatMap((s) => (s.kind === 'chunk' ? s.records : [s.record])).map((r) => r.offset);
          expect(order).toEqual(records.map((r) => r.offset));
          for (const s of steps) {
            if (s.kind === 'chunk') {
              const actual = Buffer.byteLength(JSON.stringify(buildEvent(s.records, source)));
              expect(s.bytes).toBe(actual);
              expect(actual).toBeLessThanOrEqual(maxPayloadBytes);
              expect(s.records.length).toBeGreaterThan(0);
              expect(s.records.length).toBeLessThanOrEqual(batchSize);
            } else {
              // Set apart only when it cannot fit even alone.
              expect(Buffer.byteLength(JSON.stringify(buildEvent([s.record], source)))).toBeGreaterThan(maxPayloadBytes);
            }
          }
        },
      ),
    );
  });

  it('fills chunks greedily: a chunk ends only when the next record would break a limit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 100 }), fc.integer({ min: 1, max: 20 }), (sizes, batchSize) => {
        const records = sizes.map((s, i) => record(i, s));
        const maxPayloadBytes = 4_000;
        const steps = planChunks(records, { batchSize, maxPayloadBytes, envelopeBytes: envelope });
        for (let i = 0; i + 1 < steps.length; i++) {
          const [a, b] = [steps[i]!, steps[i + 1]!];
          if (a.kind !== 'chunk' || b.kind !== 'chunk') continue;
          const merged = [...a.records, b.records[0]!];
          const fits = merged.length <= batchSize && Buffer.byteLength(JSON.stringify(buildEvent(merged, source))) <= maxPayloadBytes;
          expect(fits).toBe(false);
        }
      }),
    );
  });

  it('sets apart a record too large for any invocation, in its place in the order', () => {
    const steps = planChunks([record(1, 10), record(2, 5_000), record(3, 10)], { batchSize: 10, maxPayloadBytes: 2_000, envelopeBytes: envelope });
    expect(steps.map((s) => s.kind)).toEqual(['chunk', 'oversized', 'chunk']);
  });

  it('refuses a batchSize that is not a positive integer', () => {
    expect(() => planChunks([record(0)], { batchSize: 0, maxPayloadBytes: 1000, envelopeBytes: envelope })).toThrow(/positive integer/);
  });
});
