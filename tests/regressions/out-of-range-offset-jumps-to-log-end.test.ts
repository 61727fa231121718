/**
 * An offset out of range jumped to the log end: a partition held longer than the topic's
 * retention (here: a poison record retried forever while the records before offset 5 are deleted,
 * as retention deletes a segment) meets OFFSET_OUT_OF_RANGE on its next fetch, and kafkajs
 * commits its default offset, which for LATEST was the log end: every record still in the log
 * was skipped without a word. Now it resumes at the first record still in the log.
 */
import { afterAll, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, kafka, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('out-of-range');
const harnesses: Harness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.stop()));
  await deleteTopic(topic);
});

it('a LATEST partition whose held offset was deleted resumes at the first record still in the log', async () => {
  await createTopic(topic, 1);
  const h = await startRecorder({ topic, startingPosition: 'LATEST', batchSize: 1, env: { POISON_OFFSETS: '0' } });
  harnesses.push(h);
  await waitFor('joined', () => h.joins.length > 0);
  await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `r${i}` })));
  await waitFor('offset 0 failed twice', () => h.seen().filter((s) => recordsOf(s)[0]!.offset === 0).length >= 2);

  const admin = kafka().admin();
  await admin.connect();
  await admin.fetchTopicMetadata({ topics: [topic] });
  await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '5' }] }); // retention, now
  await admin.disconnect();

  // Before the fix the partition never got there: the assertions below say what it did instead.
  const drained = async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 10;
  await waitFor('the group committed to the log end', drained, 30_000).catch(() => undefined);
  const committed = (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed;
  const invoked = [...new Set(h.seen().flatMap(recordsOf).map((r) => r.offset))].sort((a, b) => a - b);
  console.log(`[out-of-range] offsets invoked: ${invoked.join(',')} (0 retried until deleted, 1-4 deleted unread); committed ${committed}`);
  expect(invoked).toEqual([0, 5, 6, 7, 8, 9]);
  expect(committed).toBe(10);
});
