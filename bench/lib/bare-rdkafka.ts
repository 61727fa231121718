/**
 * The librdkafka engine's baseline: a bare @confluentinc/kafka-javascript consumer on its native
 * API that does nothing with what it consumes, with the fetch settings the Sluice member gives
 * librdkafka (framework/kafka/rdkafka/member.ts: KIP-848, fetch.queue.backoff.ms 10, the fetch
 * sizes of framework/poller/tuning.ts) and the client's own defaults for the rest (auto-commit).
 */
import type { KafkaConsumer, Message } from '@confluentinc/kafka-javascript';
import { loadRdkafka } from '../../framework/kafka/rdkafka/client.ts';
import { groupTuning } from '../../framework/poller/tuning.ts';

export interface BareRdkafkaOptions {
  brokers: string[];
  topic: string;
  groupId: string;
  concurrency: number;
  onFirst?(): void;
  onRecords(count: number): void;
}

export async function startBareRdkafka(o: BareRdkafkaOptions): Promise<{ stop(): Promise<void> }> {
  const { KafkaConsumer } = loadRdkafka('the bench');
  const t = groupTuning({ maximumBatchingWindowMs: 0, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, maxPollIntervalMs: 300_000, concurrency: o.concurrency });
  const consumer = new KafkaConsumer(
    {
      'bootstrap.servers': o.brokers.join(','), 'group.id': o.groupId, 'group.protocol': 'consumer',
      'fetch.wait.max.ms': t.maxWaitTimeMs, 'fetch.min.bytes': t.minBytes, 'max.partition.fetch.bytes': t.maxBytesPerPartition, 'fetch.queue.backoff.ms': 10,
    } as never,
    { 'auto.offset.reset': 'earliest' },
  ) as KafkaConsumer & { setDefaultIsTimeoutOnlyForFirstMessage(only: boolean): void };
  await new Promise<void>((resolve, reject) => {
    consumer.once('ready', () => resolve());
    consumer.connect({ timeout: 30_000 }, (err) => err && reject(err));
  });
  consumer.subscribe([o.topic]);
  consumer.setDefaultConsumeTimeout(100);
  consumer.setDefaultIsTimeoutOnlyForFirstMessage(true);
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const messages = await new Promise<Message[]>((resolve, reject) => consumer.consume(1_000, (err, m) => (err ? reject(err) : resolve(m))));
      if (messages.length === 0) continue;
      o.onFirst?.();
      o.onRecords(messages.length);
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop.catch(() => undefined);
      await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
    },
  };
}
