/**
 * The `kafka://` destination's producer on the librdkafka engine (framework/kafka/rdkafka/producer.ts)
 * under the fault kafkajs-1303-producer.test.ts puts kafkajs's through: sends spanning all three
 * leaders while a leader is killed -9, twice. Every record of a send that resolved must be in the
 * log, and exactly once: librdkafka's idempotent producer retries inside the send without writing
 * a batch twice. What failed sends wrote anyway is printed (the caller would send it again).
 */
import { describe, expect, it } from 'vitest';
import { RdkafkaProducer } from '../../framework/kafka/rdkafka/producer.ts';
import { createTopic, deleteTopic, testLogger, uniqueName } from '../support/kafka.ts';
import { faultCluster } from './support/cluster.ts';
import { copiesIn, killLeadersTwice, sendRounds } from './support/send-rounds.ts';

describe('librdkafka destination producer under leader kills', () => {
  it('sends spanning all three leaders, a leader killed -9 twice: every confirmed record in the log once', async () => {
    const cluster = await faultCluster();
    const topic = uniqueName('rdk-producer-fault');
    await createTopic(topic, 6);
    await cluster.waitHealthy([topic]);
    // The poller's bound on one send is 30 s at most; librdkafka settles each record within 80 % of it.
    const producer = await RdkafkaProducer.connect({
      askedBy: 'rdkafka-producer.test.ts', brokers: cluster.bootstrap, logger: testLogger, clientId: 'sluice-destination', maxMessageBytes: 1_048_588, deliveryTimeoutMs: 24_000,
    });
    let stop = false;
    try {
      const rounds = sendRounds((values) => producer.send(topic, values.map((value, i) => ({ value, partition: i % 6 }))), 'r', 60, () => stop);
      await killLeadersTwice(cluster, topic, [topic]);
      await new Promise((r) => setTimeout(r, 2_000));
      stop = true;
      const r = await rounds;
      const copies = await copiesIn(topic);
      const missing = r.confirmed.filter((v) => !copies.has(v));
      const twice = r.confirmed.filter((v) => (copies.get(v) ?? 0) > 1);
      const confirmedSet = new Set(r.confirmed);
      const unconfirmedWritten = [...copies.keys()].filter((v) => !confirmedSet.has(v)).length;
      console.log(
        `[rdkafka-producer] ${r.confirmed.length} confirmed, ${r.failedRounds} failed rounds, missing ${missing.length}, written twice ${twice.length}; ` +
          `${unconfirmedWritten} records of failed rounds written anyway (the caller's resend would repeat them)`,
      );
      expect(r.confirmed.length).toBeGreaterThan(1_000);
      expect(missing).toEqual([]);
      expect(twice).toEqual([]);
    } finally {
      stop = true;
      await producer.disconnect();
      await deleteTopic(topic);
    }
  });
});
