/**
 * The client's ceiling, for the next engine decision (not a Sluice path): a bare
 * @platformatic/kafka 1.x consumer (its line for Node 20) draining the same topic with the same
 * per-partition fetch size and waits the Sluice poller gives kafkajs (framework/poller/tuning.ts; the
 * whole fetch: that size times the partitions processed at once), no-op per
 * record, auto-committing. Unlike kafkajs it fetches ahead into a stream while the application
 * consumes, which is what this row measures. Values are left as Buffers (no deserialisation).
 */
import { Consumer, MessagesStreamModes } from '@platformatic/kafka';
import { groupTuning } from '../../framework/poller/tuning.ts';

export interface PlatformaticOptions {
  brokers: string[];
  topic: string;
  groupId: string;
  concurrency: number;
  onFirst(): void;
  onRecords(count: number): void;
}

export async function startPlatformatic(o: PlatformaticOptions): Promise<{ stop(): Promise<void> }> {
  const t = groupTuning({ maximumBatchingWindowMs: 0, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, maxPollIntervalMs: 300_000, concurrency: o.concurrency });
  const consumer = new Consumer({
    groupId: o.groupId,
    clientId: 'sluice-bench-platformatic',
    bootstrapBrokers: o.brokers,
    sessionTimeout: t.sessionTimeoutMs,
    rebalanceTimeout: t.maxPollIntervalMs,
    heartbeatInterval: t.heartbeatIntervalMs,
    maxWaitTime: t.maxWaitTimeMs,
    minBytes: t.minBytes,
    maxBytes: t.maxBytesPerPartition * t.concurrency,
    maxBytesPerPartition: t.maxBytesPerPartition,
  });
  const stream = await consumer.consume({ topics: [o.topic], mode: MessagesStreamModes.EARLIEST, autocommit: true });
  let started = false;
  // A stream error ends the pass with the error (the drain's deadline reports it), not the bench.
  stream.on('error', (e: Error) => console.error(`[bench] @platformatic/kafka stream error: ${e.message}`));
  stream.on('data', () => {
    if (!started) {
      started = true;
      o.onFirst();
    }
    o.onRecords(1);
  });
  return {
    stop: async () => {
      await stream.close();
      await consumer.close();
    },
  };
}
