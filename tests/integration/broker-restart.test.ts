/**
 * A broker killed -9 and restarted on its data: the poller resumes within seconds of the broker
 * being ready and loses nothing. The consumer cannot leave while its broker is down, so the
 * coordinator restores the group with the stopped member in it; unless the new member leaves
 * for it first (kafka/evict-member.ts), the join waits out that member's whole session
 * (measured before: 10.0 s after ready with a 10 s session). With a 60 s session the test sees
 * the records within 30 s or fails. Runs on a broker of its own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const INSTANCE_DIR = testInstanceDir('kafka-restart');
const PORT = testPort(28690);

describe('broker restart', () => {
  let broker: BrokerHandle | undefined;
  let harness: Harness | undefined;
  afterAll(async () => {
    await harness?.stop();
    await broker?.stop();
  });

  it("killed -9 and restarted on its data: the new member does not wait out the stopped one's session, 0 lost", async () => {
    const start = (freshData: boolean) => ensureBroker({ instanceDir: INSTANCE_DIR, port: PORT, freshData, log: (l) => console.log(`[kafka-restart] ${l}`) });
    broker = await start(true);
    const brokers = [broker.bootstrap];
    const kafka = () => createKafkaClient({ brokers, logger: testLogger, retries: 3 });
    const topic = uniqueName('restart');
    const admin = await ClusterAdmin.connect(kafka(), brokers);
    await admin.ensureTopics([{ topic, partitions: 2 }]);
    await admin.disconnect();
    const send = async (from: number, count: number) => {
      const p = await RecordProducer.connect(kafka());
      await p.send(topic, Array.from({ length: count }, (_, i) => ({ partition: (from + i) % 2, value: `v${from + i}` })));
      await p.disconnect();
    };
    await send(0, 20);

    // A session twice as long as the wait below: records invoked within the wait show the stopped
    // member was made to leave (evict-member.ts), not waited out.
    const sessionTimeoutMs = 60_000;
    harness = await startRecorder({ topic, bootstrapServers: brokers, batchSize: 5, sessionTimeoutMs, heartbeatIntervalMs: 1_000 });
    const h = harness;
    await waitFor('the first 20 invoked', () => h.completed().length > 0 && h.seen().flatMap(recordsOf).length >= 20, 30_000);

    process.kill(broker.pid!, 'SIGKILL');
    const killed = Date.now();
    await waitFor('the broker gone', () => {
      try {
        process.kill(broker!.pid!, 0);
        return false;
      } catch {
        return true;
      }
    }, 10_000, 50);
    await new Promise((r) => setTimeout(r, 5_000));
    broker = await start(false);
    const ready = Date.now();
    await send(20, 10);
    await waitFor("records 20-29 invoked, inside half the stopped member's session", () => h.seen().flatMap(recordsOf).filter((r) => Number(Buffer.from(r.value!, 'base64').toString().slice(1)) >= 20).length >= 10, sessionTimeoutMs / 2);
    const firstAfter = h.seen().find((s) => s.at > ready)!.at - ready;
    const values = new Set(h.seen().flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString()));
    const lost = Array.from({ length: 30 }, (_, i) => `v${i}`).filter((v) => !values.has(v));
    console.log(`[broker-restart] killed, back ${ready - killed} ms later; first invocation ${firstAfter} ms after the broker was ready; joins ${h.joins.length}; lost ${lost.length}`);
    expect(lost).toEqual([]);
  });
});
