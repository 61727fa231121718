/**
 * A queue trigger given the consumerGroupId of a consumer group (a stream trigger's, or any
 * classic consumer's): the broker refuses the share heartbeat (Kafka 4.4 answers GROUP_ID_NOT_FOUND,
 * "Group … is not a share group."), and the trigger is refused at start in one line that says what
 * to change, not started and restarted until its supervisor gives up.
 */
import { afterAll, expect, it } from 'vitest';
import { Instrumentation } from '../../framework/observe/events.ts';
import { failurePolicy, recordsOf, startRecorder } from '../support/harness.ts';
import { createTopic, deleteTopic, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topics: string[] = [];
afterAll(async () => {
  for (const t of topics) await deleteTopic(t).catch(() => undefined);
});

it('refuses a queue trigger whose group id a consumer group holds, in one line naming the fix, without restarting it', async () => {
  const topic = uniqueName('queue-kind');
  const failed = uniqueName('queue-kind-failed');
  topics.push(topic, failed);
  await createTopic(topic, 1);
  await createTopic(failed, 1);
  await produce(topic, [{ value: 'v0', partition: 0 }]);
  // A stream trigger's consumer group holds the id (its commit keeps the group after it leaves).
  const group = uniqueName('group-held');
  const stream = await startRecorder({ topic, consumerGroupId: group });
  try {
    await waitFor('the stream trigger invoked', () => stream.seen().flatMap(recordsOf).length >= 1);
  } finally {
    await stream.stop();
  }
  const events = new Instrumentation();
  let restarts = 0;
  events.on('trigger.consumer_restarted', () => restarts++);
  const onFailure = { kind: 'kafka' as const, uri: `kafka://${failed}`, topic: failed };
  const refused = await startRecorder({ topic, consumerGroupId: group, consumptionMode: 'queue', failure: failurePolicy({ onFailure }), events }).then(
    async (h) => {
      await h.stop();
      return 'started';
    },
    (e: Error) => e.message,
  );
  console.log(`[queue-kind] ${refused}`);
  expect(refused).toMatch(new RegExp(`^share group "${group}" (is not a share group \\(GROUP_ID_NOT_FOUND\\)|is used by a consumer group of another kind \\(INCONSISTENT_GROUP_PROTOCOL\\)).*give the queue-mode trigger a consumerGroupId of its own$`));
  expect(restarts).toBe(0);
});
