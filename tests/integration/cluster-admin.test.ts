/** framework/kafka/kafkajs/admin.ts against the broker: what its callers rely on beyond kafkajs's admin. */
import { afterAll, expect, it } from 'vitest';
import { createTopic, deleteTopic, uniqueName, withAdmin } from '../support/kafka.ts';

const topic = uniqueName('cluster-admin');
afterAll(() => deleteTopic(topic));

it('raises a partition count, and takes asking for a count the topic has already as done (a retried request the controller carried out)', async () => {
  await createTopic(topic, 1);
  await withAdmin((a) => a.createPartitions(topic, 3));
  await withAdmin((a) => a.createPartitions(topic, 3));
  expect(await withAdmin((a) => a.partitionCount(topic))).toBe(3);
  await withAdmin((a) => a.createPartitions(topic, 2)); // it has more already: nothing to raise
  expect(await withAdmin((a) => a.partitionCount(topic))).toBe(3);
});
