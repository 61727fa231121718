import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { planWork, rememberItems, type RememberedItem, type Undecodable, type WorkItem } from './work-plan.ts';

const record = (offset: number, value = 'v'): KafkaRecord => ({
  topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from(value), headers: [],
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => record(from + i, (from + i) % 3 === 0 ? 'skip' : 'v'));
const limits = { batchSize: 4, maxPayloadBytes: 6 * 1024 * 1024, envelopeBytes: 100 };
const all = () => true;
const notSkipped = (r: KafkaRecord) => r.value?.toString() !== 'skip';
const offsetsOf = (work: WorkItem[]) => work.map((w) => w.records.map((r) => r.offset));

describe('planWork', () => {
  it('cuts fresh records into chunks and leaves out what no filter matches', () => {
    expect(offsetsOf(planWork(range(0, 9), all, limits))).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    expect(offsetsOf(planWork(range(0, 9), notSkipped, limits))).toEqual([[1, 2, 4, 5], [7, 8]]);
  });

  it('brings a remembered set back with its attempts, also when the refetch starts earlier (a filtered prefix not yet committed)', () => {
    const failing: RememberedItem = { from: 4, until: 5, attempts: 2, bytes: 0, sendFailures: 0, error: 'boom' };
    for (const start of [0, 1, 3, 4]) {
      const work = planWork(range(start, 9), notSkipped, limits, [failing]);
      const again = work.find((w) => w.records[0]!.offset === 4)!;
      expect(again).toMatchObject({ attempts: 2, remembered: true, error: 'boom' });
      expect(again.records.map((r) => r.offset)).toEqual([4, 5]);
    }
    expect(offsetsOf(planWork(range(1, 9), notSkipped, limits, [failing]))).toEqual([[1, 2], [4, 5], [7, 8]]);
  });

  it('keeps bisected halves apart and a give-up waiting for the destination as it was', () => {
    const halves: RememberedItem[] = [
      { from: 0, until: 1, attempts: 0, bytes: 0, sendFailures: 0 },
      { from: 2, until: 3, attempts: 0, bytes: 0, sendFailures: 0 },
      { from: 5, until: 5, attempts: 3, bytes: 0, sendFailures: 2, giveUp: 'RetryAttemptsExhausted' },
    ];
    const work = planWork(range(0, 9), all, limits, halves);
    expect(offsetsOf(work)).toEqual([[0, 1], [2, 3], [4], [5], [6, 7, 8, 9]]);
    expect(work[3]).toMatchObject({ giveUp: 'RetryAttemptsExhausted', attempts: 3, sendFailures: 2 });
    expect(rememberItems(work)).toEqual(halves);
  });

  it('drops what lies before the fetch (committed since) and takes a part of a set the fetch only partly holds', () => {
    const kept: RememberedItem[] = [{ from: 0, until: 2, attempts: 1, bytes: 0, sendFailures: 0 }, { from: 8, until: 12, attempts: 1, bytes: 0, sendFailures: 0 }];
    expect(offsetsOf(planWork(range(5, 9), all, limits, kept))).toEqual([[5, 6, 7], [8, 9]]);
  });

  it('property: every wanted record is planned exactly once, in order, and remembered sets keep their boundaries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 30 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 5 })), { maxLength: 5 }), (start, count, raw) => {
        const records = range(start, start + count - 1);
        const sorted = [...raw].sort((a, b) => a[0] - b[0]);
        const remembered: RememberedItem[] = [];
        let floor = -1;
        for (const [from, len] of sorted) {
          if (from <= floor) continue;
          remembered.push({ from, until: from + len, attempts: 1, bytes: 0, sendFailures: 0 });
          floor = from + len;
        }
        const work = planWork(records, notSkipped, limits, remembered);
        expect(work.flatMap((w) => w.records.map((r) => r.offset))).toEqual(records.filter(notSkipped).map((r) => r.offset));
        for (const w of work) {
          const m = remembered.find((x) => w.records.some((r) => r.offset >= x.from && r.offset <= x.until));
          if (m) expect(w.records.every((r) => r.offset >= m.from && r.offset <= m.until) && w.remembered).toBe(true);
          else expect(w.remembered).toBeUndefined();
        }
      }),
    );
  });

  it('gives an undecodable record an item of its own, in offset order, even one the filters would leave out', () => {
    const undecodable = new Map<number, Undecodable>([
      [3, { reason: 'SCHEMA_NOT_FOUND', error: "the record's value: schema 99 is not in the registry" }],
      [5, { reason: 'DESERIALIZATION_ERROR', error: "the record's value: the bytes are not Avro of the registered schema" }],
    ]);
    // 3 is a 'skip' record: the filters would leave it out, the registry failure comes first.
    const work = planWork(range(0, 9), notSkipped, limits, [], undecodable);
    expect(offsetsOf(work)).toEqual([[1, 2], [3], [4], [5], [7, 8]]);
    expect(work[1]).toEqual({ records: [range(3, 3)[0]], attempts: 0, bytes: 0, giveUp: 'SCHEMA_NOT_FOUND', error: "the record's value: schema 99 is not in the registry" });
    expect(work[3]).toMatchObject({ giveUp: 'DESERIALIZATION_ERROR', error: "the record's value: the bytes are not Avro of the registered schema" });
    for (const i of [0, 2, 4]) expect(work[i]!.giveUp).toBeUndefined();
  });

  it('still cuts the records around an undecodable one by the batch size', () => {
    const undecodable = new Map<number, Undecodable>([[5, { reason: 'DESERIALIZATION_ERROR', error: 'bad' }]]);
    const work = planWork(range(0, 11), all, limits, [], undecodable);
    expect(offsetsOf(work)).toEqual([[0, 1, 2, 3], [4], [5], [6, 7, 8, 9], [10, 11]]);
    expect(work.map((w) => w.giveUp)).toEqual([undefined, undefined, 'DESERIALIZATION_ERROR', undefined, undefined]);
    expect(rememberItems(work)).toEqual([]);
  });

  it('takes the registry\'s verdict again on every fetch: a record that now decodes is fresh work, a new reason replaces the old one', () => {
    const waiting: RememberedItem = { from: 4, until: 4, attempts: 0, bytes: 0, sendFailures: 3, giveUp: 'SCHEMA_NOT_FOUND', error: 'no schema 99' };
    const decodesNow = planWork(range(0, 7), all, limits, [waiting]);
    expect(offsetsOf(decodesNow)).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(decodesNow.every((w) => w.giveUp === undefined)).toBe(true);
    const otherReason = planWork(range(0, 7), all, limits, [waiting], new Map([[4, { reason: 'DESERIALIZATION_ERROR' as const, error: 'truncated' }]]));
    expect(otherReason[1]).toMatchObject({ giveUp: 'DESERIALIZATION_ERROR', error: 'truncated', sendFailures: 3, remembered: true });
  });

  it('brings back an undecodable record whose send to the destination failed as it was left, sends counted', () => {
    const undecodable = new Map<number, Undecodable>([[4, { reason: 'SCHEMA_NOT_FOUND', error: 'no schema 99' }]]);
    const waiting: RememberedItem = { from: 4, until: 4, attempts: 0, bytes: 0, sendFailures: 2, giveUp: 'SCHEMA_NOT_FOUND', error: 'no schema 99' };
    const work = planWork(range(0, 7), all, limits, [waiting], undecodable);
    expect(offsetsOf(work)).toEqual([[0, 1, 2, 3], [4], [5, 6, 7]]);
    expect(work[1]).toMatchObject({ giveUp: 'SCHEMA_NOT_FOUND', sendFailures: 2, remembered: true, error: 'no schema 99' });
    expect(rememberItems(work)).toEqual([waiting]);
  });

  it('property: with undecodable records, every wanted or undecodable record is planned once, in order, each undecodable one alone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 30 }), fc.uniqueArray(fc.integer({ min: 0, max: 50 }), { maxLength: 8 }), (start, count, bad) => {
        const records = range(start, start + count - 1);
        const undecodable = new Map<number, Undecodable>(bad.map((o) => [o, { reason: o % 2 ? 'SCHEMA_NOT_FOUND' : 'DESERIALIZATION_ERROR', error: `bad ${o}` }]));
        const work = planWork(records, notSkipped, limits, [], undecodable);
        const wanted = records.filter((r) => undecodable.has(r.offset) || notSkipped(r)).map((r) => r.offset);
        expect(work.flatMap((w) => w.records.map((r) => r.offset))).toEqual(wanted);
        for (const w of work) {
          const failed = w.records.filter((r) => undecodable.has(r.offset));
          if (failed.length === 0) expect(w.giveUp).toBeUndefined();
          else {
            expect(w.records).toHaveLength(1);
            expect([w.giveUp, w.error]).toEqual([undecodable.get(failed[0]!.offset)!.reason, `bad ${failed[0]!.offset}`]);
          }
          expect(w.records.length).toBeLessThanOrEqual(limits.batchSize);
        }
      }),
    );
  });

  it('gives up at once on a record that could not be read, or that a filter threw on, and goes on with the rest', () => {
    const records = range(0, 5);
    records[2] = { ...records[2]!, unreadable: { reason: 'HeadersOverLimit', error: 'too many' } };
    const throwsOn4 = (r: KafkaRecord) => {
      if (r.offset === 4) throw new RangeError('Maximum call stack size exceeded');
      return true;
    };
    const work = planWork(records, throwsOn4, limits);
    expect(offsetsOf(work)).toEqual([[0, 1], [2], [3], [4], [5]]);
    expect(work[1]).toMatchObject({ giveUp: 'HeadersOverLimit', error: 'too many' });
    expect(work[3]).toMatchObject({ giveUp: 'FilterFailed', error: expect.stringMatching(/Maximum call stack/) });
    // Remembered with a failed send, it comes back as the same give-up, keeping its count.
    const again = planWork(records, throwsOn4, limits, rememberItems([{ ...work[1]!, remembered: true, sendFailures: 3 }]));
    expect(again[1]).toMatchObject({ giveUp: 'HeadersOverLimit', sendFailures: 3 });
  });
});
