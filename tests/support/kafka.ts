/** Real-broker helpers for integration tests: unique names, topics, producing, committed offsets. */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import type { PartitionOffsets } from '../../framework/kafka/admin-port.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import type { OutgoingRecord } from '../../framework/kafka/producer-port.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { waitForLeaders, type TopicMetadataSource } from '../../framework/kafka/kafkajs/topic-leaders.ts';

export const testLogger = createLogger('test', process.env.SLUICE_LOG_LEVEL ? {} : { level: 'warn' });

export function brokers(): string[] {
  return inject('kafkaBrokers').split(',');
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * A fixed base for record timestamps a test asserts: the whole minute an hour ago. Records must be
 * younger than the broker's retention (7 days): older ones go at its next retention check (every 5
 * minutes), and a consumer starting from the earliest offset finds the log start at the log end.
 * CI-8's codecs run (stamped 2026-01-01) joined, then waited 120 s on an empty log: its segment had
 * been deleted and rolled at offset 150.
 */
export const recentTimestampBase = (): number => Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;

export const kafka = () => createKafkaClient({ brokers: brokers(), logger: testLogger, retries: 3 });

export async function withAdmin<T>(fn: (admin: ClusterAdmin) => Promise<T>): Promise<T> {
  const admin = await ClusterAdmin.connect(kafka(), brokers());
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

export async function createTopic(topic: string, partitions: number): Promise<void> {
  await withAdmin((a) => a.ensureTopics([{ topic, partitions }]));
}

export async function deleteTopic(topic: string): Promise<void> {
  await withAdmin((a) => a.deleteTopics([topic])).catch(() => undefined);
}

export async function produce(topic: string, records: OutgoingRecord[]): Promise<void> {
  const producer = await RecordProducer.connect(kafka());
  try {
    for (let i = 0; i < records.length; i += 1000) await producer.send(topic, records.slice(i, i + 1000));
  } finally {
    await producer.disconnect();
  }
}

export async function offsets(groupId: string, topic: string): Promise<PartitionOffsets[]> {
  return withAdmin((a) => a.offsets(groupId, topic));
}

/**
 * Creates topics through a plain kafkajs admin and waits for their leaders the way Sluice does
 * (topic-leaders.ts): kafkajs's own wait fails on a busy broker's 'This server does not host this
 * topic-partition', which only means 'not yet'.
 */
export async function createTopicsWithLeaders(admin: TopicMetadataSource & { createTopics(o: { topics: Array<{ topic: string }>; waitForLeaders: boolean }): Promise<boolean> }, topics: Array<{ topic: string; numPartitions?: number; configEntries?: Array<{ name: string; value: string }> }>): Promise<void> {
  await admin.createTopics({ topics, waitForLeaders: false });
  await waitForLeaders(admin, topics.map((t) => t.topic));
}

/**
 * Calls `ask` again while it fails with an error kafkajs marks retriable (a busy broker answers an
 * OffsetFetch with NOT_COORDINATOR while the group's coordinator is still being placed), for up to
 * `withinMs`; any other error, or the last retriable one, is thrown.
 */
export async function untilAnswered<T>(ask: () => Promise<T>, withinMs = 30_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await ask();
    } catch (e) {
      if (!(e as { retriable?: boolean }).retriable || Date.now() >= deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Polls `check` until it returns true; fails with `what` after `timeoutMs`, and with what `explain`
 * says of the state then (a failure in CI, whose logs may be gone, should say where it stood).
 */
export async function waitFor(
  what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000, everyMs = 200, explain?: () => string | Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  const state = explain ? `; ${await Promise.resolve().then(explain).catch((e: unknown) => `(its state could not be read: ${String(e)})`)}` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${state}`);
}

export interface ReadRecord {
  partition: number;
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
}

/** Reads a topic from the beginning until `count` records arrived (or fails after `timeoutMs`). */
/** The first `count` records of `topic` (on the shared test broker, or on `on`). */
export async function readTopic(topic: string, count: number, timeoutMs = 30_000, on?: string[]): Promise<ReadRecord[]> {
  const client = on ? createKafkaClient({ brokers: on, logger: testLogger, retries: 3 }) : kafka();
  const consumer = client.consumer({ groupId: uniqueName('reader') });
  const got: ReadRecord[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const headers: Record<string, Buffer> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = Buffer.from(Array.isArray(v) ? v[0]! : v!);
        got.push({ partition, offset: Number(message.offset), timestamp: Number(message.timestamp), key: message.key, value: message.value, headers });
      },
    });
    await waitFor(`${count} records in ${topic}`, () => got.length >= count, timeoutMs);
    return got;
  } finally {
    await consumer.disconnect();
  }
}
