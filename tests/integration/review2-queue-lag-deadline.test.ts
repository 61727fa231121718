/**
 * Review 2 (4b1e4d9): a queue member's stop waits for the backlog reading under way, whatever its
 * deadline. GroupMember.stop(deadlineAt) leaves what still runs behind at the deadline (the
 * container's SIGTERM budget, stop-deadline.ts: 5 s kept for leaving and exiting), but
 * createQueueMember's stop first awaits lag.stop(), which awaits the reading in progress: one whose
 * admin connection is retrying an unreachable broker (kafkajs retries for many seconds; stood in
 * for here by a connect that answers after 20 s) holds the stop, the group leave and the exit.
 */
import { afterAll, expect, it, vi } from 'vitest';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { createQueueMember } from '../../framework/queue/queue-member.ts';
import type { QueueRunner } from '../../framework/queue/queue-runner.ts';
import { failurePolicy, recorderTrigger } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, kafka, testLogger, uniqueName } from '../support/kafka.ts';

const topics: string[] = [];
afterAll(async () => {
  await Promise.all(topics.map(deleteTopic));
});

it('a queue member\'s stop(deadlineAt) is not held past its deadline by a backlog reading under way', async () => {
  const topic = uniqueName('queue-lag-deadline');
  const failed = uniqueName('queue-lag-deadline-failed');
  topics.push(topic, failed);
  await createTopic(topic, 1);
  await createTopic(failed, 1);
  const trigger = recorderTrigger({ topic, consumptionMode: 'queue', failure: failurePolicy({ maximumRetryAttempts: 2, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) }, '/dev/null');
  const runner = { bind: () => undefined, take: () => undefined, stop: async () => undefined } as unknown as QueueRunner;
  const member = createQueueMember({ trigger, kafka: kafka(), brokers: brokers(), runner, concurrency: 1, logger: testLogger, events: new Instrumentation(), onCrash: () => undefined });

  const connect = ClusterAdmin.connect.bind(ClusterAdmin);
  let connecting = false;
  let connected = false;
  // An unreachable broker, retried: the admin connect answers only once the test lets it.
  let answer: () => void = () => undefined;
  const spy = vi.spyOn(ClusterAdmin, 'connect').mockImplementation(async (k, b) => {
    connecting = true;
    await new Promise<void>((r) => (answer = r));
    connected = true;
    return connect(k, b);
  });
  try {
    await member.start();
    while (!connecting) await new Promise((r) => setTimeout(r, 10));
    await member.stop(Date.now() + 1_000);
    // The stop ended at its deadline while the connect still hung: the reading did not hold it.
    expect(connected, 'the stop waited for the backlog reader\'s admin connect').toBe(false);
  } finally {
    answer();
    spy.mockRestore();
  }
});
