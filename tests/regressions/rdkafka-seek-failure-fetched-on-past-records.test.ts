/**
 * A seek that failed was only logged (issue 39, item 7): when a batch leaves records behind (a
 * retry, the poll budget), the librdkafka member drops the partition's buffer and seeks back to
 * them; a seek that failed or timed out was logged as "the partition fetches on from where it
 * was", past the dropped records, which no batch then ran. Now the seek is asked again, no record
 * fetched past it reaches a batch, and after 3 failures the member stops (its successor fetches
 * from the group's commit). No broker fails a seek on demand: librdkafka is replaced by a fake
 * (tests/support/fake-rdkafka.ts) whose seeks answer an error; the member's code runs unchanged.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../framework/kafka/rdkafka/client.ts', async () => (await import('../support/fake-rdkafka.ts')).fakeRdkafkaClient());
const { FakeConsumer, fakeMemberOptions, msg } = await import('../support/fake-rdkafka.ts');
const { createRdkafkaMember } = await import('../../framework/kafka/rdkafka/member.ts');

describe('librdkafka member: a seek that fails', () => {
  it('a seek that keeps failing stops the member instead of fetching on past the records the batch left', async () => {
    const crashes: Error[] = [];
    const batches: number[][] = [];
    const member = createRdkafkaMember(fakeMemberOptions({
      onCrash: (e: Error) => void crashes.push(e),
      // A retry: the batch ends where it began, so the partition must fetch from offset 0 again.
      async onBatch(batch: any) {
        batches.push(batch.records.map((r: { offset: number }) => r.offset));
        batch.fetchFrom(batch.records[0].offset);
      },
    }));
    await member.start();
    const c = FakeConsumer.last;
    c.seekError = { message: 'Local: Erroneous state', code: -172 };
    c.hw = 5;
    c.queue.push(...Array.from({ length: 5 }, (_, i) => msg(i, 100)));
    await vi.waitFor(() => expect(crashes).toHaveLength(1), { timeout: 5_000 });
    // Records from a fetch that went on past the failed seek: never handed to a batch.
    c.queue.push(...Array.from({ length: 5 }, (_, i) => msg(5 + i, 100)));
    await new Promise((r) => setTimeout(r, 200));
    await member.stop();
    console.log(`[seek-failed] seeks ${JSON.stringify(c.seeks)}; crash: ${crashes[0]?.message}`);
    expect(c.seeks).toEqual([0, 0, 0]);
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
    expect(crashes[0]!.message).toMatch(/could not seek orders-0 to offset 0 \(3 tries, the last: Local: Erroneous state\)/);
  });
});
