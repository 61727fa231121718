/**
 * Reads a topic for the CLI (`tail`, `redrive`, `invoke --offset`) without touching any
 * trigger's group: a consumer of a throwaway group that never commits, deleted when done.
 * Records come as the poller reads them (framework/kafka/kafkajs/records.ts). `untilEnd` stops at the log
 * end each partition had when reading began; otherwise reading goes on until `signal` aborts.
 */
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { KafkaRecord } from '../event/record.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { toKafkaRecord } from '../kafka/kafkajs/records.ts';
import { UsageError } from '../errors.ts';

export interface TopicReadOptions {
  kafka: Kafka;
  brokers: string[];
  topic: string;
  /**
   * Where to begin: every partition's first or next record, every partition's `last` newest records,
   * or one partition from an offset (only that partition is read).
   */
  start: 'beginning' | 'end' | { last: number } | { partition: number; offset: number };
  untilEnd: boolean;
  signal?: AbortSignal;
  onRecord(r: KafkaRecord): void | Promise<void>;
  /** Once reading has its partitions: every record written since `readTopic` was called is read. */
  onReady?(): void;
}

export async function readTopic(o: TopicReadOptions): Promise<void> {
  const admin = await ClusterAdmin.connect(o.kafka, o.brokers);
  let logs: Map<number, { start: number; end: number }>;
  try {
    if ((await admin.missingTopics([o.topic])).length > 0) throw new UsageError(`Topic "${o.topic}" does not exist on ${o.brokers.join(',')}.`);
    logs = new Map((await admin.topicOffsets(o.topic)).map((p) => [p.partition, { start: p.logStart, end: p.logEnd }]));
  } finally {
    await admin.disconnect();
  }
  const only = typeof o.start === 'object' && 'partition' in o.start ? o.start : undefined;
  const last = typeof o.start === 'object' && 'last' in o.start ? o.start.last : undefined;
  if (only && !logs.has(only.partition)) throw new UsageError(`${o.topic} has no partition ${only.partition} (it has ${logs.size}: 0-${logs.size - 1}).`);
  // Where each partition is read from (absent: kafkajs's default for a new group).
  const from = new Map<number, number>();
  for (const [p, log] of logs) {
    if (o.start === 'end' || (only && only.partition !== p)) from.set(p, log.end);
    else if (only) from.set(p, Math.max(only.offset, log.start));
    else if (last !== undefined) from.set(p, Math.max(log.end - last, log.start));
  }
  // Partitions with records still to read (untilEnd); a control record last in a log is never met.
  const pending = new Set([...logs].filter(([p, log]) => log.end > (from.get(p) ?? log.start)).map(([p]) => p));
  if (o.untilEnd && pending.size === 0) return o.onReady?.();

  const groupId = `sluice-cli-${randomUUID()}`;
  const consumer = o.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 });
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  o.signal?.addEventListener('abort', () => finish(), { once: true });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    if (joined) return;
    joined = true;
    // From the offsets read above, not from where kafkajs would resolve "latest" later on.
    for (const [partition, offset] of from) consumer.seek({ topic: o.topic, partition, offset: String(offset) });
    o.onReady?.();
  });
  await consumer.connect();
  try {
    // A seek below a log start that moved on since the offsets were read (retention, DeleteRecords)
    // resets to the earliest record, not the latest: reading to the end must still meet the end.
    await consumer.subscribe({ topics: [o.topic], fromBeginning: o.start !== 'end' });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset);
        if (only && partition !== only.partition) return;
        const end = logs.get(partition)?.end ?? 0;
        if (o.untilEnd && offset >= end) return;
        await o.onRecord(toKafkaRecord(o.topic, partition, message));
        if (o.untilEnd && offset + 1 >= end) {
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
