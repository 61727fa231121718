/**
 * The member drops records its assignment already committed past (a fetch from before a seek can
 * deliver them again). A partition paused because its buffer was full, whose buffer then held only
 * such records, was never resumed (found by review: it stalled for good). librdkafka is replaced
 * by a fake that honours pause and resume (a paused partition delivers nothing); the member's
 * own code runs unchanged.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('./client.ts', async () => (await import('../../../tests/support/fake-rdkafka.ts')).fakeRdkafkaClient());
const { FakeConsumer, fakeMemberOptions, msg } = await import('../../../tests/support/fake-rdkafka.ts');

const { createRdkafkaMember } = await import('./member.ts');

describe('rdkafka member: records already committed past', () => {
  it('skips records committed past, and a partition paused for a full buffer of them fetches on', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const member = createRdkafkaMember(fakeMemberOptions({
      onCrash: (e: Error) => { throw e; },
      async onBatch(batch: any) {
        batches.push(batch.records.map((r: { offset: number }) => r.offset));
        if (batches.length === 1) await gate;
        const r = await batch.commit(batch.records.at(-1).offset + 1);
        expect(r).toEqual({ ok: true });
      },
    }));
    await member.start();
    const c = FakeConsumer.last;
    c.hw = 10;
    c.queue.push(...Array.from({ length: 10 }, (_, i) => msg(i, 100)));
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    // While offsets 0-9 run: a fetch from before a seek delivers 5-9 again, 150 kB: the buffer is full, the partition paused.
    c.queue.push(...[5, 6, 7, 8, 9].map((o) => msg(o, 30_000)));
    await vi.waitFor(() => expect(c.paused.has(0)).toBe(true));
    release(); // batch 0-9 commits 10; the buffer (5-9) is all below it and is dropped
    // New records arrive.
    c.hw = 20;
    c.queue.push(...Array.from({ length: 10 }, (_, i) => msg(10 + i, 100)));
    await new Promise((r) => setTimeout(r, 1_000));
    console.log(`[committed-past] batches ${JSON.stringify(batches)}; partition 0 paused: ${c.paused.has(0)}; records waiting undelivered: ${c.queue.length}`);
    await member.stop();
    expect(batches).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]);
  });

  // After a leader change librdkafka knows no log end until the new leader's first fetch and answers
  // -1: read as a log end below the commit, the records were taken for a new log's and run again (the
  // fault tier's rolling restart made the parallel state start over from the group's commit so).
  it('a log end librdkafka does not know (-1) is not a log below the commit: records committed past stay skipped', async () => {
    const batches = await afterCommitOf5({ highWatermark: -1, second: [3, 4, 5, 6].map((o) => msg(o, 100)) });
    expect(batches).toEqual([{ offsets: [0, 1, 2, 3, 4], highWatermark: 5 }, { offsets: [5, 6], highWatermark: 7 }]);
  });

  // A new leader's high watermark can trail the last one's for a moment after a leader change: below
  // the commit, it was read as a new log and the records committed past ran again. ListOffsets decides.
  it.each([
    { logEnd: 7, delivered: [5, 6], what: 'ListOffsets says the log goes on: the records committed past stay skipped' },
    { logEnd: 4, delivered: [3, 4, 5, 6], what: 'ListOffsets agrees the log ends below the commit: a new log, every record runs' },
  ])('a log end below the commit, fetched: $what', async ({ logEnd, delivered }) => {
    const batches = await afterCommitOf5({ highWatermark: 4, second: [3, 4, 5, 6].map((o) => msg(o, 100)), readLogEnd: async () => logEnd }); // 4: below the commit (5)
    expect(batches.map((b) => b.offsets)).toEqual([[0, 1, 2, 3, 4], delivered]);
  });

  // With no log end known (-1), a new log's records below the old commit were dropped unasked (found by
  // review): their timestamps, newer than any the poller handed on, say they are new.
  it('no log end known and records newer than any handed on: a new log, every record runs', async () => {
    const { LogEnds } = await import('../log-end.ts');
    const ends = new LogEnds(async () => { throw new Error('ListOffsets not answering'); }, 200);
    // The topic deleted and created again: librdkafka knows no log end yet.
    const batches = await afterCommitOf5({
      highWatermark: -1, second: [0, 1, 2].map((o) => ({ ...msg(o, 100), timestamp: 60_000 })),
      readLogEnd: (_t: string, p: number, newest?: number) => ends.of(p, newest), seen: (records) => ends.seen(0, records),
    });
    expect(batches.map((b) => b.offsets)).toEqual([[0, 1, 2, 3, 4], [0, 1, 2]]);
  });
});

/**
 * The member delivers offsets 0-4 (log end 5) and the handler commits 5; then librdkafka reports
 * `highWatermark` and delivers `second`. Every batch the handler got, with its log end.
 */
async function afterCommitOf5(o: {
  highWatermark: number; second: ReturnType<typeof msg>[];
  readLogEnd?: (topic: string, partition: number, newest?: number) => Promise<number>; seen?: (records: any[]) => void;
}): Promise<Array<{ offsets: number[]; highWatermark: number }>> {
  const batches: Array<{ offsets: number[]; highWatermark: number }> = [];
  const member = createRdkafkaMember(fakeMemberOptions({
    onCrash: (e: Error) => { throw e; },
    ...(o.readLogEnd ? { readLogEnd: o.readLogEnd } : {}),
    async onBatch(batch: any) {
      batches.push({ offsets: batch.records.map((r: { offset: number }) => r.offset), highWatermark: batch.highWatermark });
      o.seen?.(batch.records);
      expect(await batch.commit(batch.records.at(-1).offset + 1)).toEqual({ ok: true });
    },
  }));
  await member.start();
  const c = FakeConsumer.last;
  c.hw = 5;
  c.queue.push(...Array.from({ length: 5 }, (_, i) => msg(i, 100)));
  await vi.waitFor(() => expect(batches).toHaveLength(1));
  c.hw = o.highWatermark;
  c.queue.push(...o.second);
  await vi.waitFor(() => expect(batches).toHaveLength(2));
  await member.stop();
  return batches;
}
