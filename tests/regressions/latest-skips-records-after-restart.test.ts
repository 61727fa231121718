/**
 * LATEST skipped records after a restart: kafkajs resolves a partition the group never committed
 * to its log end in memory only, so a member that joined, saw nothing and stopped left no
 * position, and the next member started at the new log end, past what arrived in between.
 * AWS's LATEST starts a new mapping at the end once; after that nothing is skipped.
 */
import { afterAll, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('latest-restart');
const harnesses: Harness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.stop()));
  await deleteTopic(topic);
});

it('a LATEST trigger restarted before any record arrived invokes every record produced after it first ran', async () => {
  await createTopic(topic, 2);
  await produce(topic, [{ value: 'before-0', partition: 0 }, { value: 'before-1', partition: 1 }]);
  const consumerGroupId = uniqueName('group');
  const first = await startRecorder({ topic, consumerGroupId, startingPosition: 'LATEST' });
  harnesses.push(first);
  await waitFor('joined', () => first.joins.length > 0);
  await new Promise((r) => setTimeout(r, 1500)); // a fetch or two: kafkajs has resolved LATEST by now
  await first.stop();
  harnesses.pop();
  expect(first.seen()).toEqual([]);

  await produce(topic, Array.from({ length: 5 }, (_, i) => ({ value: `after-${i}`, partition: i % 2 })));
  const second = await startRecorder({ topic, consumerGroupId, startingPosition: 'LATEST', recordFile: first.recordFile });
  harnesses.push(second);
  await waitFor('joined', () => second.joins.length > 0);
  await new Promise((r) => setTimeout(r, 1500));
  const values = second.seen().flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString()).sort();
  const committed = await offsets(consumerGroupId, topic);
  console.log(`[latest-restart] invoked ${values.length} of 5 produced while stopped; committed ${JSON.stringify(committed.map((p) => [p.partition, p.committed, p.logEnd]))}`);
  expect(values).toEqual(['after-0', 'after-1', 'after-2', 'after-3', 'after-4']);
  expect(committed.every((p) => p.committed === p.logEnd)).toBe(true);
});
