/**
 * parallelizationFactor on a broker whose offset.metadata.max.bytes is not Kafka's 4,096: the
 * poller reads the brokers' bound before its first batch and keeps the done records beyond the
 * committed offset within the window that bound allows, so no commit is refused for its metadata.
 * Assuming 4,096 here, the window would be 24,432 offsets and invocations would run far past the
 * 1,024 characters' window. Runs on a broker of its own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { DEFAULT_METADATA_MAX_BYTES, decodeMetadata, windowFor } from '../../framework/parallel/commit-metadata.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const INSTANCE_DIR = testInstanceDir('kafka-metadata-bound');
const PORT = testPort(28760); // controller 28761; below Linux's ephemeral range
const BOUND = 1024;
const keyFor = (i: number) => (i % 10 === 9 ? null : `k${i % 100}`);

describe('parallelizationFactor under a broker\'s own offset.metadata.max.bytes', () => {
  let broker: BrokerHandle | undefined;
  let harness: Harness | undefined;
  afterAll(async () => {
    await harness?.stop();
    await broker?.stop();
  });

  it('reads the bound from the brokers and keeps the window within it: the poison record holds the commit, nothing past the window starts, no commit is refused', async () => {
    broker = await ensureBroker({
      instanceDir: INSTANCE_DIR, port: PORT, freshData: true, settings: { 'offset.metadata.max.bytes': BOUND }, log: (l) => console.log(`[kafka-metadata-bound] ${l}`),
    });
    const brokers = [broker.bootstrap];
    const kafka = () => createKafkaClient({ brokers, logger: testLogger, retries: 3 });
    const admin = await ClusterAdmin.connect(kafka(), brokers);
    try {
      expect(await admin.offsetMetadataMaxBytes()).toBe(BOUND);
      const topic = uniqueName('pf-bound');
      await admin.ensureTopics([{ topic, partitions: 1 }]);
      const count = 12_000;
      const producer = await RecordProducer.connect(kafka());
      await producer.send(topic, Array.from({ length: count }, (_, i) => ({ key: keyFor(i), value: `v${i}`, partition: 0 })));
      await producer.disconnect();

      const events = new Instrumentation();
      const windowFull: number[] = [];
      events.on('poller.partition_parallel', (e) => void (e.windowFull && windowFull.push(Date.now())));
      const failure = failurePolicy({ bisectBatchOnFunctionError: true });
      harness = await startRecorder({ topic, bootstrapServers: brokers, batchSize: 100, parallelizationFactor: 10, failure, events, env: { POISON_OFFSETS: '10' } });
      const h = harness;
      const added = h.trigger.engine === 'librdkafka' ? 1 : 0;
      const window = windowFor(BOUND - added);
      const commit = async () => (await admin.committedWithMetadata(h.trigger.consumerGroupId, topic)).get(0);

      await waitFor('the window full', () => windowFull.length > 0, 90_000);
      await waitFor('every record the window allows done', async () => {
        const c = await commit();
        const d = c && decodeMetadata(c.metadata, c.offset);
        return c?.offset === 10 && d?.kind === 'done' && d.ranges.at(-1)!.until >= 10 + window - 100;
      }, 60_000);
      await new Promise((r) => setTimeout(r, 2_000)); // it stays put
      const c = (await commit())!;
      const d = decodeMetadata(c.metadata, c.offset);
      const invoked = h.seen().flatMap(recordsOf).map((r) => r.offset);
      const highest = Math.max(...invoked);
      console.log(`[parallel bound] offset.metadata.max.bytes ${BOUND}: committed ${c.offset}, ${c.metadata!.length} characters of metadata, done up to ${d.kind === 'done' ? d.ranges.at(-1)!.until : '?'}, highest offset invoked ${highest} (window ${window} offsets; ${windowFor(DEFAULT_METADATA_MAX_BYTES)} at Kafka's default)`);
      expect(c.offset).toBe(10);
      expect(d.kind).toBe('done');
      expect(c.metadata!.length).toBeLessThanOrEqual(BOUND);
      // The window the brokers' bound allows, not 4,096's (and not a halved one after a refusal).
      expect(highest).toBeLessThanOrEqual(10 + window);
      expect(highest).toBeGreaterThan(10 + window - 100);
      // Nothing of the poison key after it ran successfully: chunks are formed by key, so its later
      // records shared its failing chunk (and halves of it) until bisection isolated it.
      const ok = new Set(h.seen().filter((s) => h.completed().includes(s.requestId)).flatMap(recordsOf).map((r) => r.offset));
      expect([...ok].filter((o) => o > 10 && keyFor(o) === keyFor(10))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });
});
