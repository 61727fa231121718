/**
 * Partitions starved at the default concurrency (issue 39, item 4): the librdkafka member started
 * batches by scanning its partitions from the first, so with fewer batches allowed at once
 * (`concurrency`, 4 by default) than partitions owned, the partitions scanned first took every
 * free place again as soon as their batch ended. Tried through `npm start` on a 6-partition topic
 * with a backlog on each: records invoked per partition in 20 s were 0 0 960 960 970 990. The
 * member now serves the partition whose last batch started longest ago first; kafkajs gives every
 * partition a turn per fetch. Both engines must start every partition within the first rounds.
 */
import { afterAll, expect, it } from 'vitest';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, kafka, offsets, uniqueName, waitFor } from '../support/kafka.ts';

const PARTITIONS = 6;
const PER_PARTITION = 100;
const BATCH = 5;
const CONCURRENCY = 2;
/** Each partition fetches about 8 records of 2 KB ahead: a batch (2 invocations of 200 ms) drains it, and it fills again while the batch runs. */
const FETCH_BYTES = 16 * 1024;

const topics: string[] = [];
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await Promise.all(topics.map(deleteTopic));
});

it('with fewer batches allowed at once than partitions owned, every partition gets its turn', async () => {
  const topic = uniqueName('starved');
  topics.push(topic);
  await createTopic(topic, PARTITIONS);
  h = await startRecorder({ topic, batchSize: BATCH, concurrency: CONCURRENCY, tuning: { maxBytesPerPartition: FETCH_BYTES }, env: { SLEEP_MS: '200' } });
  const producer = await RecordProducer.connect(kafka());
  const value = 'x'.repeat(2_000);
  const round = () => producer.send(topic, Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, value })));
  // A first record on each partition, invoked: every partition is fetching before the backlog comes
  // (librdkafka looks up each partition's start on its own, and on a busy machine some seconds apart).
  await round();
  await waitFor('a first record of every partition invoked', () => new Set(h!.seen().flatMap(recordsOf).map((r) => r.partition)).size === PARTITIONS, 60_000);
  // The backlog: one send per round, a record batch of 2 KB per partition, so a fetch of FETCH_BYTES stops after a few.
  for (let r = 0; r < PER_PARTITION; r++) await round();
  await producer.disconnect();
  await waitFor('every record committed', async () => (await offsets(h!.trigger.consumerGroupId, topic)).every((p) => p.committed === PER_PARTITION + 1), 120_000);

  // The partition of each invocation of the backlog, in the order they started.
  const order = h.seen().filter((s) => recordsOf(s)[0]!.offset > 0).sort((a, b) => a.at - b.at).map((s) => recordsOf(s)[0]!.partition);
  const firstTurn = Array.from({ length: PARTITIONS }, (_, p) => order.indexOf(p));
  console.log(`[starved] ${order.length} invocations of the backlog; each partition's first among them: ${JSON.stringify(firstTurn)}`);
  // A partition that waits for the first ones to drain starts after their 20 invocations each (index >= 40).
  // With turns, each partition before it runs one batch of about 2 invocations: the last starts near index 10.
  for (const at of firstTurn) expect(at).toBeGreaterThanOrEqual(0);
  expect(Math.max(...firstTurn)).toBeLessThan(3 * PARTITIONS);
});
