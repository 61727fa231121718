/**
 * A parallel retry that never ran at the end of a transactional log (issue 39, item 3): with
 * records held for a retry, the partition fetched again from them only when the high watermark
 * said the log had ended; otherwise it fetched on, waiting for a new record to bring a batch. A
 * transactional producer ends every transaction with a marker (and an aborted one leaves records
 * no reader gets), so the high watermark lies past the last record a reader sees, no engine hands
 * over a batch of markers alone, and the retry waited for a record that might never come. Now
 * held work is fetched again when it is due, whatever the high watermark says.
 *
 * The acceptance shape: 5 keyed records written in one transaction, then nothing (here,
 * an aborted transaction after them, whose record must never run); the handler fails the middle
 * record once. At factor 1 the failed record is fetched again by the retry itself.
 */
import kafkajs from 'kafkajs';
import { afterAll, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, uniqueName, waitFor } from '../support/kafka.ts';

const topics: string[] = [];
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await Promise.all(topics.map(deleteTopic));
});

it.each([4, 1])('a log that ends in transaction markers: the failed record is retried, all 5 run, the aborted one never (parallelizationFactor %i)', async (parallelizationFactor) => {
  const topic = uniqueName('tx-tail');
  topics.push(topic);
  await createTopic(topic, 1);
  const producer = new kafkajs.Kafka({ brokers: brokers(), logLevel: kafkajs.logLevel.NOTHING })
    .producer({ transactionalId: uniqueName('tx'), idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const committedTx = await producer.transaction();
  await committedTx.send({ topic, messages: Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })) });
  await committedTx.commit();
  const abortedTx = await producer.transaction();
  await abortedTx.send({ topic, messages: [{ key: 'k9', value: 'aborted' }] });
  await abortedTx.abort();
  await producer.disconnect();

  await h?.stop();
  h = await startRecorder({ topic, batchSize: 1, parallelizationFactor, env: { FAIL_ONCE_OFFSETS: '2' } });
  const ranOk = () => {
    const done = new Set(h!.completed());
    return h!.seen().filter((s) => done.has(s.requestId)).flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString());
  };
  await waitFor('all 5 records invoked ok', () => ['v0', 'v1', 'v2', 'v3', 'v4'].every((v) => ranOk().includes(v)), 60_000);
  await waitFor('the commit past the 5', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed >= 5, 30_000);
  const seen = h.seen().flatMap(recordsOf).map((r) => `${r.offset}:${Buffer.from(r.value!, 'base64').toString()}`);
  const { committed, logEnd } = (await offsets(h.trigger.consumerGroupId, topic))[0]!;
  console.log(`[tx tail, factor ${parallelizationFactor}] invoked ${JSON.stringify(seen)}; committed ${committed} of log end ${logEnd}`);
  expect(ranOk().sort()).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  expect(seen.filter((s) => s.endsWith(':v2'))).toHaveLength(2); // failed once, then ok
  expect(seen.some((s) => s.endsWith(':aborted'))).toBe(false);
});
