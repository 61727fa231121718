/**
 * Where a group with no committed offset starts: TRIM_HORIZON reads everything, LATEST only
 * what arrives after the member joined, AT_TIMESTAMP the first record at or after the time.
 * And the batching window gathers records that trickle in into one invocation.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, recentTimestampBase, uniqueName, waitFor } from '../support/kafka.ts';

describe('starting position and batching window', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });
  const newTopic = async (prefix: string) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, 1);
    return topic;
  };
  const allCommitted = (h: Harness, topic: string) => async () => (await offsets(h.trigger.consumerGroupId, topic)).every((p) => p.committed === p.logEnd);

  it('AT_TIMESTAMP starts at the first record at or after the timestamp (epoch seconds)', async () => {
    const topic = await newTopic('at-ts');
    const base = recentTimestampBase();
    await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}`, timestamp: base + i * 1000 })));
    const h = await startRecorder({ topic, startingPosition: 'AT_TIMESTAMP', startingPositionTimestampMs: base + 5000 });
    harnesses.push(h);
    await waitFor('committed to the end', allCommitted(h, topic));
    expect(h.seen().flatMap(recordsOf).map((r) => r.offset)).toEqual([5, 6, 7, 8, 9]);
  });

  it('LATEST skips what was there before the member joined', async () => {
    const topic = await newTopic('latest');
    await produce(topic, Array.from({ length: 5 }, (_, i) => ({ value: `old${i}` })));
    const h = await startRecorder({ topic, startingPosition: 'LATEST' });
    harnesses.push(h);
    await waitFor('joined', () => h.joins.length > 0);
    // kafkajs resolves LATEST when it first fetches the partition; give it that fetch.
    await new Promise((r) => setTimeout(r, 1500));
    await produce(topic, Array.from({ length: 3 }, (_, i) => ({ value: `new${i}` })));
    await waitFor('new records committed', allCommitted(h, topic));
    const values = h.seen().flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString());
    expect(values).toEqual(['new0', 'new1', 'new2']);
  });

  it('gathers records that trickle in within maximumBatchingWindow into one invocation', async () => {
    const topic = await newTopic('window');
    const h = await startRecorder({ topic, maximumBatchingWindowMs: 3000 });
    harnesses.push(h);
    await waitFor('joined', () => h.joins.length > 0);
    for (let i = 0; i < 5; i++) {
      await produce(topic, [{ value: `w${i}` }]);
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitFor('committed', allCommitted(h, topic));
    const sizes = h.seen().map((s) => recordsOf(s).length);
    console.log(`[window] 5 records produced 100 ms apart arrived in invocations of ${JSON.stringify(sizes)}`);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5);
    expect(sizes.length).toBeLessThanOrEqual(2);
  });
});
