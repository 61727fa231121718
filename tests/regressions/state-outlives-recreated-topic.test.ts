/**
 * State that outlived the log it described: the offset a member last committed, and the retry
 * state the poller remembered for a partition, were kept when the topic was deleted and created
 * again (or a log truncated by an unclean leader election). Records of the new log below those
 * offsets were then skipped and committed past, or sent to the destination without running.
 */
import { afterAll, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topics: string[] = [];
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await Promise.all(topics.map(deleteTopic));
});

// parallelizationFactor 10 keeps state of its own (what it fetched, the commit's done ranges): it must not outlive the log either.
it.each([1, 10])('a topic deleted and created again while the poller runs: every record of the new log is invoked (parallelizationFactor %i)', async (parallelizationFactor) => {
  const topic = uniqueName('recreated');
  topics.push(topic);
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `old-${i}` })));
  await h?.stop();
  h = await startRecorder({ topic, maxConsumerRestarts: 50, parallelizationFactor });
  await waitFor('the old log committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 10);
  await deleteTopic(topic);
  await new Promise((r) => setTimeout(r, 3_000));
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 3 }, (_, i) => ({ value: `new-${i}` })));
  const fresh = () => h!.seen().flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString()).filter((v) => v.startsWith('new-'));
  await waitFor('the new records invoked', () => fresh().length >= 3, 60_000).catch(() => undefined);
  const committed = (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed;
  console.log(`[recreated, factor ${parallelizationFactor}] new records invoked: ${JSON.stringify(fresh())}; committed ${committed}`);
  expect(fresh().sort()).toEqual(['new-0', 'new-1', 'new-2']);
});
