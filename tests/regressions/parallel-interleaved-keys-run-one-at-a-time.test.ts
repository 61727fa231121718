/**
 * parallelizationFactor gave no parallelism when keys interleave (issue 39, item 9): tried as a
 * new user would, factor 4, 8 keys interleaved, batchSize 10: offsets 0-9 ran, then 10-19, never
 * two at once, while the start line promised up to 4 invocations of a partition at once. Chunks
 * were cut by offset, first fit, so the first chunk held every key and blocked the next. Chunks
 * are now formed by key: the same shape runs 4 at once, each key's records still in order.
 */
import { afterAll, expect, it } from 'vitest';
import { checkKeyOrder, recordIntervals } from '../support/parallel-oracle.ts';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topics: string[] = [];
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await Promise.all(topics.map(deleteTopic));
});

it('8 keys interleaved at parallelizationFactor 4: chunks run side by side, each key in order', async () => {
  const topic = uniqueName('interleaved');
  topics.push(topic);
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 80 }, (_, i) => ({ key: `k${i % 8}`, value: `v${i}`, partition: 0 })));
  h = await startRecorder({ topic, batchSize: 10, parallelizationFactor: 4, env: { SLEEP_MS: '300' } });
  const spans = recordIntervals(h.events);
  await waitFor('all 80 committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 80, 60_000);
  const report = checkKeyOrder(h.seen(), spans);
  console.log(`[interleaved] ${h.seen().length} invocations, at most ${report.maxInFlight} at once, overlaps of a key ${report.overlaps.length}, out of order ${report.outOfOrder.length}`);
  expect(report.maxInFlight).toBeGreaterThanOrEqual(3);
  expect(report.overlaps).toEqual([]);
  expect(report.outOfOrder).toEqual([]);
});
