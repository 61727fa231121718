import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { decodeMetadata } from './commit-metadata.ts';
import { orderingKey } from './key-scheduler.ts';
import { PartitionState, pendingOf, type Pending } from './partition-state.ts';

const record = (offset: number, key: string | null = `k${offset % 3}`): KafkaRecord =>
  ({ topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: key === null ? null : Buffer.from(key), value: Buffer.from('v'), headers: [] }) as unknown as KafkaRecord;
/** Every record kept (none filtered out) unless listed in `filtered`. */
const verdicts = (records: KafkaRecord[], filtered: number[] = []) =>
  new Map<number, Pending>(records.filter((r) => !filtered.includes(r.offset)).map((r) => [r.offset, pendingOf(r, 10, undefined, orderingKey)]));
const batch = (from: number, to: number, skip: number[] = []) => Array.from({ length: to - from + 1 }, (_, i) => record(from + i)).filter((r) => !skip.includes(r.offset));
const ranges = (s: PartitionState) => {
  const point = s.commitPoint(4096)!;
  const d = decodeMetadata(point.metadata, point.next);
  return { next: point.next, done: d.kind === 'done' ? d.ranges.map((r) => `${r.from}-${r.until}`) : d.kind };
};

describe('PartitionState', () => {
  it('commits the lowest owed offset, with what is done beyond it, filtered records and gaps counting as done', () => {
    const s = new PartitionState('m/1', 100);
    const records = batch(100, 109, [104]); // 104: a gap (compacted away)
    expect(s.admit(records, verdicts(records, [105]), 110, 1000)).toBe(8);
    expect(ranges(s)).toEqual({ next: 100, done: ['104-105'] });
    s.done([100, 101, 103, 106, 107]);
    expect(ranges(s)).toEqual({ next: 102, done: ['103-107'] });
    s.done([102, 108, 109]);
    expect(ranges(s)).toEqual({ next: 110, done: 'none' });
  });

  it('starts from the first fetch when the group has no commit: nothing to commit until a record is done', () => {
    const s = new PartitionState('m/1', undefined, [], null, true);
    const records = batch(5, 8);
    s.admit(records, verdicts(records), 9, 1000);
    // What a commit now would say is where the partition starts: the same as no commit (the walk printed '@ 5' then '@ 6').
    expect(s.commitPoint(4096)).toMatchObject({ next: 5, metadata: null });
    expect(s.basis).toEqual({ next: 5, metadata: null });
    s.done([5]);
    expect(s.commitPoint(4096)).toMatchObject({ next: 6, metadata: null });
    // A group commit set aside (stale, or not read) is no basis: the first fetch is committed over it.
    const stale = new PartitionState('m/1', undefined);
    stale.admit(records, verdicts(records), 9, 1000);
    expect(stale.basis).toBeUndefined();
  });

  it('skips what it fetched before, and what the commit it started from marks done', () => {
    const s = new PartitionState('m/1', 10, [{ from: 12, until: 13 }, { from: 20, until: 25 }], 'x');
    const first = batch(10, 15);
    expect(s.admit(first, verdicts(first), 16, 1000)).toBe(4); // 10, 11, 14, 15
    expect(s.pending.map((p) => p.offset)).toEqual([10, 11, 14, 15]);
    // The seed's ranges not fetched yet travel on in the commit's metadata.
    expect(ranges(s)).toEqual({ next: 10, done: ['12-13', '20-25'] });
    const again = batch(10, 30);
    expect(s.admit(again, verdicts(again), 31, 1000)).toBe(9); // 16-19 and 26-30; nothing twice
    expect(s.fetchedEnd).toBe(31);
  });

  it('moves its fetch position past a done run the commit starts with', () => {
    const s = new PartitionState('m/1', 10, [{ from: 11, until: 40 }], 'x');
    const first = batch(10, 10);
    s.admit(first, verdicts(first), 11, 1000);
    expect(s.fetchedEnd).toBe(41);
    expect(s.lowestInMemory()).toBe(10);
  });

  it('takes nothing past the window beyond the lowest owed offset, and says the window is full', () => {
    const s = new PartitionState('m/1', 0);
    const records = batch(0, 20);
    expect(s.admit(records, verdicts(records), 21, 10)).toBe(11); // 0-10
    expect(s.windowFull).toBe(true);
    expect(s.fetchedEnd).toBe(11); // 11 and on are fetched again
    s.started(new Set([0, 1, 2]));
    expect(s.pending.map((p) => p.offset)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
