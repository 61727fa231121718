/**
 * The baseline: a bare kafkajs consumer whose eachBatch does nothing, with the same fetch
 * settings and partition concurrency the Sluice poller gives kafkajs (framework/poller/tuning.ts),
 * and kafkajs's own defaults for the rest (auto-resolve, commit after each batch).
 */
import type { Kafka } from 'kafkajs';
import { groupTuning } from '../../framework/poller/tuning.ts';

export interface BareOptions {
  topic: string;
  groupId: string;
  concurrency: number;
  maximumBatchingWindowMs: number;
  onBatchStart?(): void;
  onRecords(count: number): void;
}

export async function startBare(kafka: Kafka, o: BareOptions): Promise<{ stop(): Promise<void> }> {
  const t = groupTuning({ maximumBatchingWindowMs: o.maximumBatchingWindowMs, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, maxPollIntervalMs: 300_000, concurrency: o.concurrency });
  const consumer = kafka.consumer({
    groupId: o.groupId,
    sessionTimeout: t.sessionTimeoutMs,
    rebalanceTimeout: t.maxPollIntervalMs,
    heartbeatInterval: t.heartbeatIntervalMs,
    maxWaitTimeInMs: t.maxWaitTimeMs,
    minBytes: t.minBytes,
    maxBytesPerPartition: t.maxBytesPerPartition,
    allowAutoTopicCreation: false,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [o.topic], fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: t.concurrency,
    eachBatch: async ({ batch }) => {
      o.onBatchStart?.();
      o.onRecords(batch.messages.length);
    },
  });
  return { stop: () => consumer.disconnect() };
}
