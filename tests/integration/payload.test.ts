/**
 * Chunks respect Lambda's 6 MB request limit measured on the serialized event: records
 * totalling more than 6 MB in one fetch become several invocations, and a 7 MB record that
 * can never fit is set aside without stalling its partition.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES } from '../../framework/chunking/chunker.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('payload limit', () => {
  const topic = uniqueName('payload');
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await deleteTopic(topic);
  });

  it('splits a large fetch into events of at most 6 MB and sets a 7 MB record aside', async () => {
    await createTopic(topic, 1);
    const mb = 1024 * 1024;
    await produce(topic, Array.from({ length: 7 }, (_, i) => ({ value: randomBytes(mb), key: `big-${i}` })));
    await produce(topic, [{ value: randomBytes(7 * mb), key: 'huge' }]);
    await produce(topic, Array.from({ length: 5 }, (_, i) => ({ value: `small-${i}` })));

    // One partition at a time gets a whole fetch (10 MB), more than one invocation can carry.
    h = await startRecorder({ topic, batchSize: 100, concurrency: 1 });
    const starts: Array<{ fetchedAt: number; bytes: number; count: number }> = [];
    const oversized: Array<{ offsets: number[]; reason: string }> = [];
    h.events.on('poller.chunk_start', (e) => starts.push(e));
    h.events.on('poller.skipped', (e) => oversized.push(e));
    await waitFor('committed to the end', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 13, 90_000);

    const sizes = h.seen().map((s) => Buffer.byteLength(JSON.stringify(s.event)));
    const perFetch = new Map<number, number>();
    for (const s of starts) perFetch.set(s.fetchedAt, (perFetch.get(s.fetchedAt) ?? 0) + 1);
    console.log(`[payload] event sizes ${sizes.join(', ')} bytes (limit ${MAX_PAYLOAD_BYTES}); chunks per fetch ${[...perFetch.values()].join(',')}; set aside ${JSON.stringify(oversized)}`);

    for (const size of sizes) expect(size).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(Math.max(...perFetch.values())).toBeGreaterThanOrEqual(2);
    expect(oversized).toMatchObject([{ offsets: [7], reason: 'PayloadTooLarge' }]);
    const delivered = h.seen().flatMap(recordsOf).map((r) => r.offset);
    expect(delivered).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]);
  });
});
