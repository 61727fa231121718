/**
 * The `kafka://` destination's producer on the librdkafka engine (issue 29): librdkafka's
 * idempotent producer. What it writes must be what kafkajs's producer writes: every record once,
 * each key on the partition Java's producer and kafkajs pick (murmur2), headers and timestamps
 * kept; batches within the destination topic's max.message.bytes; and a record it cannot write
 * is reported failed within the send's bound, never as written.
 */
import { describe, expect, it } from 'vitest';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import type { OutgoingRecord } from '../../framework/kafka/producer-port.ts';
import { RdkafkaProducer } from '../../framework/kafka/rdkafka/producer.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';
import { brokers, readTopic, testLogger, uniqueName, withAdmin } from '../support/kafka.ts';

const connect = (maxMessageBytes = 1_048_588, deliveryTimeoutMs = 20_000) =>
  RdkafkaProducer.connect({ askedBy: 'rdkafka-producer.test.ts', brokers: brokers(), logger: testLogger, clientId: 'sluice-test-producer', maxMessageBytes, deliveryTimeoutMs });

describe('librdkafka destination producer', () => {
  const { topics } = cleanupAfterAll();

  it('writes every record once, each key where kafkajs puts it, with its headers and timestamp', async () => {
    const [mine, theirs] = [uniqueName('rdk-prod'), uniqueName('rdk-prod-kjs')];
    topics.push(mine, theirs);
    await withAdmin((a) => a.ensureTopics([{ topic: mine, partitions: 6 }, { topic: theirs, partitions: 6 }]));
    const at = Date.parse('2026-01-02T03:04:05.000Z');
    const records: OutgoingRecord[] = Array.from({ length: 300 }, (_, i) => ({
      key: i % 3 === 2 ? null : `k${i % 100}`,
      value: `v${i}`,
      headers: [['n', String(i)], ['__proto__', 'plain']],
      timestamp: at + i,
    }));

    const producer = await connect();
    try {
      await producer.send(mine, records);
    } finally {
      await producer.disconnect();
    }
    const kafkajs = await RecordProducer.connect(createKafkaClient({ brokers: brokers(), logger: testLogger, clientId: 'sluice-test-kjs' }));
    try {
      await kafkajs.send(theirs, records.filter((r) => r.key !== null));
    } finally {
      await kafkajs.disconnect();
    }

    const read = await readTopic(mine, 300);
    const logEnds = await withAdmin((a) => a.offsets('nobody', mine));
    expect(logEnds.reduce((n, p) => n + p.logEnd, 0)).toBe(300); // nothing written twice
    const byValue = new Map(read.map((r) => [r.value!.toString(), r]));
    expect(byValue.size).toBe(300);
    for (const [i, r] of records.entries()) {
      const got = byValue.get(`v${i}`)!;
      expect(got.key?.toString() ?? null).toBe(r.key);
      expect(got.timestamp).toBe(at + i);
      expect(got.headers.n!.toString()).toBe(String(i));
      expect(got.headers.__proto__!.toString()).toBe('plain');
    }
    // Per partition, in the order sent.
    for (let p = 0; p < 6; p++) {
      const sent = read.filter((r) => r.partition === p).sort((a, b) => a.offset - b.offset).map((r) => Number(r.headers.n!.toString()));
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
    }
    const kafkajsPartition = new Map((await readTopic(theirs, 200)).map((r) => [r.key!.toString(), r.partition]));
    const keyed = read.filter((r) => r.key !== null);
    expect(keyed.filter((r) => kafkajsPartition.get(r.key!.toString()) !== r.partition)).toEqual([]);
    console.log(`[rdk-producer] 300 records, ${new Set(read.map((r) => r.partition)).size} partitions, ${keyed.length} keyed all on kafkajs's partition`);
  });

  it('builds no batch over the topic max.message.bytes: 60 records of 20 KB into a 100 KB topic, one send', async () => {
    const topic = uniqueName('rdk-prod-small');
    topics.push(topic);
    const limit = 100_000;
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: 1, config: { 'max.message.bytes': String(limit) } }]));
    const producer = await connect(limit);
    try {
      await producer.send(topic, Array.from({ length: 60 }, (_, i) => ({ key: `k${i}`, value: Buffer.alloc(20_000, i) })));
    } finally {
      await producer.disconnect();
    }
    const read = await readTopic(topic, 60);
    expect(read.map((r) => r.key!.toString())).toEqual(Array.from({ length: 60 }, (_, i) => `k${i}`));
  });

  it('closed with a record unreported: its send fails as not confirmed, instead of waiting for a report that never comes', async () => {
    const producer = await connect(1_048_588, 20_000);
    const sending = producer.send(uniqueName('rdk-prod-missing'), [{ key: 'k', value: 'v' }]).then(() => undefined, (e: Error) => e);
    await producer.disconnect();
    const error = await sending;
    expect(error?.message).toBe('the destination producer closed before librdkafka confirmed the record');
  });

  it('a broker that is not there: the connect fails with what librdkafka said', async () => {
    const error = await RdkafkaProducer.connect({
      askedBy: 'rdkafka-producer.test.ts', brokers: ['127.0.0.1:1'], logger: testLogger, clientId: 'sluice-test-producer', maxMessageBytes: 1_048_588, deliveryTimeoutMs: 3_000, connectWithinMs: 3_000,
    }).then(() => undefined, (e: Error) => e);
    console.log(`[rdk-producer] no broker: ${error?.message}`);
    expect(error?.message).toMatch(/^the destination producer could not reach the brokers at 127\.0\.0\.1:1: /);
    expect(error!.message).not.toMatch(/not connected/i);
  });

  it('a topic that does not exist: the send fails at its delivery bound, naming why', async () => {
    const producer = await connect(1_048_588, 3_000);
    const started = Date.now();
    try {
      const error = await producer.send(uniqueName('rdk-prod-missing'), [{ key: 'k', value: 'v' }]).then(() => undefined, (e: Error) => e);
      const tookMs = Date.now() - started;
      console.log(`[rdk-producer] missing topic: ${error?.message} after ${tookMs} ms`);
      expect(error?.message).toMatch(/^librdkafka did not deliver the record: .*(Unknown topic|timed out)/i);
    } finally {
      await producer.disconnect();
    }
  });
});
