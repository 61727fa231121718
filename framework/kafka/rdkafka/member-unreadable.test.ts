/**
 * A record batch librdkafka could not read, as Sluice's patched binding hands it over: in its place
 * among the records, at the batch's last offset, again at each fetch until the partition moves past
 * it. The member runs it once, as the BatchUnreadable record that ends its batch, then seeks past
 * it. Without the patch the member leaves librdkafka's size settings alone: the unpatched binding
 * drops a partition's error, and a batch librdkafka refused under a setting of Sluice's would be
 * fetched again for ever (found by review). librdkafka is replaced by a fake; the member's
 * own code runs unchanged.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('./client.ts', async () => (await import('../../../tests/support/fake-rdkafka.ts')).fakeRdkafkaClient());
const { FakeConsumer, fakeMemberOptions, fakePatch, msg, silentLogger } = await import('../../../tests/support/fake-rdkafka.ts');
const { createRdkafkaMember } = await import('./member.ts');

const unreadable = (offset: number) => ({
  topic: 'orders', partition: 0, offset, size: 0, value: null, key: null, timestamp: 0,
  sluiceError: { code: -198, message: `Decompression (codec 0x1) of message at 1 of 65305 bytes failed: Local: Invalid compressed data` },
});

describe('rdkafka member: a record batch librdkafka could not read', () => {
  it('runs once as the BatchUnreadable record ending its batch, then the partition seeks past it', async () => {
    const batches: Array<Array<{ offset: number; reason?: string }>> = [];
    const member = createRdkafkaMember(fakeMemberOptions({
      onCrash: (e: Error) => { throw e; },
      async onBatch(batch: any) {
        batches.push(batch.records.map((r: any) => ({ offset: r.offset, ...(r.unreadable ? { reason: r.unreadable.reason } : {}) })));
        await batch.commit(batch.records.at(-1).offset + 1);
      },
    }));
    await member.start();
    const c = FakeConsumer.last;
    c.hw = 6;
    // Offset 0, then the batch 1-4 librdkafka cannot read, handed over again by the next fetches.
    c.queue.push(msg(0, 100) as any, unreadable(4) as any);
    await vi.waitFor(() => expect(c.seeks).toContain(5));
    c.queue.push(unreadable(4) as any); // a fetch from before the seek
    c.queue.push(msg(5, 100) as any);
    await vi.waitFor(() => expect(batches.flat().map((r) => r.offset)).toContain(5));
    await member.stop();
    expect(batches).toEqual([[{ offset: 0 }, { offset: 4, reason: 'BatchUnreadable' }], [{ offset: 5 }]]);
  });

  it("without Sluice's patch, says so once and leaves librdkafka's fetch and receive sizes as they are", async () => {
    fakePatch.patched = false;
    fakePatch.why = 'the binding is prebuilt';
    const warned: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => warned.push(m) };
    try {
      const member = createRdkafkaMember(fakeMemberOptions({ logger, onCrash: (e: Error) => { throw e; }, async onBatch() {} }));
      await member.start();
      const { config } = FakeConsumer.last;
      await member.stop();
      expect(warned.filter((w) => w.includes("runs without Sluice's bounds: the binding is prebuilt"))).toHaveLength(1);
      expect(config).not.toHaveProperty(['receive.message.max.bytes']);
      expect(config).not.toHaveProperty(['fetch.max.bytes']);
    } finally {
      fakePatch.patched = true;
      delete fakePatch.why;
    }
  });

  it("with the patch, a response's records stay within Sluice's bound, and no batch is too large to receive", async () => {
    const member = createRdkafkaMember(fakeMemberOptions({ onCrash: (e: Error) => { throw e; }, async onBatch() {} }));
    await member.start();
    const { config } = FakeConsumer.last;
    await member.stop();
    expect(config['receive.message.max.bytes']).toBe(2_147_483_647);
    expect(config['fetch.max.bytes']).toBe(32 * 1024 * 1024);
  });
});
