/**
 * Review 2 (4b1e4d9): the share-group backlog reader's lifecycle. A queue member stopped while it
 * is starting (the supervisor's stop(deadlineAt) passes a restart still joining, and stops the
 * member it spawned) resolves its stop, then the start goes on and starts the reader anyway: it
 * reads, and reports, every 5 s for as long as the process lives, on an admin connection nothing
 * closes.
 */
import { afterAll, expect, it, vi } from 'vitest';
import { Instrumentation } from '../../framework/observe/events.ts';
import { ShareMember } from '../../framework/kafka/share/share-member.ts';
import { createQueueMember } from '../../framework/queue/queue-member.ts';
import type { QueueRunner } from '../../framework/queue/queue-runner.ts';
import { failurePolicy, recorderTrigger } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, kafka, produce, testLogger, uniqueName } from '../support/kafka.ts';

const topics: string[] = [];
afterAll(async () => {
  await Promise.all(topics.map(deleteTopic));
});

it('a queue member stopped while starting reads no backlog after its stop resolved', async () => {
  const topic = uniqueName('queue-lag-stop');
  const failed = uniqueName('queue-lag-stop-failed');
  topics.push(topic, failed);
  await createTopic(topic, 2);
  await createTopic(failed, 1);
  await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}`, partition: i % 2 })));
  const trigger = recorderTrigger({ topic, consumptionMode: 'queue', failure: failurePolicy({ maximumRetryAttempts: 2, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) }, '/dev/null');
  const events = new Instrumentation();
  const readings: number[] = [];
  events.on('queue.lag', () => void readings.push(Date.now()));
  const runner = { bind: () => undefined, take: () => undefined, stop: async () => undefined } as unknown as QueueRunner;
  const member = createQueueMember({ trigger, kafka: kafka(), brokers: brokers(), runner, concurrency: 1, logger: testLogger, events, onCrash: () => undefined });

  // The stop arrives while the member is joining: just as the share member's own start returns.
  let stopping: Promise<void> | undefined;
  const start = ShareMember.prototype.start;
  const spy = vi.spyOn(ShareMember.prototype, 'start').mockImplementation(async function (this: ShareMember) {
    await start.call(this);
    stopping = member.stop(Date.now() + 5_000);
  });
  try {
    await member.start();
  } finally {
    spy.mockRestore();
  }
  await stopping;
  const stoppedAt = Date.now();
  await new Promise((r) => setTimeout(r, 11_000)); // two reading periods (5 s)
  const after = readings.filter((t) => t >= stoppedAt).length;
  expect(after, `backlog readings reported after the member's stop resolved (all readings: ${readings.length})`).toBe(0);
});
