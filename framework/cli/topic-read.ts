/**
 * Reads a topic for the CLI (`tail`, `redrive`) without touching any trigger's group: a consumer
 * of a throwaway group that never commits, deleted when done. `untilEnd` stops at the log end
 * each partition had when reading began; otherwise it reads on until `signal` aborts.
 */
import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { ClusterAdmin } from '../kafka/admin.ts';

export interface ReadRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Array<[string, Buffer]>;
}

export interface TopicReadOptions {
  kafka: Kafka;
  brokers: string[];
  topic: string;
  fromBeginning: boolean;
  untilEnd: boolean;
  signal?: AbortSignal;
  onRecord(r: ReadRecord): void | Promise<void>;
  /** Once reading has its partitions: every record written since `readTopic` was called is read. */
  onReady?(): void;
}

export async function readTopic(o: TopicReadOptions): Promise<void> {
  const admin = await ClusterAdmin.connect(o.kafka, o.brokers);
  let ends: Map<number, { start: number; end: number }>;
  try {
    if ((await admin.missingTopics([o.topic])).length > 0) throw new Error(`Topic "${o.topic}" does not exist on ${o.brokers.join(',')}.`);
    ends = new Map((await admin.topicOffsets(o.topic)).map((p) => [p.partition, { start: p.logStart, end: p.logEnd }]));
  } finally {
    await admin.disconnect();
  }
  const groupId = `sluice-cli-${randomUUID()}`;
  const consumer = o.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 });
  // Partitions with records still to read (untilEnd); a control record last in a log is not met, see README.
  const pending = new Set([...ends].filter(([, e]) => e.end > e.start).map(([p]) => p));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  if (o.untilEnd && pending.size === 0) return;
  o.signal?.addEventListener('abort', () => finish(), { once: true });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    if (joined) return;
    joined = true;
    // From the log ends read above, not from where kafkajs would resolve "latest" later on.
    if (!o.fromBeginning) for (const [partition, e] of ends) consumer.seek({ topic: o.topic, partition, offset: String(e.end) });
    o.onReady?.();
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [o.topic], fromBeginning: o.fromBeginning });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        const end = ends.get(partition)?.end ?? 0;
        if (o.untilEnd && Number(message.offset) >= end) return;
        await o.onRecord(toRead(o.topic, partition, message));
        if (o.untilEnd && Number(message.offset) + 1 >= end) {
          pending.delete(partition);
          if (pending.size === 0) finish();
        }
      },
    });
    await finished;
  } finally {
    await consumer.disconnect();
    const cleanup = await ClusterAdmin.connect(o.kafka, o.brokers).catch(() => undefined);
    await cleanup?.deleteGroup(groupId).catch(() => undefined);
    await cleanup?.disconnect();
  }
}

function toRead(topic: string, partition: number, m: KafkaMessage): ReadRecord {
  const headers: Array<[string, Buffer]> = [];
  for (const [name, value] of Object.entries(m.headers ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.push([name, Buffer.isBuffer(v) ? v : Buffer.from(String(v))]);
  }
  return { topic, partition, offset: Number(m.offset), timestamp: Number(m.timestamp), key: m.key, value: m.value, headers };
}
