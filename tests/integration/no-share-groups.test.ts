/**
 * A cluster without share groups (Kafka 4.4 formatted with share.version=0, as a 4.0 or 4.1 cluster
 * is by default; it still lists the share RPCs, and refuses the heartbeat): a queue trigger is
 * refused at start with one line saying which broker version and setting it needs, the poller does
 * not restart what cannot work, and the command the line gives makes the same trigger run.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import { failurePolicy, recordsOf, startRecorder } from '../support/harness.ts';
import { runKafkaTool } from '../support/kafka-tools.ts';
import { testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const PORT = testPort(28700);
let broker: BrokerHandle | undefined;

beforeAll(async () => {
  broker = await ensureBroker({ instanceDir: testInstanceDir('kafka-no-share'), port: PORT, freshData: true, features: { 'share.version': 0 }, log: (l) => console.log(`[kafka-no-share] ${l}`) });
}, 180_000);
afterAll(async () => {
  await broker?.stop();
});

it('refuses a queue trigger at start, in one line naming the version and setting it needs, without restarting it', async () => {
  const brokers = [broker!.bootstrap];
  const topic = uniqueName('no-share');
  const admin = await ClusterAdmin.connect(createKafkaClient({ brokers, logger: testLogger, retries: 3 }), brokers);
  await admin.ensureTopics([{ topic, partitions: 1 }, { topic: `${topic}-failed`, partitions: 1 }]);
  await admin.disconnect();
  const events = new Instrumentation();
  let restarts = 0;
  events.on('trigger.consumer_restarted', () => restarts++);
  const onFailure = { kind: 'kafka' as const, uri: `kafka://${topic}-failed`, topic: `${topic}-failed` };
  const refused = await startRecorder({ topic, bootstrapServers: brokers, consumptionMode: 'queue', failure: failurePolicy({ onFailure }), events }).then(
    async (h) => {
      await h.stop();
      return undefined;
    },
    (e: Error) => e.message,
  );
  console.log(`[no-share] ${refused}`);
  expect(refused).toMatch(/^share group "group-[^"]+" cannot be joined \(UNSUPPORTED_VERSION\): queue mode needs share groups: Kafka 4\.2 or later with the share\.version feature at 1 or above \(kafka-features --bootstrap-server <broker> upgrade --feature share\.version=1\)$/);
  expect(restarts).toBe(0);

  // The advice works: Kafka's own kafka-features with the command the line gives, then the same trigger starts and consumes.
  const upgrade = /\((kafka-features .*)\)$/.exec(refused!)![1]!.replace('<broker>', brokers[0]!).split(' ').slice(1);
  const tool = await runKafkaTool('org.apache.kafka.tools.FeatureCommand', upgrade);
  let out = '';
  tool.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  tool.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
  expect(await new Promise<number | null>((resolve) => tool.on('exit', resolve)), out).toBe(0);
  const producer = await RecordProducer.connect(createKafkaClient({ brokers, logger: testLogger, retries: 3 }));
  await producer.send(topic, [{ value: 'after the upgrade' }]);
  await producer.disconnect();
  const h = await startRecorder({ topic, bootstrapServers: brokers, consumptionMode: 'queue', failure: failurePolicy({ onFailure }) });
  try {
    await waitFor('the record invoked', () => h.seen().flatMap(recordsOf).length === 1);
  } finally {
    await h.stop();
  }
});
