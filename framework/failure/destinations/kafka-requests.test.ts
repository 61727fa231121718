import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_OVERHEAD_BYTES, recordBytes, splitIntoRequests } from './kafka-requests.ts';

describe('splitIntoRequests', () => {
  it('keeps order, puts every record in exactly one request, and keeps each request within the limit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 80 }), fc.integer({ min: 600, max: 5_000 }), (sizes, limit) => {
        const split = splitIntoRequests(sizes, limit, (s) => s);
        if (!split.ok) throw new Error('every size fits alone');
        expect(split.requests.flat()).toEqual(sizes);
        for (const r of split.requests) expect(BATCH_OVERHEAD_BYTES + r.reduce((n, s) => n + s, 0)).toBeLessThanOrEqual(limit);
        // Greedy: no request could have taken the next one's first record.
        for (let i = 0; i + 1 < split.requests.length; i++) {
          expect(BATCH_OVERHEAD_BYTES + split.requests[i]!.reduce((n, s) => n + s, 0) + split.requests[i + 1]![0]!).toBeGreaterThan(limit);
        }
      }),
    );
  });

  it('names the first record that cannot fit even alone, and its size', () => {
    expect(splitIntoRequests([10, 2_000, 3_000], 1_000, (s) => s)).toEqual({ ok: false, index: 1, bytes: 2_000 + BATCH_OVERHEAD_BYTES });
  });

  it("sizes a record above Kafka's own encoding of it", () => {
    const r = { key: Buffer.alloc(10), value: Buffer.alloc(20_000), headers: [['sluice-reason', Buffer.from('RetryAttemptsExhausted')] as const] };
    // Kafka's v2 encoding: 1 attribute byte, varints (here at most 3 bytes each), key, value, header name and value.
    const kafka = 1 + 1 + 1 + 1 + 10 + 3 + 20_000 + 1 + 1 + 13 + 1 + 22 + 3;
    expect(recordBytes(r)).toBeGreaterThanOrEqual(kafka);
    expect(recordBytes(r)).toBeLessThan(kafka + 64);
  });
});
