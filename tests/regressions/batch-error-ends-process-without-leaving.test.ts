/**
 * A crash that left no one informed (issue 39, item 5): on librdkafka, an error rethrown from a
 * batch (a fault of the poller's own, not a handler's failure, which is a result) rejected the
 * partition's promise and nothing handled it: an unhandled rejection that ends the whole process
 * without a LeaveGroup, past the supervisor that restarts the member when kafkajs reports the
 * same error. Now both engines report it as the member's crash (onCrash, group.crash), and the
 * member still stops cleanly. The member runs against the real broker; its batch handler is the
 * test's, and throws.
 */
import { afterAll, expect, it } from 'vitest';
import { createGroupMember } from '../../framework/kafka/kafkajs/group-member.ts';
import type { GroupMember } from '../../framework/kafka/member-port.ts';
import { createRdkafkaMember } from '../../framework/kafka/rdkafka/member.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { engineUnderTest } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, kafka, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';

const topics: string[] = [];
afterAll(async () => {
  await Promise.all(topics.map(deleteTopic));
});

it('an error thrown from a batch is the member\'s crash, reported once, and the member stops cleanly', async () => {
  const topic = uniqueName('batch-error');
  topics.push(topic);
  await createTopic(topic, 3);
  await produce(topic, Array.from({ length: 30 }, (_, i) => ({ partition: i % 3, value: `v${i}` })));

  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  const crashes: Error[] = [];
  const events = new Instrumentation();
  const reported: string[] = [];
  events.on('group.crash', (e) => reported.push(e.error.message));
  const options = {
    groupId: uniqueName('batch-error-group'), topic, fromBeginning: true, sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 60_000, heartbeatIntervalMs: 1_000,
    maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 1024 * 1024, concurrency: 3, logger: testLogger, events,
    onBatch: async () => {
      throw new Error('a fault of the poller\'s own');
    },
    onCrash: (e: Error) => void crashes.push(e),
  };
  const member: GroupMember = engineUnderTest().engine === 'librdkafka'
    ? createRdkafkaMember({ ...options, brokers: brokers(), clientId: 'batch-error', groupProtocol: 'consumer', askedBy: 'functions.f.events[0].sluice' })
    : createGroupMember({ ...options, kafka: kafka() });
  try {
    await member.start();
    await waitFor('the member to crash', () => crashes.length > 0, 60_000);
    // Long enough for the other partitions' batches to have failed too.
    await new Promise((r) => setTimeout(r, 1_000));
  } finally {
    await member.stop(Date.now() + 10_000);
    process.off('unhandledRejection', onUnhandled);
  }
  console.log(`[batch-error, ${engineUnderTest().engine}] crashes reported ${crashes.length} (${crashes[0]?.message}); group.crash ${reported.length}; unhandled rejections ${unhandled.length}`);
  expect(unhandled).toEqual([]);
  expect(crashes.map((e) => e.message)).toContain('a fault of the poller\'s own');
  expect(crashes).toHaveLength(1);
  expect(reported).toHaveLength(1);
});
