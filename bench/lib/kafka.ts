/**
 * Bench-side Kafka plumbing: a quiet kafkajs client, topics and a fast preloading producer. The bench talks to kafkajs directly (it also runs the bare-kafkajs
 * baseline); the framework keeps kafkajs behind framework/kafka/.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Producer } from 'kafkajs';

export const kafkaClient = (brokers: string[], clientId = 'sluice-bench'): Kafka =>
  new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3000 } });

export const uniqueName = (prefix: string): string => `bench-${prefix}-${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;

export async function createTopic(kafka: Kafka, topic: string, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }] });
  } finally {
    await admin.disconnect();
  }
}

/** Deletes bench topics once a scenario is done with them, so a full run does not keep gigabytes on disk. */
export async function deleteTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics, timeout: 30_000 }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

export interface PreloadOptions {
  records: number;
  partitions: number;
  valueBytes: number;
  /** Keys `key-0` … `key-<keys − 1>`, round-robin over the records; undefined for null keys. */
  keys?: number;
  /** Records per produce request (spread over every partition). */
  perSend?: number;
  /** Produce requests in flight at once. */
  inFlight?: number;
}

/**
 * Writes `records` records of `valueBytes` random bytes round-robin over the partitions (and the
 * keys, if any), many records per request, several requests in flight, no compression. Returns
 * records/s.
 */
export async function preload(kafka: Kafka, topic: string, o: PreloadOptions): Promise<{ ms: number; perSecond: number }> {
  const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false });
  await producer.connect();
  const started = performance.now();
  try {
    const value = randomBytes(o.valueBytes);
    const perSend = o.perSend ?? 4_000;
    const inFlight = o.inFlight ?? 4;
    let next = 0;
    const lane = async (p: Producer): Promise<void> => {
      while (next < o.records) {
        const from = next;
        const count = Math.min(perSend, o.records - from);
        next += count;
        const messages = Array.from({ length: count }, (_, i) => ({ value, partition: (from + i) % o.partitions, ...(o.keys ? { key: `key-${(from + i) % o.keys}` } : {}) }));
        await p.send({ topic, acks: 1, messages });
      }
    };
    await Promise.all(Array.from({ length: inFlight }, () => lane(producer)));
  } finally {
    await producer.disconnect();
  }
  const ms = performance.now() - started;
  return { ms, perSecond: (o.records / ms) * 1000 };
}
