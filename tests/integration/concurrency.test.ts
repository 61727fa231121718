/**
 * Partitions run concurrently up to the trigger's `concurrency`; within a partition a chunk
 * never starts before the previous one ended.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('concurrency', () => {
  const topic = uniqueName('concurrency');
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await deleteTopic(topic);
  });

  it('runs at most `concurrency` partitions at once, and one chunk at a time per partition', async () => {
    await createTopic(topic, 4);
    await produce(topic, Array.from({ length: 48 }, (_, i) => ({ value: `v${i}`, partition: i % 4 })));
    h = await startRecorder({ topic, batchSize: 4, concurrency: 2, env: { SLEEP_MS: '300' } });
    const spans: Array<{ partition: number; start: number; end?: number }> = [];
    h.events.on('poller.chunk_start', (e) => spans.push({ partition: e.partition, start: performance.now() }));
    h.events.on('poller.chunk_end', (e) => {
      spans.findLast((s) => s.partition === e.partition && s.end === undefined)!.end = performance.now();
    });
    await waitFor('committed', async () => (await offsets(h!.trigger.consumerGroupId, topic)).every((p) => p.committed === 12), 60_000);

    const points = spans.flatMap((s) => [{ t: s.start, d: 1 }, { t: s.end!, d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
    let now = 0;
    let peak = 0;
    for (const p of points) peak = Math.max(peak, (now += p.d));
    console.log(`[concurrency] ${spans.length} chunks over 4 partitions, at most ${peak} at once (limit 2)`);
    expect(peak).toBe(2);
    for (let p = 0; p < 4; p++) {
      const own = spans.filter((s) => s.partition === p).sort((a, b) => a.start - b.start);
      for (let i = 1; i < own.length; i++) expect(own[i]!.start).toBeGreaterThanOrEqual(own[i - 1]!.end!);
    }
  });
});
